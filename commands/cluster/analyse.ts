// `kirin cluster analyse`: positions and whole games searched at a fixed depth
// or node count by the workers, collected into one JSON document.
//
// Input: positions in the opening-file syntax of the match runner (a move list
// from the start position, or a FEN followed by moves), whole games in the same
// syntax, or the game log of `kirin match --log` (every position after the
// opening is analysed). Each position is one job; the worker searches it with
// Kirin's engine (one search thread, the tables cleared before each search), so
// with a node or depth limit the same request gives the same answer anywhere.

import { readFileSync } from 'node:fs';
import {
  DEFAULT_RULES,
  Engine,
  MOVE_NONE,
  Position,
  START_FEN,
  isMateScore,
  judge,
  mateInMoves,
  materialCount,
  moveToUci,
  toCp,
  type SearchInfo,
} from '../../src/dev.js';
import { applyMoves, parseOpeningLine, type Opening } from '../match/openings.js';
import type { RunEnd, RunHandler, WorkContext } from './runs.js';

/** A game (or the line to one position): the start (null: the start position) and the moves. */
interface AnalysisLine {
  fen: string | null;
  moves: string[];
}

/** One position to analyse: line `line` after its first `ply` moves. */
interface AnalysisPosition {
  line: number;
  ply: number;
  /** The FEN of the position itself (for the reader). */
  at: string;
  /** Game number (from 0) for positions of a game, else null. */
  game: number | null;
  /** The move the game played here, if any. */
  played: string | null;
}

export interface AnalyseSpec {
  /** Each game (or position's line) once: a position names its line. */
  lines: AnalysisLine[];
  positions: AnalysisPosition[];
  depth: number;
  nodes: number;
  hash: number;
  /** Engine options (name, value) for the searches. */
  options: Array<[string, string]>;
}

/** Options a request may not set: the searches run on one thread (deterministic) and write no files. */
const REFUSED = ['threads', 'debug log file'];

export interface AnalysisResult {
  bestMove: string | null;
  /** The score as UCI prints it: { cp: N } (ScoreType's centipawns) or { mate: N } (moves; negative: mated). */
  score: { cp: number } | { mate: number };
  /** The score in internal units, side to move. */
  value: number;
  depth: number;
  seldepth: number;
  nodes: number;
  pv: string[];
  /** The evaluation the worker searched with. */
  evaluation: string;
}

function place(o: Opening, moves: readonly string[], what: string): Position {
  const pos = new Position(o.fen ?? START_FEN);
  const r = applyMoves(pos, moves);
  if (!r.ok) throw new Error(`${what}: ${r.error.message}`);
  return pos;
}

/** The positions of a request as they are read, each game's moves kept once. */
class AnalysisInput {
  readonly lines: AnalysisLine[] = [];
  readonly positions: AnalysisPosition[] = [];
  /** Games read so far (their numbers in the output). */
  games = 0;

  /** The position at the end of an opening-syntax line (throws Error naming the line). */
  position(text: string, what: string): void {
    const r = parseOpeningLine(text, 0);
    if (!r.ok) throw new Error(`${what}: ${r.error.message.replace(/^line 0: /, '')}`);
    if (r.value === null) throw new Error(`${what}: no position in "${text}"`);
    const o = r.value;
    const pos = place(o, o.moves, what);
    this.lines.push({ fen: o.fen, moves: o.moves });
    this.positions.push({ line: this.lines.length - 1, ply: o.moves.length, at: pos.fen(), game: null, played: null });
  }

  /**
   * A game: every position after the opening `o` up to the last one that still
   * has a move to find (the end of a game is not searched). Returns how many.
   */
  game(o: Opening, gameMoves: readonly string[], what: string): number {
    const all = [...o.moves, ...gameMoves];
    place(o, all, what); // every move checked, with a clear error
    const game = this.games++;
    this.lines.push({ fen: o.fen, moves: all });
    const line = this.lines.length - 1;
    const pos = new Position(o.fen ?? START_FEN);
    applyMoves(pos, o.moves);
    let n = 0;
    for (let i = 0; i <= gameMoves.length; i++) {
      if (i > 0) applyMoves(pos, [gameMoves[i - 1]]);
      if (judge(pos, DEFAULT_RULES).result !== 'none') break;
      this.positions.push({ line, ply: o.moves.length + i, at: pos.fen(), game, played: gameMoves[i] ?? null });
      n++;
    }
    return n;
  }

  /**
   * Games from a file: `kirin match --log` lines (`game N | ... | opening ... | moves ... | end ...`),
   * or one game per line in the opening syntax (moves from the start, or FEN + moves). Returns the positions added.
   */
  gameFile(text: string, file: string): number {
    let added = 0;
    const lines = text.split(/\r?\n/);
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n].trim();
      if (!line || line.startsWith('#')) continue;
      const what = `${file} line ${n + 1}`;
      if (line.includes(' | ')) {
        const fields = line.split(' | ');
        const openingField = fields.find((f) => f.startsWith('opening '));
        const movesField = fields.find((f) => f === 'moves' || f.startsWith('moves '));
        if (openingField === undefined || movesField === undefined)
          throw new Error(`${what}: not a game-log line of kirin match (no "opening" or "moves" field)`);
        const openingText = openingField.slice('opening '.length).replace(/\s+\(.*\)\s*$/, '');
        const r = parseOpeningLine(openingText === 'startpos' ? '' : openingText, n + 1);
        if (!r.ok) throw new Error(`${what}: opening: ${r.error.message}`);
        const opening: Opening = r.value ?? { fen: null, moves: [], name: 'startpos', line: n + 1 };
        const moves = movesField.slice('moves'.length).trim().split(/\s+/).filter(Boolean);
        added += this.game(opening, moves, what);
      } else {
        const r = parseOpeningLine(line, n + 1);
        if (!r.ok) throw new Error(`${what}: ${r.error.message.replace(/^line \d+: /, '')}`);
        if (r.value === null) continue;
        added += this.game({ ...r.value, moves: [] }, r.value.moves, what);
      }
    }
    return added;
  }
}

export interface AnalyseRequest {
  positions: string[];
  positionFiles: string[];
  games: string[];
  gameFiles: string[];
  depth: number;
  nodes: number;
  hash: number;
  options: Array<[string, string]>;
}

/** The spec from a request, every position and option checked (throws Error with the message). */
export function makeAnalyseSpec(r: AnalyseRequest): AnalyseSpec {
  if (r.depth <= 0 && r.nodes <= 0)
    throw new Error('give a limit: --depth D or --nodes N (the answers are then reproducible)');
  const input = new AnalysisInput();
  r.positions.forEach((p, i) => input.position(p, `--position ${i + 1}`));
  for (const f of r.positionFiles) {
    readText(f)
      .split(/\r?\n/)
      .forEach((l, n) => {
        if (l.replace(/[#;].*$/, '').trim()) input.position(l, `${f} line ${n + 1}`);
      });
  }
  for (const [i, g] of r.games.entries()) {
    const pr = parseOpeningLine(g, 0);
    if (!pr.ok) throw new Error(`--game ${i + 1}: ${pr.error.message.replace(/^line 0: /, '')}`);
    if (pr.value === null) throw new Error(`--game ${i + 1}: no moves in "${g}"`);
    input.game({ ...pr.value, moves: [] }, pr.value.moves, `--game ${i + 1}`);
  }
  for (const f of r.gameFiles) {
    if (input.gameFile(readText(f), f) === 0) throw new Error(`${f}: no game with a position to analyse`);
  }
  if (input.positions.length === 0)
    throw new Error('nothing to analyse: give --position, --positions FILE, --game or --games FILE');
  // The options, checked by an engine here (not started: no search thread).
  const probe = new Engine();
  for (const [name, value] of r.options) {
    if (REFUSED.includes(name.toLowerCase()))
      throw new Error(`option "${name}" is not allowed: analysis searches run on one thread and write no files`);
    const s = probe.options.set(name, value);
    if (!s.ok) throw new Error(`option ${name}=${value}: ${s.error.message}`);
  }
  const hashSet = probe.options.set('Hash', String(r.hash));
  if (!hashSet.ok) throw new Error(`--hash ${r.hash}: ${hashSet.error.message}`);
  return {
    lines: input.lines,
    positions: input.positions,
    depth: Math.max(0, r.depth),
    nodes: Math.max(0, r.nodes),
    hash: r.hash,
    options: r.options,
  };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** The worker's engines for analysis, one per job running at once, kept between jobs. */
export class AnalysisEngines {
  private readonly idle = new Map<string, Engine[]>();

  private key(spec: AnalyseSpec): string {
    return JSON.stringify([spec.hash, spec.options]);
  }

  async search(spec: AnalyseSpec, index: number, ctx: WorkContext): Promise<AnalysisResult | null> {
    const key = this.key(spec);
    const engine = this.idle.get(key)?.pop() ?? this.create(spec);
    let done = false;
    try {
      const p = spec.positions[index];
      if (!p) throw new Error(`no position ${index} in the run`);
      engine.newGame();
      const line = spec.lines[p.line];
      const set = engine.setPosition(line.fen, line.moves.slice(0, p.ply));
      if (!set.ok) throw new Error(`position ${index}: ${set.error.message}`);
      const pos = engine.position();
      const material = materialCount(pos);
      let last: SearchInfo | null = null;
      const watch = setInterval(() => {
        if (ctx.cancelled()) engine.stop();
      }, 500);
      let result;
      try {
        result = await engine.go(
          {
            startTime: Date.now(),
            ...(spec.depth > 0 ? { depth: spec.depth } : {}),
            ...(spec.nodes > 0 ? { nodes: spec.nodes } : {}),
          },
          {
            info: (i) => {
              if (i.multipv === 1 && i.bound === 'exact') last = i;
            },
          },
        );
      } finally {
        clearInterval(watch);
      }
      done = true;
      if (ctx.cancelled()) return null;
      const info = last as SearchInfo | null;
      const value = info?.score ?? result.score;
      const pv = info?.pv.map(moveToUci) ?? [];
      const best = result.bestMove === MOVE_NONE ? null : moveToUci(result.bestMove);
      return {
        bestMove: best,
        score: isMateScore(value)
          ? { mate: mateInMoves(value) }
          : { cp: toCp(value, material, engine.scoreType(), engine.winRateModel()) },
        value,
        depth: info?.depth ?? result.depth,
        seldepth: info?.seldepth ?? result.depth,
        nodes: result.nodes,
        pv: best !== null && pv[0] !== best ? [best] : pv,
        evaluation: engine.evaluationName(),
      };
    } finally {
      if (done) {
        const list = this.idle.get(key) ?? [];
        list.push(engine);
        this.idle.set(key, list);
      } else {
        void engine.close();
      }
    }
  }

  private create(spec: AnalyseSpec): Engine {
    const engine = new Engine();
    const set = (name: string, value: string): void => {
      const r = engine.options.set(name, value);
      if (!r.ok) throw new Error(`option ${name}=${value}: ${r.error.message}`);
    };
    set('Threads', '1');
    set('Hash', String(spec.hash));
    for (const [name, value] of spec.options) {
      if (REFUSED.includes(name.toLowerCase())) throw new Error(`option "${name}" is not allowed`);
      set(name, value);
    }
    return engine;
  }

  async close(): Promise<void> {
    const all = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(all.map((e) => e.close()));
  }
}

/** One position of the output. */
interface AnalysedPosition extends AnalysisResult {
  index: number;
  game: number | null;
  ply: number;
  fen: string;
  played: string | null;
}

/** Coordinator side: collects the searches; the run ends when every position is in. */
export class AnalysisCollector implements RunHandler {
  readonly results = new Map<number, AnalysisResult>();

  constructor(readonly spec: AnalyseSpec) {}

  result(index: number, value: unknown): void {
    this.results.set(index, value as AnalysisResult);
  }

  check(): RunEnd | null {
    return this.results.size >= this.spec.positions.length ? { state: 'done', summary: this.summary() } : null;
  }

  summary(): string {
    return `${this.results.size}/${this.spec.positions.length} positions analysed`;
  }

  /** The JSON document: the limits and each position's search, in input order. */
  document(run: string): object {
    const positions: AnalysedPosition[] = [];
    this.spec.positions.forEach((p, index) => {
      const r = this.results.get(index);
      if (!r) return;
      positions.push({ index, game: p.game, ply: p.ply, fen: p.at, played: p.played, ...r });
    });
    return {
      run,
      limits: {
        ...(this.spec.depth > 0 ? { depth: this.spec.depth } : {}),
        ...(this.spec.nodes > 0 ? { nodes: this.spec.nodes } : {}),
      },
      hash: this.spec.hash,
      options: Object.fromEntries(this.spec.options),
      positions,
    };
  }
}
