// The referee's account of every figure of the Chinese rule book, beside the
// book's own words, to work through the rulings it misses:
//   node dist/lab/rules/explain-chinese.js [--all] [--depth N] [id...]
// Reads test/rules/chinese-corpus.txt; for each case (those whose ruling the
// referee misses, every case with --all, or the ids named) prints the book's
// note and the referee's words (judgeGame, ChineseRule) for the moves up to the
// book's ruling, and ends with the number of rulings agreed. Run from the
// worktree root after `npm run build`.
import { readFileSync } from 'node:fs';
import {
  Position,
  addMove,
  judgeGame,
  judgeMoves,
  newGame,
  parseMove,
  ruleConfigFrom,
  type Game,
} from '../../src/dev.js';
import { commandLineOrExit, commandSpec } from '../../toolkit/command-line.js';
import { exitWithError } from '../../toolkit/script.js';

const SPEC = commandSpec({
  name: 'explain-chinese',
  usage: 'usage: node dist/lab/rules/explain-chinese.js [--all] [--depth N] [id...]',
  options: { all: { type: 'boolean' }, depth: { type: 'string' } },
  positionals: { max: 200 },
});
const { values, positionals } = commandLineOrExit(process.argv.slice(2), SPEC);
const depth = values.depth === undefined ? 4 : Number(values.depth);

function gameOf(fen: string, moves: string[]): Game {
  const g = newGame(fen);
  const pos = new Position(fen);
  let at: Game | ReturnType<typeof addMove> = g;
  for (const u of moves) {
    const m = parseMove(pos, u, { notation: 'uci' });
    if (!m.ok) exitWithError(SPEC.name, `${u}: ${m.error.message}`);
    at = addMove(at, m.value);
    pos.doMove(m.value);
  }
  return g;
}

/** The book's word for a move, as the referee's kinds. */
const BOOK_KIND: Record<string, string> = {
  将: 'check',
  杀: 'mate-threat',
  捉: 'chase',
  兑: 'idle',
  献: 'idle',
  拦: 'idle',
  跟: 'idle',
  闲: 'idle',
};

/** The kinds the book's note gives its moves ("车四退二 (兑) 炮2进2 (捉) ..."; "A / B (捉)"). */
function bookKinds(note: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of note.matchAll(/((?:[^\s()/;:,]+ \/ )*[^\s()/;:,]+) \(([将杀捉兑献拦跟闲])/g))
    for (const mv of m[1].split(' / ')) out.set(mv, BOOK_KIND[m[2]]);
  return out;
}

let agreed = 0,
  total = 0,
  kindsAgreed = 0,
  kindsNamed = 0;
const missed: string[] = [];
for (const line of readFileSync('test/rules/chinese-corpus.txt', 'utf8').split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const [id, fen, moveText, expect, note] = line.split('\t');
  const m = /ChineseRule\/\d+[=~](\w+)@(\d+)/.exec(expect);
  if (!m) continue;
  // Named cases only: the others are not judged (nor counted).
  if (positionals.length > 0 && !positionals.includes(id)) continue;
  const [ruling, ply] = [m[1], Number(m[2])];
  const moves = moveText.split(' ');
  const cfg = ruleConfigFrom({
    repetitionRule: 'ChineseRule',
    drawRule: 'None',
    rule60MaxPly: 120,
    mateThreatDepth: depth,
  });
  const own = judgeMoves(fen, moves, cfg);
  if (!own.ok) exitWithError(SPEC.name, own.error.message);
  const ok = own.value.judgement.result === ruling && own.value.ply === ply;
  total++;
  if (ok) agreed++;
  else missed.push(id);
  const v = judgeGame(gameOf(fen, moves.slice(0, ply)), { rule: 'ChineseRule', mateThreatDepth: depth });
  if (!v.ok) exitWithError(SPEC.name, v.error.message);
  const kinds = bookKinds(note);
  const wrong: string[] = [];
  const cycle = v.value.cycles.at(-1);
  for (const jm of cycle?.moves ?? []) {
    const k = kinds.get(jm.text);
    if (k === undefined) continue;
    kindsNamed++;
    if (k === jm.kind) kindsAgreed++;
    else wrong.push(`${jm.text} ${jm.kind} (book: ${k})`);
  }
  const named = positionals.length > 0;
  if (named ? !positionals.includes(id) : !values.all && ok) continue;
  console.log(
    `== ${id}  book: ${ruling}@${ply}  referee: ${own.value.judgement.result}@${own.value.ply} ${ok ? '(agrees)' : '(MISS)'}`,
  );
  console.log(`   ${fen}`);
  console.log(`   ${note}`);
  if (wrong.length) console.log(`   kinds the book names otherwise: ${wrong.join('; ')}`);
  for (const l of v.value.text.split('\n')) console.log(`   ${l}`);
}
console.log(`ChineseRule/${depth}: ${agreed} of ${total} rulings agreed; missed: ${missed.join(' ')}`);
console.log(`move kinds agreed: ${kindsAgreed} of ${kindsNamed} the notes name`);
