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
  err,
  ok,
  Position,
  START_FEN,
  judge,
  materialCount,
  moveToUci,
  toCp,
  type Result,
  type SearchInfo,
} from '../../src/dev.js';
import { isMateScore, mateInMoves } from '../../src/eval/score.js';
import { applyMoves, parseOpeningLine, type Opening } from '../match/openings.js';
import type { HandlerCheck, RunHandler, WorkContext } from './runs.js';
import type { AnalyseSpec, AnalysisLine, AnalysisPosition } from './specs.js';
import { validateRun } from './validate.js';

type Request<T> = Result<T, 'request'>;

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

function place(o: Opening, moves: readonly string[], what: string): Request<Position> {
  const pos = new Position(o.fen ?? START_FEN);
  const r = applyMoves(pos, moves);
  return r.ok ? ok(pos) : err('request', `${what}: ${r.error.message}`);
}

/** The positions of a request as they are read, each game's moves kept once. */
class AnalysisInput {
  readonly lines: AnalysisLine[] = [];
  readonly positions: AnalysisPosition[] = [];
  /** Games read so far (their numbers in the output). */
  games = 0;

  /** The position at the end of an opening-syntax line (the error names the line). */
  position(text: string, what: string): Request<null> {
    const r = parseOpeningLine(text, 0);
    if (!r.ok) return err('request', `${what}: ${r.error.message.replace(/^line 0: /, '')}`);
    if (r.value === null) return err('request', `${what}: no position in "${text}"`);
    const o = r.value;
    const pos = place(o, o.moves, what);
    if (!pos.ok) return pos;
    this.lines.push({ fen: o.fen, moves: o.moves });
    this.positions.push({
      line: this.lines.length - 1,
      ply: o.moves.length,
      at: pos.value.fen(),
      game: null,
      played: null,
    });
    return ok(null);
  }

  /**
   * A game: every position after the opening `o` up to the last one that still
   * has a move to find (the end of a game is not searched). Returns how many.
   */
  game(o: Opening, gameMoves: readonly string[], what: string): Request<number> {
    const all = [...o.moves, ...gameMoves];
    const checked = place(o, all, what); // every move checked, with a clear error
    if (!checked.ok) return checked;
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
    return ok(n);
  }

  /**
   * Games from a file: `kirin match --log` lines (`game N | ... | opening ... | moves ... | end ...`),
   * or one game per line in the opening syntax (moves from the start, or FEN + moves). Returns the positions added.
   */
  gameFile(text: string, file: string): Request<number> {
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
          return err('request', `${what}: not a game-log line of kirin match (no "opening" or "moves" field)`);
        const openingText = openingField.slice('opening '.length).replace(/\s+\(.*\)\s*$/, '');
        const r = parseOpeningLine(openingText === 'startpos' ? '' : openingText, n + 1);
        if (!r.ok) return err('request', `${what}: opening: ${r.error.message}`);
        const opening: Opening = r.value ?? { fen: null, moves: [], name: 'startpos', line: n + 1 };
        const moves = movesField.slice('moves'.length).trim().split(/\s+/).filter(Boolean);
        const g = this.game(opening, moves, what);
        if (!g.ok) return g;
        added += g.value;
      } else {
        const r = parseOpeningLine(line, n + 1);
        if (!r.ok) return err('request', `${what}: ${r.error.message.replace(/^line \d+: /, '')}`);
        if (r.value === null) continue;
        const g = this.game({ ...r.value, moves: [] }, r.value.moves, what);
        if (!g.ok) return g;
        added += g.value;
      }
    }
    return ok(added);
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

/** The spec from a request, every position and option checked. */
export function makeAnalyseSpec(r: AnalyseRequest): Request<AnalyseSpec> {
  if (r.depth <= 0 && r.nodes <= 0)
    return err('request', 'give a limit: --depth D or --nodes N (the answers are then reproducible)');
  const input = new AnalysisInput();
  for (const [i, p] of r.positions.entries()) {
    const added = input.position(p, `--position ${i + 1}`);
    if (!added.ok) return added;
  }
  for (const f of r.positionFiles) {
    const text = readText(f);
    if (!text.ok) return text;
    for (const [n, l] of text.value.split(/\r?\n/).entries()) {
      if (!l.replace(/[#;].*$/, '').trim()) continue;
      const added = input.position(l, `${f} line ${n + 1}`);
      if (!added.ok) return added;
    }
  }
  for (const [i, g] of r.games.entries()) {
    const pr = parseOpeningLine(g, 0);
    if (!pr.ok) return err('request', `--game ${i + 1}: ${pr.error.message.replace(/^line 0: /, '')}`);
    if (pr.value === null) return err('request', `--game ${i + 1}: no moves in "${g}"`);
    const added = input.game({ ...pr.value, moves: [] }, pr.value.moves, `--game ${i + 1}`);
    if (!added.ok) return added;
  }
  for (const f of r.gameFiles) {
    const text = readText(f);
    if (!text.ok) return text;
    const added = input.gameFile(text.value, f);
    if (!added.ok) return added;
    if (added.value === 0) return err('request', `${f}: no game with a position to analyse`);
  }
  if (input.positions.length === 0)
    return err('request', 'nothing to analyse: give --position, --positions FILE, --game or --games FILE');
  // The options, checked by an engine here (not started: no search thread).
  const probe = new Engine();
  for (const [name, value] of r.options) {
    if (REFUSED.includes(name.trim().toLowerCase()))
      return err('request', `option "${name}" is not allowed: analysis searches run on one thread and write no files`);
    const s = probe.options.set(name, value);
    if (!s.ok) return err('request', `option ${name}=${value}: ${s.error.message}`);
  }
  const hashSet = probe.options.set('Hash', String(r.hash));
  if (!hashSet.ok) return err('request', `--hash ${r.hash}: ${hashSet.error.message}`);
  const spec: AnalyseSpec = {
    lines: input.lines,
    positions: input.positions,
    depth: Math.max(0, r.depth),
    nodes: Math.max(0, r.nodes),
    hash: r.hash,
    options: r.options,
  };
  // As a worker will read it (validate.ts): what it refuses is refused here, before anything is queued.
  const valid = validateRun('analyse', spec, null);
  return valid.ok ? ok(spec) : err('request', valid.error.message);
}

function readText(file: string): Request<string> {
  try {
    return ok(readFileSync(file, 'utf8'));
  } catch (e) {
    return err('request', `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** The worker's engines for analysis, one per job running at once, kept between jobs. */
export class AnalysisEngines {
  private readonly idle = new Map<string, Engine[]>();

  private key(spec: AnalyseSpec): string {
    return JSON.stringify([spec.hash, spec.options]);
  }

  /** Searches position `index` of the run (its spec checked: validateRun); null when the run ended meanwhile. */
  async search(spec: AnalyseSpec, index: number, ctx: WorkContext): Promise<Result<AnalysisResult | null, 'job'>> {
    const p = spec.positions[index];
    if (!p) return err('job', `no position ${index} in the run`);
    const key = this.key(spec);
    const idle = this.idle.get(key)?.pop();
    const made = idle ? ok(idle) : this.create(spec);
    if (!made.ok) return made;
    const engine = made.value;
    let done = false;
    try {
      engine.newGame();
      const line = spec.lines[p.line];
      const set = engine.setPosition(line.fen, line.moves.slice(0, p.ply));
      if (!set.ok) return err('job', `position ${index}: ${set.error.message}`);
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
      } catch (e) {
        return err('job', `position ${index}: search failed: ${(e as Error).message}`);
      } finally {
        clearInterval(watch);
      }
      done = true;
      if (ctx.cancelled()) return ok(null);
      const info = last as SearchInfo | null;
      const value = info?.score ?? result.score;
      const pv = info?.pv.map(moveToUci) ?? [];
      const best = result.bestMove === MOVE_NONE ? null : moveToUci(result.bestMove);
      return ok({
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
      });
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

  private create(spec: AnalyseSpec): Result<Engine, 'job'> {
    const engine = new Engine();
    for (const [name, value] of [['Threads', '1'], ['Hash', String(spec.hash)], ...spec.options]) {
      const r = engine.options.set(name, value);
      if (!r.ok) {
        void engine.close();
        return err('job', `option ${name}=${value}: ${r.error.message}`);
      }
    }
    return ok(engine);
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

/** A search's result as read from Redis: the fields the document shows, their types checked. */
function readAnalysis(value: unknown, index: number): Result<AnalysisResult, 'result'> {
  const v = value as Partial<AnalysisResult> | null;
  const bad = (what: string): Result<never, 'result'> => err('result', `position ${index}: malformed result (${what})`);
  if (typeof v !== 'object' || v === null) return bad('not an object');
  const int = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);
  if (v.bestMove !== null && typeof v.bestMove !== 'string') return bad('bestMove');
  const score = v.score as { cp?: unknown; mate?: unknown } | undefined;
  if (typeof score !== 'object' || score === null || !(int(score.cp) || int(score.mate))) return bad('score');
  if (!int(v.value) || !int(v.depth) || !int(v.seldepth) || !int(v.nodes)) return bad('its numbers');
  if (!Array.isArray(v.pv) || !v.pv.every((m) => typeof m === 'string')) return bad('pv');
  if (typeof v.evaluation !== 'string') return bad('evaluation');
  return ok({
    bestMove: v.bestMove ?? null,
    score: int(score.cp) ? { cp: score.cp } : { mate: score.mate as number },
    value: v.value,
    depth: v.depth,
    seldepth: v.seldepth,
    nodes: v.nodes,
    pv: v.pv,
    evaluation: v.evaluation,
  });
}

/** Coordinator side: collects the searches; the run ends when every position is in. */
export class AnalysisCollector implements RunHandler {
  readonly results = new Map<number, AnalysisResult>();

  constructor(readonly spec: AnalyseSpec) {}

  result(index: number, value: unknown): Result<null, 'result'> {
    const r = readAnalysis(value, index);
    if (!r.ok) return r;
    this.results.set(index, r.value);
    return ok(null);
  }

  check(): HandlerCheck {
    return ok(this.results.size >= this.spec.positions.length ? { state: 'done', summary: this.summary() } : null);
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
