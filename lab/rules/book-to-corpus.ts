// Turns reconstructed rule-book cases (id, fen, the book's moves, UCI moves, book
// ruling, note[, further expectations]) into corpus lines (the format of corpus.txt):
//   node dist/lab/rules/book-to-corpus.js --book axf --pikafish ./rulejudge test/rules/axf/part-*.txt > test/rules/axf-corpus.txt
//   node dist/lab/rules/book-to-corpus.js --book chinese --pikafish ./rulejudge test/rules/chinese/part-*.txt > test/rules/chinese-corpus.txt
// The book's moves (WXF notation for the AXF book, Chinese notation for the Chinese
// rules) must convert to the UCI moves. The moves are cut at the first repeated
// position and its cycle is played once more, so that the third occurrence is
// reached. Expectations: the book's rule set gives the book's ruling at the second
// occurrence (AsianRule for the AXF book, ChineseRule with Mate Threat Depth 4 for
// the Chinese rules; written "~" when Kirin does not reproduce it); for the AXF book
// also AllowChase = the book's ruling for the perpetual-check rules 6-8 and a draw
// otherwise; ComputerRule = native Pikafish's verdict (rule_judge at the root, every
// prefix; the harness of docs/RULES.md); NoJudgement = none; then the optional
// further expectations. Run from dist/ after `npm run build`.
import {
  err,
  judgeMoves,
  ok,
  parseLegalMove,
  Position,
  ruleConfigFrom,
  type RepetitionRule,
  type Result,
} from '../../src/dev.js';
import { commandLineOrExit, commandSpec } from '../../toolkit/command-line.js';
import { readTextFile } from '../../toolkit/files.js';
import { exitWithError } from '../../toolkit/script.js';
import { nativeFirstVerdict } from './pikafish-oracle.js';
import { trace } from './wxf-notation.js';

const SPEC = commandSpec({
  name: 'book-to-corpus',
  usage: 'usage: node dist/lab/rules/book-to-corpus.js --book axf|chinese --pikafish <rulejudge binary> <case file>...',
  options: { book: { type: 'string' }, pikafish: { type: 'string' } },
  positionals: { min: 1 },
});

type Book = 'axf' | 'chinese';

function boardKey(pos: Position): string {
  return pos.fen().split(' ').slice(0, 2).join(' ');
}

/** The corpus line of one case line, or why the case does not hold together. */
function corpusLine(line: string, book: Book, pikafish: string): Result<string, 'case'> {
  const [id, fen, wxf, uci, ruling, note, extra] = line.split('\t');
  if (note === undefined) return err('case', `${id}: fewer than six tab-separated fields`);
  const moves = uci.trim().split(/\s+/);
  const traced = trace(fen, wxf.trim().split(/\s+/), book === 'axf' ? 'wxf' : 'chinese');
  if (!traced.ok) return err('case', `${id}: ${traced.error.message}`);
  const converted = traced.value.uci;
  if (converted.join(' ') !== moves.join(' '))
    return err('case', `${id}: the book's moves convert to ${converted.join(' ')}, file says ${moves.join(' ')}`);
  const start = Position.fromFen(fen);
  if (!start.ok) return err('case', `${id}: ${start.error.message}`);
  const pos = start.value;
  const seen = [boardKey(pos)];
  let p = -1,
    q = -1;
  for (let i = 0; i < moves.length && p < 0; i++) {
    const m = parseLegalMove(pos, moves[i]);
    if (!m.ok) return err('case', `${id}: ${m.error.message}`);
    pos.doMove(m.value);
    const k = boardKey(pos);
    const j = seen.indexOf(k);
    if (j >= 0) {
      p = i + 1;
      q = j;
    }
    seen.push(k);
  }
  if (p < 0) return err('case', `${id}: the moves never repeat a position`);
  const full = [...moves.slice(0, p), ...moves.slice(q, p)];
  const [rule, depth]: [RepetitionRule, number] = book === 'axf' ? ['AsianRule', 0] : ['ChineseRule', 4];
  const cfg = ruleConfigFrom({ repetitionRule: rule, drawRule: 'None', rule60MaxPly: 120, mateThreatDepth: depth });
  const own = judgeMoves(fen, full, cfg);
  if (!own.ok) return err('case', `${id}: ${own.error.message}`);
  const kind = own.value.judgement.result === ruling && own.value.ply === p ? '=' : '~';
  let expect = `${rule}${depth ? '/' + depth : ''}${kind}${ruling}@${p}`;
  if (book === 'axf') {
    // AllowChase forbids perpetual check only: the book's ruling for the
    // perpetual-check rules (6-8), a draw for every other diagram.
    const clause = Number(/^(\d+)/.exec(note)?.[1]);
    expect += ` AllowChase=${clause >= 6 && clause <= 8 ? ruling : 'draw'}@${p}`;
  }
  const native = nativeFirstVerdict(pikafish, fen, full);
  if (!native.ok) return err('case', `${id}: ${native.error.message}`);
  expect += ` ComputerRule=${native.value.result}@${native.value.ply} NoJudgement=none${extra ? ' ' + extra.trim() : ''}`;
  return ok([id, fen, full.join(' '), expect, `${book === 'axf' ? 'AXF' : 'Chinese rules'} ${note}`].join('\t'));
}

const { values, positionals } = commandLineOrExit(process.argv.slice(2), SPEC);
const book = values.book;
if (book !== 'axf' && book !== 'chinese') exitWithError(SPEC.name, `--book axf|chinese (got ${book ?? 'none'})`, 2);
if (values.pikafish === undefined) exitWithError(SPEC.name, '--pikafish <rulejudge binary> is required', 2);
for (const file of positionals) {
  const text = readTextFile(file);
  if (!text.ok) exitWithError(SPEC.name, text.error.message);
  for (const line of text.value.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const out = corpusLine(line, book, values.pikafish);
    if (!out.ok) exitWithError(SPEC.name, out.error.message);
    console.log(out.value);
  }
}
