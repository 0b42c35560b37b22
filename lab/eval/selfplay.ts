// Development tool for the evaluation: plays short games between two settings of
// the classical evaluation's term weights, each side searching with a small
// fixed-depth alpha-beta (quiescence on captures, MVV-LVA order, no hash). It
// exists to sanity-check evaluation changes independently of the real search:
//
//   node dist/lab/eval/selfplay.js [games=20] [depth=2] [terms=Pins|Pins,Rooks|positional|none] [weight=0] [seed=1]
//
// Side A uses the evaluation as written, side B the term set to `weight` (in
// 64ths; `term=none` plays the evaluation against itself). Each random opening
// is played twice with colors swapped. Repetition counts as a draw here (the
// real rules live in core/rules.ts); 300 plies or the 60-move rule end a game drawn.

import { Position, type Move } from '../../src/dev.js';
import { generate } from '../../src/core/movegen.js';
import { mulberry32 as rng } from '../../src/core/prng.js';
import { GEN_CAPTURES, GEN_LEGAL, MAX_MOVES, PIECE_VALUE, VALUE_INFINITE, VALUE_MATE } from '../../src/core/types.js';
import { AS_WRITTEN, evaluateClassical, T_NB, TERM_NAMES, type TermWeights } from '../../src/eval/classical.js';
import { postProcess } from '../../src/eval/evaluate.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { exitWithError } from '../../toolkit/script.js';

const MAX_DEPTH_PLY = 64;
const moves = new Int32Array(MAX_MOVES * MAX_DEPTH_PLY);
const scores = new Int32Array(MAX_MOVES * MAX_DEPTH_PLY);
let nodes = 0;
/** The term weights of the side to move at the root (the search's evaluation). */
let weights: TermWeights = AS_WRITTEN;

function order(pos: Position, start: number, end: number, first: Move): void {
  for (let i = start; i < end; i++) {
    const m = moves[i];
    const victim = pos.board[m & 127];
    scores[i] =
      m === first ? 1 << 20 : victim ? PIECE_VALUE[victim] * 16 - PIECE_VALUE[pos.board[m >> 7]] / 16 + 4096 : 0;
  }
  // Insertion sort, best first.
  for (let i = start + 1; i < end; i++) {
    const m = moves[i],
      s = scores[i];
    let j = i - 1;
    while (j >= start && scores[j] < s) {
      moves[j + 1] = moves[j];
      scores[j + 1] = scores[j];
      j--;
    }
    moves[j + 1] = m;
    scores[j + 1] = s;
  }
}

function qsearch(pos: Position, alpha: number, beta: number, ply: number): number {
  nodes++;
  const start = ply * MAX_MOVES;
  if (pos.inCheck()) {
    const end = generate(pos, GEN_LEGAL, moves, start);
    if (end === start) return -VALUE_MATE + ply;
    if (ply >= MAX_DEPTH_PLY - 1) return 0;
    order(pos, start, end, 0);
    let best = -VALUE_INFINITE;
    for (let i = start; i < end; i++) {
      pos.doMove(moves[i]);
      const v = -qsearch(pos, -beta, -alpha, ply + 1);
      pos.undoMove(moves[i]);
      if (v > best) {
        best = v;
        if (v > alpha) {
          alpha = v;
          if (v >= beta) break;
        }
      }
    }
    return best;
  }
  const stand = postProcess(pos, evaluateClassical(pos, weights), 0);
  if (stand >= beta || ply >= MAX_DEPTH_PLY - 1) return stand;
  if (stand > alpha) alpha = stand;
  let best = stand;
  const end = generate(pos, GEN_CAPTURES, moves, start);
  order(pos, start, end, 0);
  for (let i = start; i < end; i++) {
    const m = moves[i];
    if (!pos.legal(m)) continue;
    pos.doMove(m);
    const v = -qsearch(pos, -beta, -alpha, ply + 1);
    pos.undoMove(m);
    if (v > best) {
      best = v;
      if (v > alpha) {
        alpha = v;
        if (v >= beta) break;
      }
    }
  }
  return best;
}

function search(pos: Position, depth: number, alpha: number, beta: number, ply: number): number {
  if (depth <= 0) return qsearch(pos, alpha, beta, ply);
  nodes++;
  const start = ply * MAX_MOVES;
  const end = generate(pos, GEN_LEGAL, moves, start);
  if (end === start) return -VALUE_MATE + ply;
  order(pos, start, end, 0);
  let best = -VALUE_INFINITE;
  for (let i = start; i < end; i++) {
    const m = moves[i];
    pos.doMove(m);
    const ext = pos.inCheck() ? 1 : 0;
    const v = -search(pos, depth - 1 + (ext && ply < 8 ? 1 : 0), -beta, -alpha, ply + 1);
    pos.undoMove(m);
    if (v > best) {
      best = v;
      if (v > alpha) {
        alpha = v;
        if (v >= beta) break;
      }
    }
  }
  return best;
}

function bestMove(pos: Position, depth: number, rand: () => number): Move {
  const root = new Int32Array(MAX_MOVES);
  const n = generate(pos, GEN_LEGAL, root, 0);
  let pv = 0;
  for (let d = 1; d <= depth; d++) {
    let best = -VALUE_INFINITE,
      bestM = 0;
    // Root order: previous best first.
    if (pv) {
      const k = root.indexOf(pv);
      root[k] = root[0];
      root[0] = pv;
    }
    for (let i = 0; i < n; i++) {
      const m = root[i];
      pos.doMove(m);
      // A tiny random jitter varies otherwise identical games.
      const v = -search(pos, d - 1, -VALUE_INFINITE, -best + 2, 1) + (d === depth ? Math.floor(rand() * 3) : 0);
      pos.undoMove(m);
      if (v > best) {
        best = v;
        bestM = m;
      }
    }
    pv = bestM;
  }
  return pv;
}

/** Result for red: 1 win, 0 draw, -1 loss. */
function playGame(opening: Move[], depth: number, redIsB: boolean, weightsB: TermWeights, rand: () => number): number {
  const pos = new Position();
  pos.reserve(400);
  for (const m of opening) pos.doMove(m);
  const seen = new Map<string, number>();
  const list = new Int32Array(MAX_MOVES);
  for (let ply = 0; ply < 300; ply++) {
    if (generate(pos, GEN_LEGAL, list, 0) === 0) return pos.side === 0 ? -1 : 1;
    if (pos.rule60Count() >= 120) return 0;
    const k = pos.keyHex();
    const r = (seen.get(k) ?? 0) + 1;
    if (r >= 3) return 0;
    seen.set(k, r);
    const useB = (pos.side === 0) === redIsB;
    weights = useB ? weightsB : AS_WRITTEN;
    pos.doMove(bestMove(pos, depth, rand));
  }
  return 0;
}

const SPEC = commandSpec({
  name: 'selfplay',
  usage:
    'usage: node dist/lab/eval/selfplay.js [games=20] [depth=2] [terms=Pins|Pins,Rooks|positional|none] [weight=0] [seed=1]',
  options: {},
  positionals: { max: 5 },
});

function main(): void {
  const cl = scriptCommandLine(process.argv.slice(2), SPEC);
  const games = cl.numberAt(0, 'games', 20, { min: 1 });
  const depth = cl.numberAt(1, 'depth', 2, { min: 1, max: 20 });
  const termName = cl.positionals[2] ?? 'none';
  const weight = cl.numberAt(3, 'weight', 0);
  const seed = cl.numberAt(4, 'seed', 1);
  // A comma-separated list of terms, `positional` (all but material) or `none`.
  const terms: number[] = [];
  for (const name of termName === 'none' ? [] : termName === 'positional' ? TERM_NAMES.slice(1) : termName.split(',')) {
    const t = TERM_NAMES.findIndex((n) => n.toLowerCase().replace(' ', '') === name.toLowerCase().replace(' ', ''));
    if (t < 0) exitWithError(SPEC.name, `unknown term ${name}; terms: ${TERM_NAMES.join(', ')}`, 2);
    terms.push(t);
  }
  const weightsB = Array.from({ length: T_NB }, (_, t) => (terms.includes(t) ? weight : 64));
  const rand = rng(seed);
  let w = 0,
    d = 0,
    l = 0; // from B's point of view
  const t0 = Date.now();
  for (let g = 0; g < games; g += 2) {
    // Random opening of 4 plies.
    const pos = new Position();
    const opening: Move[] = [];
    const list = new Int32Array(MAX_MOVES);
    for (let i = 0; i < 4; i++) {
      const n = generate(pos, GEN_LEGAL, list, 0);
      const m = list[Math.floor(rand() * n)];
      opening.push(m);
      pos.doMove(m);
    }
    for (const redIsB of [true, false]) {
      const r = playGame(opening, depth, redIsB, weightsB, rand);
      const forB = redIsB ? r : -r;
      if (forB > 0) w++;
      else if (forB < 0) l++;
      else d++;
    }
    process.stdout.write(
      `games ${w + d + l}: B +${w} =${d} -${l}  (${((Date.now() - t0) / 1000).toFixed(0)} s, ${nodes} nodes)\n`,
    );
  }
  const score = (w + d / 2) / Math.max(1, w + d + l);
  console.log(
    `B (${termName} weight ${weight}/64) vs A (as written): +${w} =${d} -${l}, score ${(100 * score).toFixed(1)}%`,
  );
}

main();
