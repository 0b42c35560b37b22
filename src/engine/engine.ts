// The engine as a component: options, the game (start FEN + moves), and the
// search thread. The UCI text protocol (src/protocol/uci.ts) and the library API
// (src/index.ts) are thin layers over this class.

import type { BookMove } from '../book/book.js';
import type { BookLoadCode } from '../book/format.js';
import { START_FEN, type FenErrorCode } from '../core/fen.js';
import { Position } from '../core/position.js';
import { ok, type Result } from '../core/result.js';
import { DEFAULT_RULES, DRAW_RULES, REPETITION_RULES, ruleConfigFrom, type RuleConfig } from '../core/rules.js';
import { moveToUci, type Move } from '../core/types.js';
import { playUciMoves, type MoveErrorCode } from '../core/ucimove.js';
import { ACCEPTED, Options, type OptionChange } from './options.js';
import { WARMUP_EXTRA_NODES } from '#platform/search-thread';
import { startSearchThread, takePrestartedSearchThread, type SearchThread } from './prestart.js';
import { SCORE_TYPES, type ScoreType, type WinRateModel } from '../eval/score.js';
import type { FromWorker, ToWorker, Warmup } from '../search/worker.js';
import type { SearchInfo, SearchLimits, SearchOptions, SearchResult, StaticEvaluation } from '../search/types.js';
import { networkHandle, type EvalNetwork, type EvalNetworkCode } from '../eval/networks.js';
import { TranspositionTable } from '../search/tt.js';
import { touchInSlices } from '../search/pages.js';
import { MAX_THREADS, SharedSearch } from '../search/threads.js';
import { Skill } from '../search/skill.js';
import { BOOK_DEFAULTS, BookChoice } from './book-choice.js';
import { DEFAULT_EVAL_FILE, EvaluationChoice } from './evaluation.js';

const MAX_HASH_MB = 65536;

export interface EngineConfig {
  /**
   * Start the search thread now and let it run a short warm-up search (on
   * scratch tables, so the real ones and `bench` are untouched) so that the
   * first `go` runs compiled code at full speed. Default false: a library user's
   * thread starts at the first search (or at warmup()).
   */
  warmup?: boolean;
}

/**
 * Why this runtime cannot search, or null when it can: the search thread shares
 * memory with the engine, and a browser gives SharedArrayBuffer only to a
 * cross-origin isolated page. Everything else of the engine works without it.
 */
function searchUnavailable(): string | null {
  return typeof SharedArrayBuffer === 'function'
    ? null
    : 'Kirin cannot search here: this runtime has no SharedArrayBuffer (a browser gives it only to a cross-origin ' +
        'isolated page: Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)';
}

/** A fresh per-search signal buffer: [0] stop, [1] ponderhit (see src/search/worker.ts). */
export function newSignals(): Int32Array {
  // Without SharedArrayBuffer no search starts (ensureWorker refuses); the buffer is never shared.
  return new Int32Array(typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(8) : new ArrayBuffer(8));
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
  /** Lazy SMP state (threads > 1), so that a dying helper can be marked done. */
  shared: SharedSearch | null;
}

export class Engine {
  readonly options = new Options();
  /** The current position with the whole game history since `startFen`. */
  private readonly pos = new Position();
  private startFen = START_FEN;
  private moves: Move[] = [];
  /** The search threads: [0] the main search thread, the rest Lazy SMP helpers (`Threads`). */
  private workers: SearchThread[] = [];
  /** The shared transposition table storage (every search thread attaches it). */
  private ttBuffer: ArrayBufferLike | null = null;
  /** True while no search has used ttBuffer (it is all zeros; the warm-up may search in it and empty it). */
  private ttFresh = false;
  /** Helper threads that failed and were replaced (a few are; then the pool shrinks instead). */
  private helperFailures = 0;
  private get worker(): SearchThread | null {
    return this.workers[0] ?? null;
  }
  private nextId = 1;
  private readonly active = new Map<number, ActiveSearch>();
  private readonly hashfullWaiters = new Map<number, (v: number) => void>();
  private readonly evalWaiters = new Map<number, { resolve(r: StaticEvaluation): void; reject(e: Error): void }>();
  private readonly warmupWanted: boolean;
  /** Set to stop the warm-up search early (a `stop` or `quit` arrived meanwhile). */
  private warmupAbort = newSignals();
  /** Settles when the search threads sent a 'start' have finished their warm-ups. */
  private readyPromise: Promise<void> = Promise.resolve();
  private readyResolve: () => void = () => {};
  /** A search has been asked for (helpers started later do not warm up). */
  private searched = false;
  /** Threads sent a 'start' that have not answered 'ready' yet, and tables whose pages are being brought in. */
  private readonly readyPending = new Set<object>();
  private readySettled = true;
  /** Callers of ready() waiting for the thread's warm-up to end. */
  private readyWaiters = 0;
  /** Messages the engine wants shown (e.g. a failed hash allocation). */
  onMessage: (line: string) => void = () => {};
  /** The evaluation that plays (EvalFile, Use NNUE); its network is shared with the search threads. */
  private readonly evaluation: EvaluationChoice;
  /** The opening book and when it plays (BookFile, OwnBook, Book Depth, Book Variety). */
  private readonly book = new BookChoice();
  /** The game rules the searches and the referee judge by, rebuilt when one of their options changes. */
  private rules: RuleConfig = DEFAULT_RULES;
  /** Picks among book moves (Book Variety); replaceable for tests. */
  random: () => number = Math.random;

  constructor(config: EngineConfig = {}) {
    this.warmupWanted = config.warmup ?? false;
    const o = this.options;
    o.add({ name: 'Hash', type: 'spin', default: 16, min: 1, max: MAX_HASH_MB, onChange: (mb) => this.resizeHash(mb) });
    o.add({
      name: 'Threads',
      type: 'spin',
      default: 1,
      min: 1,
      max: MAX_THREADS,
      onChange: (n) => this.resizeThreads(n),
    });
    o.add({
      name: 'Clear Hash',
      type: 'button',
      onChange: () => {
        this.post({ type: 'clear' });
        return ACCEPTED;
      },
    });
    o.add({ name: 'Ponder', type: 'check', default: false });
    o.add({ name: 'MultiPV', type: 'spin', default: 1, min: 1, max: 500 });
    o.add({ name: 'Skill Level', type: 'spin', default: 20, min: 0, max: 20 });
    o.add({ name: 'UCI_LimitStrength', type: 'check', default: false });
    o.add({ name: 'UCI_Elo', type: 'spin', default: 1280, min: 1280, max: 3133 });
    o.add({ name: 'Move Overhead', type: 'spin', default: 10, min: 0, max: 5000 });
    o.add({ name: 'nodestime', type: 'spin', default: 0, min: 0, max: 10000 });
    o.add({ name: 'UCI_ShowWDL', type: 'check', default: false });
    const rules = DEFAULT_RULES;
    o.add({
      name: 'Rule60MaxPly',
      type: 'spin',
      default: rules.rule60MaxPly,
      min: 0,
      max: 120,
      onChange: (plies) => this.changeRules({ rule60MaxPly: plies }),
    });
    o.add({
      name: 'Mate Threat Depth',
      type: 'spin',
      default: rules.mateThreatDepth,
      min: 0,
      max: 10,
      onChange: (moves) => this.changeRules({ mateThreatDepth: moves }),
    });
    o.add({
      name: 'Repetition Rule',
      type: 'combo',
      default: rules.repetitionRule,
      vars: REPETITION_RULES,
      onChange: (rule) => this.changeRules({ repetitionRule: rule }),
    });
    o.add({
      name: 'DrawRule',
      type: 'combo',
      default: rules.drawRule,
      vars: DRAW_RULES,
      onChange: (rule) => this.changeRules({ drawRule: rule }),
    });
    o.add({ name: 'ScoreType', type: 'combo', default: 'PawnValueNormalized', vars: SCORE_TYPES });
    o.add({ name: 'LU_Output', type: 'check', default: true });
    o.add({
      name: 'EvalFile',
      type: 'string',
      default: DEFAULT_EVAL_FILE,
      onChange: (file) => this.evaluation.setFile(file),
    });
    o.add({ name: 'Use NNUE', type: 'check', default: true, onChange: (on) => this.evaluation.setUseNnue(on) });
    const book = this.book;
    o.add({ name: 'OwnBook', type: 'check', default: BOOK_DEFAULTS.ownBook, onChange: (on) => book.setOwnBook(on) });
    o.add({ name: 'BookFile', type: 'string', default: '', onChange: (file) => book.setFile(file) });
    o.add({
      name: 'Book Depth',
      type: 'spin',
      default: BOOK_DEFAULTS.depth,
      min: 0,
      max: 200,
      onChange: (moves) => book.setDepth(moves),
    });
    o.add({
      name: 'Book Variety',
      type: 'spin',
      default: BOOK_DEFAULTS.variety,
      min: 0,
      max: 100,
      onChange: (variety) => book.setVariety(variety),
    });
    this.evaluation = new EvaluationChoice(DEFAULT_EVAL_FILE, (net) => this.networkSwitched(net));
    if (this.warmupWanted && searchUnavailable() === null) this.ensureWorker();
  }

  // ---- Evaluation ----------------------------------------------------------------

  /** The evaluation that plays changed: every search thread (and its work slot) gets the network. */
  private networkSwitched(net: EvalNetwork | null): void {
    net?.ensureSlots(this.options.getNumber('Threads') + 1);
    for (const w of this.workers)
      w.postMessage({ type: 'net', net: net ? networkHandle(net) : null } satisfies ToWorker);
  }

  /**
   * Uses a network given as bytes (a page's fetch or file picker; the EvalFile
   * option reads files): Pikafish's format or Kirin's. A network that cannot be
   * used is refused with its error and the evaluation in use stays.
   */
  loadNetworkBytes(bytes: Uint8Array, name: string): Result<string, EvalNetworkCode> {
    return this.evaluation.loadBytes(bytes, name);
  }

  /** Which evaluation plays, with the network file and its description. */
  evaluationName(): string {
    return this.evaluation.name();
  }

  /**
   * The win-rate model behind `score cp` and `wdl`: Pikafish's, fitted for its
   * network, while a network plays; the classical evaluation's own otherwise
   * (score.ts). Output only: the search never converts scores.
   */
  winRateModel(): WinRateModel {
    return this.evaluation.winRateModel();
  }

  /** The line shown on uci/isready: which evaluation plays, or why the classical one does. */
  evaluationStatus(): string {
    return this.evaluation.status();
  }

  /** The evaluation trace of the current position (`eval`). */
  traceEval(): string {
    return this.evaluation.trace(this.pos);
  }

  // ---- Opening book ------------------------------------------------------------

  /**
   * Uses an opening book given as bytes (a page's fetch or file picker; the
   * BookFile option reads files). A damaged book is refused with its error and
   * the book in use stays.
   */
  loadBookBytes(bytes: Uint8Array, name: string): Result<string, BookLoadCode> {
    return this.book.loadBytes(bytes, name);
  }

  /** The current position's book moves (whether or not OwnBook is on), heaviest first; none without a book. */
  bookMoves(): BookMove[] {
    return this.book.moves(this.pos);
  }

  // ---- Game state --------------------------------------------------------------

  /**
   * Sets the game: a start FEN (null = the start position) and moves in UCI
   * coordinates. A rejected FEN or move (code and message) changes nothing.
   */
  setPosition(fen: string | null, moves: readonly string[]): Result<null, FenErrorCode | MoveErrorCode> {
    const startFen = fen ?? START_FEN;
    const p = new Position(null);
    const set = p.setFen(startFen);
    if (!set.ok) return set;
    const played = playUciMoves(p, moves);
    if (!played.ok) return played;
    this.pos.copyFrom(p);
    this.startFen = startFen;
    this.moves = played.value;
    return ok(null);
  }

  /** A copy of the current position with its history (the engine's own stays private). */
  position(): Position {
    return this.pos.clone();
  }

  /** FEN of the current position. */
  fen(): string {
    return this.pos.fen();
  }

  /** The start FEN and the moves played since (UCI strings). */
  game(): { startFen: string; moves: string[] } {
    return { startFen: this.startFen, moves: this.moves.map(moveToUci) };
  }

  /**
   * The game rules (Repetition Rule, DrawRule, Rule60MaxPly, Mate Threat
   * Depth): one frozen object, replaced exactly when one of those options
   * changes; every search is handed it.
   */
  ruleConfig(): RuleConfig {
    return this.rules;
  }

  /** One of the rule options changed: the rules are built anew (the same object when nothing differs). */
  private changeRules(change: {
    repetitionRule?: string;
    drawRule?: string;
    rule60MaxPly?: number;
    mateThreatDepth?: number;
  }): OptionChange {
    const next = ruleConfigFrom({ ...this.rules, ...change });
    const same = (Object.keys(next) as (keyof RuleConfig)[]).every((k) => next[k] === this.rules[k]);
    if (!same) this.rules = Object.freeze(next);
    return ACCEPTED;
  }

  scoreType(): ScoreType {
    return this.options.getString('ScoreType') as ScoreType;
  }

  /** What the searches read of the options (the shape of DEFAULT_SEARCH_OPTIONS, key for key). */
  searchOptions(): SearchOptions {
    const o = this.options;
    return {
      multiPV: o.getNumber('MultiPV'),
      moveOverhead: o.getNumber('Move Overhead'),
      nodestime: o.getNumber('nodestime'),
      skillLevel: o.getNumber('Skill Level'),
      limitStrength: o.getBool('UCI_LimitStrength'),
      elo: o.getNumber('UCI_Elo'),
      rules: this.rules,
      threads: o.getNumber('Threads'),
      ponder: o.getBool('Ponder'),
    };
  }

  // ---- Searching -----------------------------------------------------------------

  /**
   * Creates search thread `index` (0 = main). The one place a search thread is
   * created, through the platform seam (src/platform/node/search-thread.ts: node:worker_threads
   * in Node, a Web Worker in the browser build).
   */
  private createSearchWorker(index: number, warmup: boolean): SearchThread {
    const w = (index === 0 ? takePrestartedSearchThread() : undefined) ?? startSearchThread({ index });
    // Thread 0's warm-up searches in the table when it is still empty (no search
    // has used it yet); a helper's in a scratch table of its own (it may still run
    // when thread 0's search begins). Both with the network the engine plays with now.
    let start: Warmup | null = null;
    if (warmup) {
      const table = this.tableBuffer();
      const tt = index === 0 && this.ttFresh ? table : undefined;
      const network = this.evaluation.network();
      const net = network ? networkHandle(network) : null;
      start = { abort: this.warmupAbort.buffer as SharedArrayBuffer, tt, net, extraNodes: WARMUP_EXTRA_NODES };
    }
    // Thread 0 always gets a 'start' (it answers 'ready'); a helper only to warm up.
    if (index === 0 || start) {
      this.armReady();
      this.readyPending.add(w);
      w.postMessage({ type: 'start', warmup: start } satisfies ToWorker);
    }
    return w;
  }

  /** ready() waits again (for threads about to be sent a 'start'), unless it already does. */
  private armReady(): void {
    if (!this.readySettled) return;
    this.readySettled = false;
    this.readyPromise = new Promise<void>((resolve) => {
      this.readyResolve = () => {
        this.readySettled = true;
        resolve();
      };
    });
  }

  /** A thread answered 'ready' (or failed), or a table is in memory: ready() settles once none is pending. */
  private threadReady(w: object): void {
    if (this.readyPending.delete(w) && this.readyPending.size === 0) this.readyResolve();
  }

  /** The shared table (allocated at the first need, of the Hash size). */
  private tableBuffer(): ArrayBufferLike {
    return this.ttBuffer ?? this.allocateTable(this.options.getNumber('Hash'));
  }

  /** A new shared table of `mb` MB (16 MB when that size cannot be had), empty, brought into memory before ready() settles. */
  private allocateTable(mb: number): ArrayBufferLike {
    this.ttFresh = true;
    let buffer: ArrayBufferLike;
    try {
      buffer = TranspositionTable.allocateShared(mb);
    } catch {
      this.onMessage(`ERROR: could not allocate ${mb} MB for the hash table; using 16 MB`);
      buffer = TranspositionTable.allocateShared(16);
    }
    this.ttBuffer = buffer;
    // Bring the new table's pages in now, in slices on this thread from its next
    // turn on (so that a `uci` waiting at start-up is answered first), and let
    // isready wait for it, as Pikafish clears a new table before answering:
    // else the first search pays the page faults (with Hash 256 here it
    // searched 0.29x the nodes of the fourth).
    const token = {};
    this.armReady();
    this.readyPending.add(token);
    void touchInSlices([buffer]).then(() => this.threadReady(token));
    return buffer;
  }

  /** setoption Hash: a new shared table for every thread (each takes it after its current search). */
  private resizeHash(mb: number): OptionChange {
    this.ttBuffer = null;
    if (!this.workers.length) return ACCEPTED; // allocated with the first search thread
    const buffer = this.allocateTable(mb);
    for (const w of this.workers) w.postMessage({ type: 'tt', buffer } satisfies ToWorker);
    return ACCEPTED;
  }

  /**
   * setoption Threads: the pool grows or shrinks to the new count. A search in
   * progress keeps its threads; later searches use the new count. Retired
   * threads end once no search runs.
   */
  private resizeThreads(n: number): OptionChange {
    if (!this.workers.length) return ACCEPTED; // the pool starts with the first search
    this.evaluation.network()?.ensureSlots(n + 1);
    // New helpers warm up (and isready waits for them) while no search has begun.
    const early = !this.searched && Atomics.load(this.warmupAbort, 0) === 0;
    while (this.workers.length < n) this.spawnWorker(this.workers.length, early);
    if (this.workers.length > n) {
      const retired = this.workers.splice(n);
      void this.waitIdle().then(() => {
        for (const w of retired) void w.terminate();
      });
    }
    return ACCEPTED;
  }

  /** Starts search thread `index` with the current table and network. */
  private spawnWorker(index: number, warmup = index === 0): SearchThread {
    // Helpers warm up too, side by side with thread 0 (readyok waits for all): a
    // helper that compiled during the first search made that search about 0.4x as
    // deep as the later ones with Threads 2. One added once a search has begun
    // compiles in its first search.
    const w = this.createSearchWorker(index, warmup && this.warmupWanted);
    w.on('message', (msg: FromWorker) => (index === 0 ? this.onWorkerMessage(w, msg) : this.onHelperMessage(w, msg)));
    const failed = (e: Error) => {
      if (this.workers[index] !== w) return; // retired or replaced
      this.onMessage(`ERROR: search thread failed: ${e.message.split('\n')[0]}`);
      this.threadReady(w); // no 'ready' will come from it
      if (index > 0) {
        // A helper: the main thread stops waiting for it; a fresh one takes its
        // place, unless helpers keep failing: then the pool shrinks to `index`
        // threads (the later ones end after the searches in flight).
        for (const s of this.active.values()) s.shared?.abandon(index);
        if (++this.helperFailures <= 4) {
          this.spawnWorker(index);
          return;
        }
        const rest = this.workers.splice(index).filter((x) => x !== w);
        void this.waitIdle().then(() => {
          for (const x of rest) void x.terminate();
        });
        this.onMessage(`ERROR: search threads keep failing; searching with ${index} thread(s)`);
        return;
      }
      // The main thread must not take the engine down: fail the searches in
      // flight and start fresh threads on the next `go`.
      for (const s of this.active.values()) {
        Atomics.store(s.signals, 0, 1);
        s.reject(e);
      }
      this.active.clear();
      for (const x of this.evalWaiters.values()) x.reject(e);
      this.evalWaiters.clear();
      for (const x of this.hashfullWaiters.values()) x(0);
      this.hashfullWaiters.clear();
      const rest = this.workers.slice(1);
      this.workers = [];
      for (const x of rest) void x.terminate();
      this.readyResolve();
    };
    w.on('error', failed);
    w.on('exit', (code) => failed(new Error(`the search thread exited (code ${code})`)));
    w.unref();
    this.workers[index] = w;
    // Bring the new thread up to date: the shared table, the network.
    w.postMessage({ type: 'tt', buffer: this.tableBuffer() } satisfies ToWorker);
    const network = this.evaluation.network();
    if (network) w.postMessage({ type: 'net', net: networkHandle(network) } satisfies ToWorker);
    return w;
  }

  private onHelperMessage(w: SearchThread, msg: FromWorker): void {
    if (msg.type === 'text') this.onMessage(msg.line);
    else if (msg.type === 'ready') this.threadReady(w);
  }

  /** The main search thread, started if need be; throws where searching is impossible (searchUnavailable). */
  private ensureWorker(): SearchThread {
    const main = this.worker;
    if (main) return main;
    const why = searchUnavailable();
    if (why !== null) throw new Error(why);
    this.warmupAbort = newSignals();
    this.readyPending.clear();
    this.readySettled = true;
    this.armReady();
    const n = this.options.getNumber('Threads');
    this.evaluation.network()?.ensureSlots(n + 1);
    const w = this.spawnWorker(0);
    for (let i = 1; i < n; i++) this.spawnWorker(i, true);
    return w;
  }

  /** Tells every search thread (none yet: they start with the current options and empty tables). */
  private post(msg: ToWorker): void {
    if (!this.worker) return;
    for (const w of this.workers) w.postMessage(msg);
  }

  private onWorkerMessage(w: SearchThread, msg: FromWorker): void {
    if (msg.type === 'ready') {
      this.threadReady(w);
      return;
    }
    if (msg.type === 'histories') {
      // While the search thread warms up, this one brings its history tables' pages in.
      void touchInSlices(msg.buffers);
      return;
    }
    if (msg.type === 'hashfull') {
      this.hashfullWaiters.get(msg.id)?.(msg.value);
      this.hashfullWaiters.delete(msg.id);
      return;
    }
    if (msg.type === 'eval' || msg.type === 'eval-error') {
      const waiter = this.evalWaiters.get(msg.id);
      this.evalWaiters.delete(msg.id);
      if (msg.type === 'eval') waiter?.resolve(msg.result);
      else waiter?.reject(new Error(msg.message));
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

  /** What ready() still waits for: threads warming up, tables being brought into memory (diagnostics and tests). */
  preparing(): number {
    return this.readyPending.size;
  }

  /**
   * Settles when the search threads are up and warmed (at once when no thread has
   * been started). `isready` waits for this, as Stockfish's waits for its threads.
   */
  ready(): Promise<void> {
    const w = this.worker;
    if (!w || this.readySettled) return this.readyPromise;
    // Someone waits for the thread: keep the process alive until it answers
    // (the thread is otherwise unreferenced between searches).
    w.ref();
    this.readyWaiters++;
    return this.readyPromise.then(() => {
      this.readyWaiters--;
      this.releaseIfIdle();
    });
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
    const o = this.options;
    const level = new Skill(o.getNumber('Skill Level'), o.getBool('UCI_LimitStrength'), o.getNumber('UCI_Elo')).level;
    const book = this.book.play(this.pos, limits, level, this.random);
    if (book) {
      listener.text?.(book.text);
      return Promise.resolve({ bestMove: book.move, ponderMove: book.reply, score: 0, nodes: 0, depth: 0, book: true });
    }
    const why = searchUnavailable();
    if (why !== null) return Promise.reject(new Error(why));
    this.searched = true;
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
    this.ensureWorker();
    const workers = this.workers.slice();
    const shared = workers.length > 1 ? SharedSearch.create(workers.length) : null;
    this.active.set(id, { id, signals, listener, resolve, reject, ended, shared });
    for (const w of workers) w.ref();
    const msg: ToWorker = {
      type: 'go',
      id,
      fen: this.startFen,
      moves: this.moves.slice(),
      limits,
      options: this.searchOptions(),
      signals: sab,
      shared: shared?.buffer,
    };
    this.ttFresh = false;
    for (const w of workers) w.postMessage(msg);
    void ended.then(() => {
      this.releaseIfIdle();
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

  /**
   * Unreferences the search threads (so that they no longer keep the process
   * alive) once nothing waits on them: no search, no static evaluation, no
   * hashfull and no ready() request. Each of those references the threads it
   * waits on while it waits; threads that were retired are terminated already.
   */
  private releaseIfIdle(): void {
    if (this.active.size || this.evalWaiters.size || this.hashfullWaiters.size || this.readyWaiters) return;
    for (const w of this.workers) w.unref();
  }

  /** Hash table usage in per mille. */
  hashfull(): Promise<number> {
    const w = this.worker;
    if (!w) return Promise.resolve(0);
    const id = this.nextId++;
    // Keep the process alive until the thread answers (it is unreferenced between searches).
    w.ref();
    return new Promise<number>((resolve) => {
      this.hashfullWaiters.set(id, resolve);
      w.postMessage({ type: 'hashfull', id } satisfies ToWorker);
    }).finally(() => {
      this.releaseIfIdle();
    });
  }

  /**
   * The static evaluation of the current position on the main search thread:
   * the evaluation its searches use (the network and kernels there), from the
   * side to move with optimism 0. Starts the thread if needed; answered after
   * the search running there, if any.
   */
  searchThreadEvaluation(): Promise<StaticEvaluation> {
    const why = searchUnavailable();
    if (why !== null) return Promise.reject(new Error(why));
    const w = this.ensureWorker();
    const id = this.nextId++;
    w.ref();
    return new Promise<StaticEvaluation>((resolve, reject) => {
      this.evalWaiters.set(id, { resolve, reject });
      w.postMessage({ type: 'eval', id, fen: this.startFen, moves: this.moves.slice() } satisfies ToWorker);
    }).finally(() => this.releaseIfIdle());
  }

  /** Stops searching and ends the search thread. */
  async close(): Promise<void> {
    this.stop();
    await this.waitIdle();
    const ws = this.workers;
    this.workers = [];
    await Promise.all(ws.map((w) => w.terminate()));
  }
}
