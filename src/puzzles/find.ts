// Finding puzzles with the engine (docs/PUZZLES.md): a position is a puzzle
// when exactly one move wins clearly, a forced mate or a decisive swing no other
// move achieves, checked (after a quick look that turns most positions away) by
// a deeper search with two lines (the best and the best other move) at every
// move of the solver, the defender answering with the
// engine's best defence; the line must win material unless it mates or the
// position is an endgame. The rating comes from how much search Kirin needs to
// find the first move. Every search starts from empty tables on one thread, so
// the same position gives the same verdict. Platform-neutral.

import { Position } from '../core/position.js';
import { legalMoves } from '../core/movegen.js';
import { err, ok, type Result } from '../core/result.js';
import { BLACK, colorOf, moveToUci, typeOf, VALUE_MATE_IN_MAX_PLY, type Color } from '../core/types.js';
import { parseLegalMove } from '../core/ucimove.js';
import type { Engine } from '../engine/engine.js';
import { materialCount, mateInMoves } from '../eval/score.js';
import { winChance } from '../review/review.js';
import type { PuzzleTheme } from './puzzle.js';

/** Why a position is not a puzzle. */
export type Rejection =
  | 'bad-position'
  | 'only-move'
  | 'not-winning'
  | 'mate-too-long'
  | 'two-winning-moves'
  | 'ambiguous-later'
  | 'no-material';

export const REJECTIONS: Readonly<Record<Rejection, string>> = Object.freeze({
  'bad-position': 'the position or its line cannot be played',
  'only-move': 'the side to move has one legal move',
  'not-winning': 'no move wins clearly',
  'mate-too-long': 'a mate longer than the longest accepted',
  'two-winning-moves': 'more than one move wins',
  'ambiguous-later': 'a later move of the mate has two answers',
  'no-material': 'the line wins no material (and it is not a mate or an endgame)',
});

export interface FindOptions {
  /** Nodes of the search (two lines) that checks each move of the solver (default 100,000). */
  readonly verifyNodes?: number;
  /** Longest mate accepted, in moves (default 5). */
  readonly maxMate?: number;
  /** Most moves of the solver in a line that is not a mate (default 3). */
  readonly maxMoves?: number;
}

/** A puzzle as found: what puzzle.ts's Puzzle holds but its id and source. */
export interface FoundPuzzle {
  readonly fen: string;
  readonly moves: readonly string[];
  readonly themes: readonly PuzzleTheme[];
  readonly mateIn: number | null;
  readonly rating: number;
}

/** One line of a search: its moves (UCI) and value (internal units, from the side to move). */
interface Line {
  readonly pv: readonly string[];
  readonly value: number;
}

/** The search's lines of `fen` (MultiPV `lines`) at `nodes`, from empty tables. */
async function search(engine: Engine, fen: string, nodes: number, lines: number): Promise<Line[]> {
  engine.newGame();
  const set = engine.setPosition(fen, []);
  if (!set.ok) return [];
  if (engine.options.getNumber('MultiPV') !== lines) engine.options.set('MultiPV', String(lines));
  const last: { pv: string[]; value: number }[] = [];
  const result = await engine.go(
    { nodes, startTime: Date.now() },
    {
      info: (info) => {
        if (info.pv.length > 0) last[info.multipv - 1] = { pv: info.pv.map(moveToUci), value: info.score };
      },
    },
  );
  const best = moveToUci(result.bestMove);
  const out = last.filter((l) => l !== undefined);
  // The best move decides (as the review does): its line first.
  const i = out.findIndex((l) => l.pv[0] === best);
  if (i > 0) out.unshift(out.splice(i, 1)[0]);
  else if (i < 0) out.unshift({ pv: [best], value: result.score });
  return out;
}

const isMate = (v: number): boolean => v >= VALUE_MATE_IN_MAX_PLY;

/** Material of each side (rook 10, knight and cannon 5, bishop and advisor 2, pawn 1). */
function material(pos: Position, side: Color): number {
  const values = [0, 10, 2, 5, 1, 5, 2, 0];
  let sum = 0;
  for (let sq = 0; sq < 90; sq++) {
    const pc = pos.pieceOn(sq);
    if (pc !== 0 && colorOf(pc) === side) sum += values[typeOf(pc)];
  }
  return sum;
}

/** The position after `moves` from `fen`, or null when one is not legal. */
function play(fen: string, moves: readonly string[]): Position | null {
  const p = Position.fromFen(fen);
  if (!p.ok) return null;
  for (const m of moves) {
    const mv = parseLegalMove(p.value, m);
    if (!mv.ok) return null;
    p.value.doMove(mv.value);
  }
  return p.value;
}

/** Below this material (materialCount: 110 at the start) a position is an endgame (残局). */
const ENDGAME_MATERIAL = 40;
/** The win chance from which a move wins clearly, and below which another does not. */
const WINS = 0.9;
const DOES_NOT_WIN = 0.6;

/**
 * Whether `fen` is a puzzle for the side to move: the puzzle (line, themes,
 * mate length, rating), or why not (a Rejection with the numbers in words).
 * `engine` should have one thread (the default): its options (Hash, the
 * network) are used; MultiPV is changed and restored.
 */
export async function findPuzzle(
  engine: Engine,
  fen: string,
  options: FindOptions = {},
): Promise<Result<FoundPuzzle, Rejection>> {
  const verifyNodes = options.verifyNodes ?? 100000;
  const maxMate = options.maxMate ?? 5;
  const maxMoves = options.maxMoves ?? 3;
  const start = Position.fromFen(fen);
  if (!start.ok) return err('bad-position', start.error.message);
  const n = legalMoves(start.value).length;
  if (n === 0) return err('bad-position', 'the game is over');
  if (n === 1) return err('only-move', 'one legal move');
  const model = engine.winRateModel();
  const savedMultiPv = engine.options.getNumber('MultiPV');
  try {
    const chance = (v: number, pos: Position): number => winChance(v, materialCount(pos), model);
    // A quick look first (a tenth of the nodes): most positions have no move that wins, or two that
    // clearly do, and need no deep search to say so.
    const [qb, qs] = await search(engine, fen, Math.max(1000, Math.floor(verifyNodes / 10)), 2);
    if (qb !== undefined && qs !== undefined) {
      const quick = `quick look: best ${qb.pv[0]}, next ${qs.pv[0]}`;
      if (isMate(qb.value) && isMate(qs.value)) return err('two-winning-moves', `two mates (${quick})`);
      if (!isMate(qb.value) && chance(qb.value, start.value) < 0.7) return err('not-winning', quick);
      if (!isMate(qb.value) && (isMate(qs.value) || chance(qs.value, start.value) >= 0.8))
        return err('two-winning-moves', quick);
    }
    const [best, second] = await search(engine, fen, verifyNodes, 2);
    if (best === undefined || second === undefined) return err('bad-position', 'the search gave no two lines');
    const wBest = chance(best.value, start.value);
    const wSecond = chance(second.value, start.value);
    const words = `best ${best.pv[0]} (${wBest.toFixed(2)}), next ${second.pv[0]} (${wSecond.toFixed(2)})`;
    const solver = start.value.sideToMove;
    const line: string[] = [best.pv[0]];
    let mateIn: number | null = null;
    if (isMate(best.value)) {
      mateIn = mateInMoves(best.value);
      if (mateIn > maxMate) return err('mate-too-long', `mate in ${mateIn}`);
      if (isMate(second.value)) return err('two-winning-moves', `two mates: ${words}`);
      // Each later move: the defence the engine finds longest, then the solver's one mating move (any
      // mate does at the last move).
      for (let k = 1; k < mateIn; k++) {
        const before = play(fen, line);
        if (before === null) return err('bad-position', `the line ${line.join(' ')}`);
        const [defence] = await search(engine, before.fen(), verifyNodes >> 1, 1);
        if (defence === undefined) return err('bad-position', `no defence after ${line.join(' ')}`);
        line.push(defence.pv[0]);
        const at = play(fen, line);
        if (at === null) return err('bad-position', `the line ${line.join(' ')}`);
        const [b, s] = await search(engine, at.fen(), verifyNodes, 2);
        if (b === undefined || !isMate(b.value)) return err('not-winning', `the mate is lost after ${line.join(' ')}`);
        if (s !== undefined && isMate(s.value) && mateInMoves(b.value) > 1)
          return err('ambiguous-later', `after ${line.join(' ')}: ${b.pv[0]} and ${s.pv[0]} both mate`);
        line.push(b.pv[0]);
        if (mateInMoves(b.value) === 1) {
          mateIn = (line.length + 1) / 2;
          break;
        }
      }
    } else {
      if (wBest < WINS) return err('not-winning', words);
      if (wSecond > DOES_NOT_WIN || wBest - wSecond < 0.3) return err('two-winning-moves', words);
      // More moves while the solver's next move is again the only one that wins.
      while ((line.length + 1) / 2 < maxMoves) {
        const before = play(fen, line);
        if (before === null) return err('bad-position', `the line ${line.join(' ')}`);
        const [defence] = await search(engine, before.fen(), verifyNodes >> 1, 1);
        if (defence === undefined) break;
        const at = play(fen, [...line, defence.pv[0]]);
        if (at === null || legalMoves(at).length < 2) break;
        const [b, s] = await search(engine, at.fen(), verifyNodes, 2);
        if (b === undefined || s === undefined) break;
        const wb = chance(b.value, at);
        const ws = chance(s.value, at);
        if (!(isMate(b.value) || wb >= WINS) || isMate(s.value) || ws > DOES_NOT_WIN || wb - ws < 0.3) break;
        line.push(defence.pv[0], b.pv[0]);
      }
    }
    // What the line won: the solver's material against the defender's, after the defender's best reply.
    const end = play(fen, line);
    if (end === null) return err('bad-position', `the line ${line.join(' ')}`);
    if (mateIn !== null && legalMoves(end).length > 0)
      return err('not-winning', `the line ${line.join(' ')} does not end in mate`);
    let settled = end;
    if (legalMoves(end).length > 0) {
      const [reply] = await search(engine, end.fen(), verifyNodes >> 2, 1);
      const after = reply === undefined ? null : play(end.fen(), [reply.pv[0]]);
      if (after !== null) settled = after;
    }
    const other: Color = solver === BLACK ? 0 : 1;
    const balance = (p: Position): number => material(p, solver) - material(p, other);
    const gain = balance(settled) - balance(start.value);
    const endgame = materialCount(start.value) <= ENDGAME_MATERIAL;
    const themes: PuzzleTheme[] = [];
    if (mateIn !== null) themes.push('mate');
    else if (gain >= 3) themes.push('material');
    if (endgame) themes.push('endgame');
    if (themes.length === 0) return err('no-material', `${line.join(' ')} wins ${gain} (${words})`);
    const rating = await rate(engine, fen, line[0], mateIn, (line.length + 1) / 2);
    return ok({ fen: start.value.fen(), moves: line, themes, mateIn, rating });
  } finally {
    if (engine.options.getNumber('MultiPV') !== savedMultiPv) engine.options.set('MultiPV', String(savedMultiPv));
  }
}

/** The searches the rating tries, smallest first. */
const RATING_NODES: readonly number[] = [64, 256, 1024, 4096, 16384, 65536];

/**
 * How hard Kirin finds the first move: the smallest node count from which
 * every larger one of RATING_NODES finds it gives 800 (64 nodes) up to 1800
 * (65,536); not found by 65,536 nodes, 2000. Each further move of the solver
 * adds 60 and each further move of a mate 40.
 */
async function rate(engine: Engine, fen: string, first: string, mateIn: number | null, moves: number): Promise<number> {
  const found: boolean[] = [];
  for (const nodes of RATING_NODES) {
    const [b] = await search(engine, fen, nodes, 1);
    found.push(b !== undefined && b.pv[0] === first);
  }
  let from = found.length;
  while (from > 0 && found[from - 1]) from--;
  const base = from < RATING_NODES.length ? 800 + 200 * from : 2000;
  const extra = 60 * (moves - 1) + (mateIn === null ? 0 : 40 * (mateIn - 1));
  return Math.min(2800, base + extra);
}

/** A game as the scan reads it: its start (null: the standard start) and main line in UCI. */
export interface ScanGame {
  readonly fen: string | null;
  readonly moves: readonly string[];
}

export interface ScanOptions {
  /** How many of the game's last positions are searched (default 24; all of a game from a set-up position). */
  readonly plies?: number;
  /** Nodes of each quick search (default 1,500). */
  readonly nodes?: number;
  /** Most candidates a game gives (default 3). */
  readonly candidates?: number;
}

/** A position of a game worth checking: its FEN and the ply it stands at. */
export interface Candidate {
  readonly fen: string;
  readonly ply: number;
}

/**
 * The positions of a game worth checking as puzzles, found by a quick search of
 * its last positions (as lichess does): where the side to move is clearly
 * winning just after the opponent's move left a game it was not losing (the
 * move that lost it is the puzzle's reason), or has a mate; in a game from a
 * set-up position, its first position when clearly won. Mates first, then by
 * ply.
 */
export async function scanGame(engine: Engine, game: ScanGame, options: ScanOptions = {}): Promise<Candidate[]> {
  const nodes = options.nodes ?? 1500;
  const most = options.candidates ?? 3;
  const start = Position.fromFen(game.fen ?? new Position().fen());
  if (!start.ok) return [];
  const setUp = game.fen !== null && start.value.fen() !== new Position().fen();
  const from = setUp ? 0 : Math.max(0, game.moves.length - (options.plies ?? 24));
  const pos = start.value;
  const fens: string[] = [];
  for (let ply = 0; ply <= game.moves.length; ply++) {
    if (ply >= from) fens[ply] = pos.fen();
    if (ply === game.moves.length) break;
    const m = parseLegalMove(pos, game.moves[ply]);
    if (!m.ok) break;
    pos.doMove(m.value);
  }
  const model = engine.winRateModel();
  const chance: number[] = [];
  const mates: boolean[] = [];
  const found: { c: Candidate; mate: boolean }[] = [];
  for (let ply = from; ply < fens.length; ply++) {
    const fen = fens[ply];
    const p = Position.fromFen(fen);
    if (!p.ok || legalMoves(p.value).length < 2) {
      chance[ply] = 0.5;
      mates[ply] = false;
      continue;
    }
    const [b] = await search(engine, fen, nodes, 1);
    chance[ply] = b === undefined ? 0.5 : winChance(b.value, materialCount(p.value), model);
    mates[ply] = b !== undefined && isMate(b.value);
    const swing = ply > from ? chance[ply - 1] >= 0.3 : setUp;
    // A mate goes in where it is first seen: the same side's next positions on the way to it are the same puzzle.
    const sameMate = mates[ply] && ply - 2 >= from && mates[ply - 2];
    if ((mates[ply] && !sameMate) || (!mates[ply] && chance[ply] >= 0.8 && swing))
      found.push({ c: { fen, ply }, mate: mates[ply] });
  }
  found.sort((a, b) => Number(b.mate) - Number(a.mate) || a.c.ply - b.c.ply);
  return found.slice(0, most).map((f) => f.c);
}
