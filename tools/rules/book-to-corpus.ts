// Turns reconstructed rule-book cases (id, fen, the book's moves, UCI moves, book
// ruling, note[, further expectations]) into corpus lines (the format of corpus.txt):
//   node dist/tools/rules/book-to-corpus.js --book axf --pikafish ./rulejudge test/rules/axf/part-*.txt > test/rules/axf-corpus.txt
//   node dist/tools/rules/book-to-corpus.js --book chinese --pikafish ./rulejudge test/rules/chinese/part-*.txt > test/rules/chinese-corpus.txt
// The book's moves (WXF notation for the AXF book, Chinese notation for the Chinese
// rules) must convert to the UCI moves. The moves are cut at the first repeated
// position and its cycle is played once more, so that the third occurrence is
// reached. Expectations: the book's rule set gives the book's ruling at the second
// occurrence (AsianRule for the AXF book, ChineseRule with Mate Threat Depth 3 for
// the Chinese rules; written "~" when Kirin does not reproduce it); for the AXF book
// also AllowChase = the book's ruling for the perpetual-check rules 6-8 and a draw
// otherwise; ComputerRule = native Pikafish's verdict (rule_judge at the root, every
// prefix; the harness of docs/RULES.md); NoJudgement = none; then the optional
// further expectations. Run from dist/ after `npm run build`.
import { readFileSync } from 'node:fs';
import { judgeGame, parseLegalMove, Position, ruleConfigFrom } from '../../src/dev.js';
import { trace } from './wxf-notation.js';
import { chineseToMove, wxfToMove } from './notation.js';
import { nativeFirstVerdict } from './pikafish-oracle.js';

const args = process.argv.slice(2);
const pi = args.indexOf('--pikafish');
const pikafish = args[pi + 1];
args.splice(pi, 2);
const bi = args.indexOf('--book');
const book = args[bi + 1];
args.splice(bi, 2);
if (book !== 'axf' && book !== 'chinese') throw new Error('--book axf|chinese');

function boardKey(pos: Position): string {
  return pos.fen().split(' ').slice(0, 2).join(' ');
}

for (const file of args) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [id, fen, wxf, uci, ruling, note, extra] = line.split('\t');
    const moves = uci.trim().split(/\s+/);
    const converted = trace(fen, wxf.trim().split(/\s+/), book === 'axf' ? wxfToMove : chineseToMove).uci;
    if (converted.join(' ') !== moves.join(' '))
      throw new Error(`${id}: the book's moves convert to ${converted.join(' ')}, file says ${moves.join(' ')}`);
    const pos = new Position(fen);
    const seen = [boardKey(pos)];
    let p = -1,
      q = -1;
    for (let i = 0; i < moves.length && p < 0; i++) {
      const m = parseLegalMove(pos, moves[i]);
      if (!m.ok) throw new Error(`${id}: ${m.error.message}`);
      pos.doMove(m.value);
      const k = boardKey(pos);
      const j = seen.indexOf(k);
      if (j >= 0) {
        p = i + 1;
        q = j;
      }
      seen.push(k);
    }
    if (p < 0) throw new Error(`${id}: the moves never repeat a position`);
    const full = [...moves.slice(0, p), ...moves.slice(q, p)];
    const [rule, depth] = book === 'axf' ? ['AsianRule', 0] : ['ChineseRule', 3];
    const cfg = ruleConfigFrom({ repetitionRule: rule, drawRule: 'None', rule60MaxPly: 120, mateThreatDepth: depth });
    const own = judgeGame(fen, full, cfg);
    const kind = own.judgement.result === ruling && own.ply === p ? '=' : '~';
    let expect = `${rule}${depth ? '/' + depth : ''}${kind}${ruling}@${p}`;
    if (book === 'axf') {
      // AllowChase forbids perpetual check only: the book's ruling for the
      // perpetual-check rules (6-8), a draw for every other diagram.
      const clause = Number(/^(\d+)/.exec(note)?.[1]);
      expect += ` AllowChase=${clause >= 6 && clause <= 8 ? ruling : 'draw'}@${p}`;
    }
    const native = nativeFirstVerdict(pikafish, fen, full);
    expect += ` ComputerRule=${native.result}@${native.ply} NoJudgement=none${extra ? ' ' + extra.trim() : ''}`;
    console.log([id, fen, full.join(' '), expect, `${book === 'axf' ? 'AXF' : 'Chinese rules'} ${note}`].join('\t'));
  }
}
