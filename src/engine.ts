// The engine as a component: options, the game (start FEN + moves), and the
// search thread. The UCI text protocol (src/protocol/uci.ts) and the library API
// (src/index.ts) are thin layers over this class.

import { Worker } from 'node:worker_threads';
import { START_FEN } from './core/fen.js';
import { generate } from './core/movegen.js';
import { Position } from './core/position.js';
import { DRAW_RULES, REPETITION_RULES, ruleConfigFrom, type RuleConfig } from './core/rules.js';
import { GEN_LEGAL, MAX_MOVES, moveToUci, parseSquare, makeMove, type Move } from './core/types.js';
import { Options } from './protocol/options.js';
import { SCORE_TYPES, type ScoreType } from './protocol/score.js';
import type { FromWorker, ToWorker } from './search/worker.js';
import type { SearchInfo, SearchLimits, SearchOptions, SearchResult } from './search/types.js';

export const ENGINE_NAME = 'Kirin';
export const ENGINE_VERSION = '0.1.0';
export const ENGINE_AUTHOR = 'the Kirin developers';

export const MAX_HASH_MB = 65536;

export interface EngineConfig {
  /**
   * Start the search thread now and let it run a short warm-up search (on
   * scratch tables, so the real ones and `bench` are untouched) so that the
   * first `go` runs compiled code at full speed. Default false: a library user's
   * thread starts at the first search (or at warmup()).
   */
  warmup?: boolean;
}

/** A fresh per-search signal buffer: [0] stop, [1] ponderhit (see src/search/worker.ts). */
export function newSignals(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(8));
}

export interface SearchListener {
  info?(info: SearchInfo): void;
  text?(line: string): void;
}

interface ActiveSearch {
  id: number;
  signals: Int32Array;
  listener: SearchListener;
  resolve(r: SearchResult): void;
  reject(e: Error): void;
  /** Settles (never rejects) when the search has ended, either way. */
  ended: Promise<void>;
}

/** Parses a move in UCI coordinates ("h2e2") and checks it is legal in `pos`; returns the move or an error text. */
export function parseLegalMove(pos: Position, text: string, scratch?: Int32Array): Move | string {
  const t = text.trim();
  if (t.length !== 4) return `'${text}' is not a move in UCI coordinates (like h2e2)`;
  const from = parseSquare(t.slice(0, 2).toLowerCase());
  const to = parseSquare(t.slice(2, 4).toLowerCase());
  if (from < 0 || to < 0) return `'${text}' is not a move in UCI coordinates (files a-i, ranks 0-9, like h2e2)`;
  const m = makeMove(from, to);
  const list = scratch ?? new Int32Array(MAX_MOVES);
  const n = generate(pos, GEN_LEGAL, list, 0);
  for (let i = 0; i < n; i++) if (list[i] === m) return m;
  return `'${text}' is not a legal move`;
}

export class Engine {
  readonly options = new Options();
  /** The current position with the whole game history since `startFen`. */
  readonly pos = new Position();
  private startFen = START_FEN;
  private moves: Move[] = [];
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly active = new Map<number, ActiveSearch>();
  private readonly hashfullWaiters = new Map<number, (v: number) => void>();
  private readonly warmupWanted: boolean;
  /** Set to stop the warm-up search early (a `stop` or `quit` arrived meanwhile). */
  private warmupAbort = newSignals();
  /** Settles when the current search thread has started and finished its warm-up. */
  private readyPromise: Promise<void> = Promise.resolve();
  private readyResolve: () => void = () => {};
  /** Messages the engine wants shown (e.g. a failed hash allocation). */
  onMessage: (line: string) => void = () => {};

  constructor(config: EngineConfig = {}) {
    this.warmupWanted = config.warmup ?? false;
    const o = this.options;
    o.add({ name: 'Hash', type: 'spin', default: 16, min: 1, max: MAX_HASH_MB, onChange: (v) => this.post({ type: 'hash', mb: v as number }) });
    o.add({ name: 'Clear Hash', type: 'button', onChange: () => this.post({ type: 'clear' }) });
    o.add({ name: 'Ponder', type: 'check', default: false });
    o.add({ name: 'MultiPV', type: 'spin', default: 1, min: 1, max: 500 });
    o.add({ name: 'Skill Level', type: 'spin', default: 20, min: 0, max: 20 });
    o.add({ name: 'UCI_LimitStrength', type: 'check', default: false });
    o.add({ name: 'UCI_Elo', type: 'spin', default: 1280, min: 1280, max: 3133 });
    o.add({ name: 'Move Overhead', type: 'spin', default: 10, min: 0, max: 5000 });
    o.add({ name: 'nodestime', type: 'spin', default: 0, min: 0, max: 10000 });
    o.add({ name: 'UCI_ShowWDL', type: 'check', default: false });
    o.add({ name: 'Rule60MaxPly', type: 'spin', default: 120, min: 0, max: 120 });
    o.add({ name: 'Mate Threat Depth', type: 'spin', default: 0, min: 0, max: 10 });
    o.add({ name: 'Repetition Rule', type: 'combo', default: 'AsianRule', vars: REPETITION_RULES });
    o.add({ name: 'DrawRule', type: 'combo', default: 'None', vars: DRAW_RULES });
    o.add({ name: 'ScoreType', type: 'combo', default: 'PawnValueNormalized', vars: SCORE_TYPES });
    o.add({ name: 'LU_Output', type: 'check', default: true });
    if (this.warmupWanted) this.ensureWorker();
  }

  // ---- Game state --------------------------------------------------------------

  /**
   * Sets the game: a start FEN (null = the start position) and moves in UCI
   * coordinates. Returns null, or an error message; on error nothing changes.
   */
  setPosition(fen: string | null, moves: readonly string[]): string | null {
    const startFen = fen ?? START_FEN;
    const p = new Position(null);
    const err = p.setFen(startFen);
    if (err !== null) return err;
    const list = new Int32Array(MAX_MOVES);
    const played: Move[] = [];
    for (let i = 0; i < moves.length; i++) {
      const m = parseLegalMove(p, moves[i], list);
      if (typeof m === 'string') return `move ${i + 1} of the list: ${m} in position ${p.fen()}`;
      p.doMove(m);
      played.push(m);
    }
    this.pos.copyFrom(p);
    this.startFen = startFen;
    this.moves = played;
    return null;
  }

  /** FEN of the current position. */
  fen(): string {
    return this.pos.fen();
  }

  /** The start FEN and the moves played since (UCI strings). */
  game(): { startFen: string; moves: string[] } {
    return { startFen: this.startFen, moves: this.moves.map(moveToUci) };
  }

  ruleConfig(): RuleConfig {
    const o = this.options;
    return ruleConfigFrom({
      repetitionRule: o.getString('Repetition Rule'),
      drawRule: o.getString('DrawRule'),
      rule60MaxPly: o.getNumber('Rule60MaxPly'),
      mateThreatDepth: o.getNumber('Mate Threat Depth'),
    });
  }

  scoreType(): ScoreType {
    return this.options.getString('ScoreType') as ScoreType;
  }

  searchOptions(): SearchOptions {
    const o = this.options;
    return {
      multiPV: o.getNumber('MultiPV'),
      moveOverhead: o.getNumber('Move Overhead'),
      nodestime: o.getNumber('nodestime'),
      rule60MaxPly: o.getNumber('Rule60MaxPly'),
      skillLevel: o.getNumber('Skill Level'),
      limitStrength: o.getBool('UCI_LimitStrength'),
      elo: o.getNumber('UCI_Elo'),
      repetitionRule: o.getString('Repetition Rule'),
      drawRule: o.getString('DrawRule'),
      mateThreatDepth: o.getNumber('Mate Threat Depth'),
      threads: 1,
      ponder: o.getBool('Ponder'),
    };
  }

  // ---- Searching -----------------------------------------------------------------

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    this.warmupAbort = newSignals();
    this.readyPromise = new Promise<void>((resolve) => {
      this.readyResolve = resolve;
    });
    const w = new Worker(new URL('./search/worker.js', import.meta.url), {
      workerData: { warmup: this.warmupWanted, abort: this.warmupAbort.buffer },
    });
    w.on('message', (msg: FromWorker) => this.onWorkerMessage(msg));
    const failed = (e: Error) => {
      if (this.worker !== w) return;
      // A crashed search thread must not take the engine down: fail the
      // searches in flight and start a fresh thread on the next `go`.
      this.onMessage(`ERROR: search thread failed: ${e.message.split('\n')[0]}`);
      for (const s of this.active.values()) s.reject(e);
      this.active.clear();
      this.worker = null;
      this.readyResolve();
    };
    w.on('error', failed);
    w.on('exit', (code) => failed(new Error(`the search thread exited (code ${code})`)));
    w.unref();
    this.worker = w;
    // Bring the new thread up to date with the options that live there.
    const hash = this.options.getNumber('Hash');
    if (hash !== 16) w.postMessage({ type: 'hash', mb: hash } satisfies ToWorker);
    return w;
  }

  private post(msg: ToWorker): void {
    if (!this.worker && msg.type !== 'go') {
      // Nothing to tell a thread that does not exist yet: it starts with the
      // current option values (hash) and empty tables.
      return;
    }
    this.ensureWorker().postMessage(msg);
  }

  private onWorkerMessage(msg: FromWorker): void {
    if (msg.type === 'ready') {
      this.readyResolve();
      return;
    }
    if (msg.type === 'hashfull') {
      this.hashfullWaiters.get(msg.id)?.(msg.value);
      this.hashfullWaiters.delete(msg.id);
      return;
    }
    const s = this.active.get(msg.id);
    if (msg.type === 'text' && !s) {
      this.onMessage(msg.line);
      return;
    }
    if (!s) return;
    switch (msg.type) {
      case 'info':
        s.listener.info?.(msg.info);
        break;
      case 'text':
        s.listener.text?.(msg.line);
        break;
      case 'done':
        this.active.delete(msg.id);
        s.resolve(msg.result);
        break;
      case 'error':
        this.active.delete(msg.id);
        s.reject(new Error(msg.message));
        break;
    }
  }

  /** Starts the search thread ahead of the first `go` (GUIs send uci/isready first). */
  warmup(): void {
    this.ensureWorker();
  }

  /**
   * Settles when the search thread is up and warmed (at once when no thread has
   * been started). `isready` waits for this, as Stockfish's waits for its threads.
   */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** True while a search runs (or is queued). */
  searching(): boolean {
    return this.active.size > 0;
  }

  /**
   * Starts a search of the current position; resolves with the best move when it ends.
   * `signals` (from newSignals()) lets a caller stop the search before this call is
   * made: the protocol creates it when it reads `go`, so a `stop` read after the
   * `go` reaches it even while the `go` still waits behind earlier commands.
   */
  go(limits: SearchLimits, listener: SearchListener = {}, signals: Int32Array = newSignals()): Promise<SearchResult> {
    const id = this.nextId++;
    const sab = signals.buffer as SharedArrayBuffer;
    let resolve!: (r: SearchResult) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<SearchResult>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const ended = promise.then(
      () => undefined,
      () => undefined,
    );
    this.active.set(id, { id, signals, listener, resolve, reject, ended });
    this.ensureWorker().ref();
    this.post({ type: 'go', id, fen: this.startFen, moves: this.moves.slice(), limits, options: this.searchOptions(), signals: sab });
    void ended.then(() => {
      if (this.active.size === 0) this.worker?.unref();
    });
    return promise;
  }

  /**
   * Ends a warm-up in progress (at once: it polls like a search). A `go` that
   * arrives before the warm-up ended calls this: the GUI's clock is running, so
   * the search may not wait for the rest of the warm-up.
   */
  abortWarmup(): void {
    Atomics.store(this.warmupAbort, 0, 1);
  }

  /** Asks every running search (and a warm-up in progress) to stop; each search still reports its best move. */
  stop(): void {
    this.abortWarmup();
    for (const s of this.active.values()) {
      Atomics.store(s.signals, 0, 1);
      Atomics.notify(s.signals, 0);
    }
  }

  /** The opponent played the expected move: the ponder search becomes a normal one. */
  ponderhit(): void {
    for (const s of this.active.values()) {
      Atomics.store(s.signals, 1, 1);
      Atomics.notify(s.signals, 0);
    }
  }

  /** Waits until no search is running. */
  async waitIdle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()].map((s) => s.ended));
  }

  /** ucinewgame: forget the transposition table and histories. */
  newGame(): void {
    this.post({ type: 'clear' });
  }

  /** Hash table usage in per mille. */
  hashfull(): Promise<number> {
    if (!this.worker) return Promise.resolve(0);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.hashfullWaiters.set(id, resolve);
      this.post({ type: 'hashfull', id });
    });
  }

  /** Stops searching and ends the search thread. */
  async close(): Promise<void> {
    this.stop();
    await this.waitIdle();
    const w = this.worker;
    this.worker = null;
    await w?.terminate();
  }
}
