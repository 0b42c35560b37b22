// The engine as a component: options, the game (start FEN + moves), and the
// search thread. The UCI text protocol (src/protocol/uci.ts) and the library API
// (src/index.ts) are thin layers over this class.

import { OpeningBook, bookUseAtLevel, type BookMove } from '../book/book.js';
import { readBookFile, readEmbeddedBook } from '#platform/book-files';
import type { BookLoadCode } from '../book/format.js';
import { START_FEN, type FenErrorCode } from '../core/fen.js';
import { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { DRAW_RULES, REPETITION_RULES, ruleConfigFrom, type RuleConfig } from '../core/rules.js';
import { MOVE_NONE, moveToUci, type Move } from '../core/types.js';
import { playUciMoves, type MoveErrorCode } from '../core/ucimove.js';
import { ACCEPTED, Options, type OptionChange } from './options.js';
import { WARMUP_EXTRA_NODES } from '#platform/search-thread';
import { startSearchThread, takePrestartedSearchThread, type SearchThread } from './prestart.js';
import {
  CLASSICAL_WIN_RATE,
  PIKAFISH_WIN_RATE,
  SCORE_TYPES,
  type ScoreType,
  type WinRateModel,
} from '../eval/score.js';
import type { FromWorker, ToWorker, Warmup } from '../search/worker.js';
import type { SearchInfo, SearchLimits, SearchOptions, SearchResult, StaticEvaluation } from '../search/types.js';
import {
  evalNetworkFromBytes,
  isKirinNetwork,
  loadEmbeddedNetwork,
  loadEvalNetwork,
  networkEvaluator,
  networkHandle,
  traceNetwork,
  type EvalNetwork,
  type EvalNetworkCode,
  type NetworkEvaluator,
} from '../eval/networks.js';
import { traceClassical } from '../eval/evaluate.js';
import { TranspositionTable } from '../search/tt.js';
import { touchInSlices } from '../search/pages.js';
import { MAX_THREADS, SharedSearch } from '../search/threads.js';
import { Skill } from '../search/skill.js';

const MAX_HASH_MB = 65536;
/** Pikafish's default network file name (evaluate.h). */
const DEFAULT_EVAL_FILE = 'pikafish.nnue';
/** The name Kirin's default opening book goes by (BookFile empty). */
const DEFAULT_BOOK_NAME = 'kirin.book';

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
  /** The network that plays (null: the classical evaluation). Shared with the search threads. */
  private network: EvalNetwork | null = null;
  /** This thread's evaluator for `eval` (work slot 0). */
  private evaluator: NetworkEvaluator | null = null;
  /** The network EvalFile loaded (null: none - not found, or EvalFile empty). */
  private fileNetwork: EvalNetwork | null = null;
  /** Why EvalFile gave no network (for the status line). */
  private fileNote = '';
  /** The error of a default EvalFile that was found but could not be used at start-up. */
  private fileError = '';
  /** Kirin's embedded network: undefined until first needed, null when this build has none. */
  private embedded: EvalNetwork | null | undefined = undefined;
  /** One line saying which evaluation plays and why (shown on uci/isready). */
  private evalStatus = '';
  /** The opening book BookFile names (undefined: not read yet; null: none could be had). */
  private book: OpeningBook | null | undefined = undefined;
  /** Why there is no book (when `book` is null). */
  private bookProblem = '';
  /** Picks among book moves (Book Variety); replaceable for tests. */
  random: () => number = Math.random;

  constructor(config: EngineConfig = {}) {
    this.warmupWanted = config.warmup ?? false;
    const o = this.options;
    o.add({
      name: 'Hash',
      type: 'spin',
      default: 16,
      min: 1,
      max: MAX_HASH_MB,
      onChange: (v) => {
        this.resizeHash(v as number);
        return ACCEPTED;
      },
    });
    o.add({
      name: 'Threads',
      type: 'spin',
      default: 1,
      min: 1,
      max: MAX_THREADS,
      onChange: (v) => {
        this.resizeThreads(v as number);
        return ACCEPTED;
      },
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
    o.add({ name: 'Rule60MaxPly', type: 'spin', default: 120, min: 0, max: 120 });
    o.add({ name: 'Mate Threat Depth', type: 'spin', default: 0, min: 0, max: 10 });
    o.add({ name: 'Repetition Rule', type: 'combo', default: 'AsianRule', vars: REPETITION_RULES });
    o.add({ name: 'DrawRule', type: 'combo', default: 'None', vars: DRAW_RULES });
    o.add({ name: 'ScoreType', type: 'combo', default: 'PawnValueNormalized', vars: SCORE_TYPES });
    o.add({ name: 'LU_Output', type: 'check', default: true });
    o.add({
      name: 'EvalFile',
      type: 'string',
      default: DEFAULT_EVAL_FILE,
      onChange: (v) => this.loadNetwork(String(v)),
    });
    o.add({ name: 'Use NNUE', type: 'check', default: true, onChange: () => ok(this.selectEvaluation()) });
    o.add({ name: 'OwnBook', type: 'check', default: false, onChange: (v) => ok(v ? this.bookStatus() : undefined) });
    o.add({ name: 'BookFile', type: 'string', default: '', onChange: (v) => this.loadBookFile(String(v)) });
    o.add({ name: 'Book Depth', type: 'spin', default: 20, min: 0, max: 200 });
    o.add({ name: 'Book Variety', type: 'spin', default: 100, min: 0, max: 100 });
    this.loadInitialNetwork(DEFAULT_EVAL_FILE);
    if (this.warmupWanted && searchUnavailable() === null) this.ensureWorker();
  }

  // ---- Evaluation ----------------------------------------------------------------

  /**
   * At start-up: the network EvalFile names if it is found, else Kirin's
   * embedded network, else the classical evaluation; said once on uci/isready.
   */
  private loadInitialNetwork(file: string): void {
    const r = loadEvalNetwork(file);
    if (r.ok) this.fileNetwork = r.value;
    else if (r.error.code === 'not-found') this.fileNote = `no ${file} found`;
    else {
      this.fileError = r.error.message;
      this.fileNote = `${file} is not used: ${r.error.message}`;
    }
    this.selectEvaluation();
  }

  /** Kirin's embedded network (read once), or null when this build has none. */
  private embeddedNetwork(): EvalNetwork | null {
    if (this.embedded === undefined) {
      const r = loadEmbeddedNetwork();
      this.embedded = r?.ok ? r.value : null;
      if (r && !r.ok) this.fileNote += `; the embedded network is damaged (${r.error.message})`;
    }
    return this.embedded;
  }

  /**
   * Chooses the evaluation that plays: none when Use NNUE is off (classical),
   * else the EvalFile network, else the embedded network, else classical.
   */
  private selectEvaluation(): string {
    const useNnue = this.options.getBool('Use NNUE');
    const net = useNnue ? (this.fileNetwork ?? this.embeddedNetwork()) : null;
    if (net !== this.network) {
      this.network = net;
      this.evaluator = net ? networkEvaluator(net, 0) : null;
      net?.ensureSlots(this.options.getNumber('Threads') + 1);
      for (const w of this.workers)
        w.postMessage({ type: 'net', net: net ? networkHandle(net) : null } satisfies ToWorker);
    }
    const note = this.fileNote ? ` (${this.fileNote})` : '';
    if (!useNnue) this.evalStatus = 'classical evaluation (Use NNUE is off)';
    else if (net && net === this.fileNetwork) this.evalStatus = `NNUE evaluation using ${net.label()}`;
    else if (net) this.evalStatus = `NNUE evaluation using Kirin's embedded network ${net.label()}${note}`;
    else if (this.fileError) this.evalStatus = `ERROR: ${this.fileError}; the classical evaluation plays`;
    else if (this.fileNote === 'EvalFile is empty') this.evalStatus = 'classical evaluation (EvalFile is empty)';
    else
      this.evalStatus = `classical evaluation: no network found (${DEFAULT_EVAL_FILE}; see "Using the official network" in the README)`;
    return this.evalStatus;
  }

  /**
   * setoption EvalFile: loads the file and switches to it; an empty value drops
   * the file (the embedded network plays). A file that cannot be used is
   * refused with its error and the evaluation in use stays.
   */
  private loadNetwork(file: string): OptionChange {
    this.fileError = '';
    if (file === '') {
      this.fileNetwork = null;
      this.fileNote = 'EvalFile is empty';
      return ok(this.selectEvaluation());
    }
    const r = loadEvalNetwork(file);
    if (!r.ok) {
      // A GUI that sends every option back with its default value (XBoard via
      // uci2wb does) changes nothing here: the evaluation that played plays on.
      if (r.error.code === 'not-found' && file === DEFAULT_EVAL_FILE && !this.fileNetwork) return ok(this.evalStatus);
      return err('option-rejected', `${r.error.message}; the evaluation stays: ${this.evaluationName()}`);
    }
    this.fileNetwork = r.value;
    this.fileNote = '';
    return ok(this.selectEvaluation());
  }

  /**
   * Uses a network given as bytes (a page's fetch or file picker; the EvalFile
   * option reads files): Pikafish's format or Kirin's. A network that cannot be
   * used is refused with its error and the evaluation in use stays.
   */
  loadNetworkBytes(bytes: Uint8Array, name: string): Result<string, EvalNetworkCode> {
    const r = evalNetworkFromBytes(bytes, name);
    if (!r.ok) return r;
    this.fileNetwork = r.value;
    this.fileNote = this.fileError = '';
    return ok(this.selectEvaluation());
  }

  /** Which evaluation plays, with the network file and its description. */
  evaluationName(): string {
    return this.network ? `NNUE ${this.network.label()}, ${this.evaluator?.kernels.name} kernels` : 'classical';
  }

  /**
   * The win-rate model behind `score cp` and `wdl`: Pikafish's, fitted for its
   * network, while a network plays; the classical evaluation's own otherwise
   * (score.ts). Output only: the search never converts scores.
   */
  winRateModel(): WinRateModel {
    // Kirin's networks learn scores on the classical evaluation's scale.
    return this.network && !isKirinNetwork(this.network) ? PIKAFISH_WIN_RATE : CLASSICAL_WIN_RATE;
  }

  /** The line shown on uci/isready: which evaluation plays, or why the classical one does. */
  evaluationStatus(): string {
    return this.evalStatus;
  }

  /** The evaluation trace of the current position (`eval`). */
  traceEval(): string {
    if (!this.network || !this.evaluator) return traceClassical(this.pos);
    return traceNetwork(this.pos, this.evaluator);
  }

  // ---- Opening book ------------------------------------------------------------

  /** The book in use: the file BookFile names, else Kirin's default book; null when there is none. */
  private currentBook(): OpeningBook | null {
    if (this.book !== undefined) return this.book;
    const file = this.options.getString('BookFile');
    if (file !== '') return this.book ?? null;
    const bytes = readEmbeddedBook();
    if (!bytes) {
      this.bookProblem = 'this build has no default book';
      this.book = null;
      return null;
    }
    const r = OpeningBook.fromBytes(bytes, DEFAULT_BOOK_NAME);
    this.book = r.ok ? r.value : null;
    this.bookProblem = r.ok ? '' : r.error.message;
    return this.book;
  }

  /** One line: the book in use, or why there is none. */
  bookStatus(): string {
    const book = this.currentBook();
    if (book) return `opening book ${book.label()}`;
    return `ERROR: no opening book (${this.bookProblem}); the engine plays without one`;
  }

  /**
   * setoption BookFile: reads the file and plays from it; an empty value goes
   * back to Kirin's default book. A file that cannot be read or is damaged is
   * refused with its error (naming the byte offset) and the book in use stays.
   */
  private loadBookFile(file: string): OptionChange {
    if (file === '') {
      this.book = undefined;
      return ok(this.bookStatus());
    }
    const bytes = readBookFile(file);
    const r = bytes.ok ? OpeningBook.fromBytes(bytes.value, file) : bytes;
    if (!r.ok) {
      const current = this.book === undefined ? this.currentBook() : this.book;
      return err('option-rejected', `${r.error.message}; the book stays: ${current ? current.label() : 'none'}`);
    }
    this.book = r.value;
    this.bookProblem = '';
    return ok(this.bookStatus());
  }

  /**
   * Uses an opening book given as bytes (a page's fetch or file picker; the
   * BookFile option reads files). A damaged book is refused with its error and
   * the book in use stays.
   */
  loadBookBytes(bytes: Uint8Array, name: string): Result<string, BookLoadCode> {
    const r = OpeningBook.fromBytes(bytes, name);
    if (!r.ok) return r;
    this.book = r.value;
    this.bookProblem = '';
    return ok(this.bookStatus());
  }

  /** The current position's book moves (whether or not OwnBook is on), heaviest first; none without a book. */
  bookMoves(): BookMove[] {
    return this.currentBook()?.probe(this.pos) ?? [];
  }

  /**
   * The book move a search with these limits plays at once, or null: OwnBook
   * on, fewer than Book Depth moves of each side played since the game's
   * first position (fewer at a weakened level: bookUseAtLevel), a `go` that
   * wants a move (not infinite, ponder, mate or searchmoves), and a book move
   * for the position (Book Variety picks).
   */
  private bookMoveFor(limits: SearchLimits): BookMove | null {
    const o = this.options;
    if (!o.getBool('OwnBook') || limits.infinite || limits.ponder || limits.mate !== undefined) return null;
    if (limits.searchmoves?.length) return null;
    // A weakened engine plays less of the book, and less of the masters' choice (bookUseAtLevel).
    const level = new Skill(o.getNumber('Skill Level'), o.getBool('UCI_LimitStrength'), o.getNumber('UCI_Elo')).level;
    const use = bookUseAtLevel(level, o.getNumber('Book Depth'), o.getNumber('Book Variety'));
    if (this.pos.plies >= 2 * use.depth) return null;
    return this.currentBook()?.choose(this.pos, use.variety, this.random, use.sharpness) ?? null;
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
      threads: this.options.getNumber('Threads'),
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
      const net = this.network ? networkHandle(this.network) : null;
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

  /** The shared table of the current Hash size (allocated at the first need; 16 MB when the size cannot be had). */
  private tableBuffer(): ArrayBufferLike {
    if (this.ttBuffer) return this.ttBuffer;
    const mb = this.options.getNumber('Hash');
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
  private resizeHash(mb: number): void {
    void mb;
    this.ttBuffer = null;
    if (!this.workers.length) return;
    const buffer = this.tableBuffer();
    for (const w of this.workers) w.postMessage({ type: 'tt', buffer } satisfies ToWorker);
  }

  /**
   * setoption Threads: the pool grows or shrinks to the new count. A search in
   * progress keeps its threads; later searches use the new count. Retired
   * threads end once no search runs.
   */
  private resizeThreads(n: number): void {
    if (!this.workers.length) return; // the pool starts with the first search
    this.network?.ensureSlots(n + 1);
    // New helpers warm up (and isready waits for them) while no search has begun.
    const early = !this.searched && Atomics.load(this.warmupAbort, 0) === 0;
    while (this.workers.length < n) this.spawnWorker(this.workers.length, early);
    if (this.workers.length > n) {
      const retired = this.workers.splice(n);
      void this.waitIdle().then(() => {
        for (const w of retired) void w.terminate();
      });
    }
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
    if (this.network) w.postMessage({ type: 'net', net: networkHandle(this.network) } satisfies ToWorker);
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
    this.network?.ensureSlots(n + 1);
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
    const book = this.bookMoveFor(limits);
    if (book) {
      const name = (this.book as OpeningBook).name;
      const score = book.games > 0 ? Math.round((100 * (book.wins + book.draws / 2)) / book.games) : 50;
      listener.text?.(
        `book move ${book.uci} from ${name} (weight ${Math.round(100 * book.share)}%, ${book.games} games, scored ${score}%)`,
      );
      // The reply the book expects, for a GUI that ponders.
      const next = this.pos.clone();
      next.doMove(book.move);
      const reply = this.book?.probe(next)[0];
      return Promise.resolve({
        bestMove: book.move,
        ponderMove: reply?.move ?? MOVE_NONE,
        score: 0,
        nodes: 0,
        depth: 0,
        book: true,
      });
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
