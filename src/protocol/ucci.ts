// UCCI, the Chinese-chess engine protocol of the ElephantEye era (xqbase.com,
// "Universal Chinese Chess Protocol" 3.0). `ucci` as the first command switches a
// session to it; anything else is UCI (src/protocol/uci.ts).
//
// This layer is thin: every UCCI line is translated into the UCI line that means
// the same and handed to the same Uci object (same Engine, same go/stop race
// handling), and the UCI replies are translated back:
//   ucci                         -> id/option lines in UCCI syntax, ucciok
//   setoption <name> [<value>]   -> setoption name <Kirin name> value <value>
//   position ... / isready       -> the same
//   banmoves m1 m2 ...           -> remembered until the next position; a go then
//                                   searches the legal moves minus the banned ones
//                                   (go ... searchmoves ...)
//   go [ponder|draw] time t [movestogo n|increment i] [opptime o [oppmovestogo n|oppincrement i]]
//                                -> go wtime/btime/winc/binc/movestogo (t, o for the side to
//                                   move and the other; seconds unless usemillisec)
//   go depth d | nodes n | infinite -> the same; go depth 0 -> nobestmove
//   stop, ponderhit [draw]       -> the same (acting when read); stop while idle -> nobestmove
//   probe <position>             -> position facts and `pophash`
//   quit                         -> bye
//   bestmove m [ponder p]        -> bestmove m [ponder p] [draw|resign]
//   bestmove (none)              -> nobestmove
//   info depth .. score cp s .. pv ..  -> info depth d score s pv ..  + info time t nodes n
// docs/UCCI.md has the whole mapping.

import { Position } from '../core/position.js';
import { formatJudgement, judge } from '../core/rules.js';
import { legalMoves } from '../core/movegen.js';
import { moveToUci, RED, type Move } from '../core/types.js';
import { parseLegalMove, playUciMoves } from '../core/ucimove.js';
import { START_FEN } from '../core/fen.js';
import { checkCommandFields } from '../core/command-text.js';
import { err, ok, type Result } from '../core/result.js';
import type { Engine } from '../engine/engine.js';
import type { OptionInfo } from '../engine/options.js';
import { ENGINE_AUTHOR, ENGINE_NAME, engineVersion } from '../engine/version.js';
import { parseGo } from './go.js';
import { echo, runSession, Uci, type Received, type Session, type Writer } from './uci.js';

/** Resign when the search found itself mated, or this far behind (centipawns, the ScoreType scale)... */
const RESIGN_CP = -900;
/** ...at this depth or deeper (a shallow search must not give a game away). */
const RESIGN_MIN_DEPTH = 8;
/** A draw offered by the GUI (`go draw`, `ponderhit draw`) is accepted when the score is at most this. */
const DRAW_ACCEPT_CP = 0;
/** A mate score in UCCI's plain `score` (ElephantEye's MATE_VALUE): mate in N plies = ±(UCCI_MATE - N). */
const UCCI_MATE = 10000;

/** Kirin's options under UCCI names (one lower-case word): the UCCI-standard ones first. */
const RENAMED: Readonly<Record<string, string>> = Object.freeze({
  hash: 'hashsize',
  threads: 'threads',
  ponder: 'ponder',
  ownbook: 'usebook',
  bookfile: 'bookfiles',
});

/** The UCCI name of a Kirin option. */
export function ucciName(kirinName: string): string {
  const lower = kirinName.toLowerCase();
  return RENAMED[lower] ?? lower.replace(/[^a-z0-9_]/g, '');
}

/** UCCI `randomness` grades and the Skill Level each one sets. */
const RANDOMNESS: Readonly<Record<string, number>> = Object.freeze({
  none: 20,
  tiny: 16,
  small: 12,
  medium: 8,
  large: 4,
  huge: 0,
});

/** One search asked for by a `go` line (created when the line is read). */
interface SearchContext {
  /** The GUI offers a draw (`go draw` or `ponderhit draw`). */
  drawOffered: boolean;
  /** The last exact score reported: centipawns, or mate in moves (signed). */
  cp: number | null;
  mate: number | null;
  depth: number;
  /** Set when the `go` line is handled (its search is then queued or running). */
  started: boolean;
  /** Set when the `go` was refused or answered without a search. */
  dropped: boolean;
}

function firstToken(line: string): string {
  const m = /^\s*(\S+)/.exec(line);
  return m ? m[1] : '';
}

function tokensOf(line: string): string[] {
  return line
    .trim()
    .split(/\s+/)
    .filter((t) => t.length > 0);
}

/** The UCCI `option` lines for Kirin's options. */
function ucciOptionLines(options: readonly OptionInfo[]): string[] {
  const lines = ['option usemillisec type check default false', 'option batch type check default false'];
  lines.push('option debug type check default false');
  for (const o of options) {
    if (o.name === 'Clear Hash' || o.name === 'Debug Log File') continue;
    const name = ucciName(o.name);
    let s = `option ${name} type ${o.type}`;
    if (o.type === 'spin') s += ` min ${name === 'hashsize' ? 0 : o.min} max ${o.max}`;
    if (o.type === 'combo') for (const v of o.vars ?? []) s += ` var ${v}`;
    if (o.type !== 'button') {
      const d = o.default ?? '';
      s += ` default ${o.type === 'string' && d === '' ? '<empty>' : String(d)}`;
    }
    lines.push(s);
  }
  lines.push('option randomness type combo var none var tiny var small var medium var large var huge default none');
  lines.push('option newgame type button');
  lines.push('option clearhash type button');
  return lines;
}

class Ucci implements Session {
  private readonly uci: Uci;
  private usemillisec = false;
  private batch = false;
  private debug = false;
  private banned: string[] = [];
  /** Searches asked for and not yet answered, oldest first (the search thread runs them in this order). */
  private readonly searches: SearchContext[] = [];
  /** The context of the `go` being handled by the Uci object right now. */
  private current: SearchContext | null = null;

  constructor(
    readonly engine: Engine,
    private readonly write: Writer,
  ) {
    this.uci = new Uci(engine, (line) => this.fromUci(line));
  }

  // ---- Replies: UCI -> UCCI ---------------------------------------------------

  private fromUci(line: string): void {
    if (line.startsWith('bestmove ')) {
      this.bestmove(line);
      return;
    }
    if (line.startsWith('info ') && / score /.test(line) && / pv /.test(line)) {
      this.info(line);
      return;
    }
    if (line.startsWith('info depth ')) return; // bounds, currmove lines: not UCCI
    if (line.startsWith('info string ERROR: ') && this.current) this.current.dropped = true;
    this.write(line);
  }

  private info(line: string): void {
    const t = line.split(' ');
    const field = (k: string): string | undefined => {
      const i = t.indexOf(k);
      return i >= 0 ? t[i + 1] : undefined;
    };
    if (t.includes('lowerbound') || t.includes('upperbound')) return;
    const depth = Number(field('depth'));
    const si = t.indexOf('score');
    const kind = t[si + 1];
    const value = Number(t[si + 2]);
    let score: number;
    const ctx = this.searches[0];
    if (kind === 'mate') {
      const plies = value > 0 ? 2 * value - 1 : -2 * value;
      score = value > 0 ? UCCI_MATE - plies : -(UCCI_MATE - plies);
      if (ctx && field('multipv') === '1') {
        ctx.mate = value;
        ctx.cp = null;
        ctx.depth = depth;
      }
    } else {
      score = value;
      if (ctx && field('multipv') === '1') {
        ctx.cp = value;
        ctx.mate = null;
        ctx.depth = depth;
      }
    }
    const pv = t.slice(t.indexOf('pv') + 1).join(' ');
    this.write(`info time ${field('time')} nodes ${field('nodes')}`);
    this.write(`info depth ${depth} score ${score} pv ${pv}`);
  }

  private bestmove(line: string): void {
    const ctx = this.searches.shift();
    if (line === 'bestmove (none)') {
      this.write('nobestmove');
      return;
    }
    let s = line;
    if (ctx) {
      const lost = ctx.mate !== null && ctx.mate < 0;
      const hopeless = ctx.cp !== null && ctx.cp <= RESIGN_CP && ctx.depth >= RESIGN_MIN_DEPTH;
      const winning = ctx.mate !== null && ctx.mate > 0;
      if (lost || hopeless) s += ' resign';
      else if (ctx.drawOffered && !winning && ctx.cp !== null && ctx.cp <= DRAW_ACCEPT_CP) s += ' draw';
    }
    this.write(s);
  }

  // ---- Commands: UCCI -> UCI ----------------------------------------------------

  receive(line: string): Received {
    const cmd = firstToken(line);
    if (this.debug) this.write(`info string received: ${echo(line)}`);
    if (this.batch && (cmd === 'stop' || cmd === 'ponderhit')) {
      // Batch mode: nothing is read while the engine thinks; these wait their turn.
      return { readAt: Date.now() };
    }
    if (cmd === 'go') {
      const t = tokensOf(line);
      this.searches.push({
        drawOffered: t[1] === 'draw',
        cp: null,
        mate: null,
        depth: 0,
        started: false,
        dropped: false,
      });
      return this.uci.receive('go');
    }
    if (cmd === 'stop') {
      if (this.searches.length === 0) this.write('nobestmove');
      return this.uci.receive('stop');
    }
    if (cmd === 'ponderhit') {
      if (tokensOf(line)[1] === 'draw') for (const s of this.searches) s.drawOffered = true;
      return this.uci.receive('ponderhit');
    }
    if (cmd === 'quit') return this.uci.receive('quit');
    return { readAt: Date.now() };
  }

  handledOnRead(line: string): boolean {
    const cmd = firstToken(line);
    return !this.batch && (cmd === 'stop' || cmd === 'ponderhit');
  }

  isQuit(line: string): boolean {
    return firstToken(line) === 'quit';
  }

  stopAll(): void {
    this.uci.stopAll();
  }

  private error(text: string): void {
    this.write(`info string ERROR: ${text}`);
  }

  async command(line: string, received: Received): Promise<boolean> {
    const t = tokensOf(line);
    if (t.length === 0) return true;
    const [cmd, ...args] = t;
    if (this.batch && this.engine.searching()) await this.engine.waitIdle();
    switch (cmd) {
      case 'ucci':
        this.write(`id name ${ENGINE_NAME} ${engineVersion()}`);
        this.write(`id copyright GPL-3.0-or-later`);
        this.write(`id author ${ENGINE_AUTHOR}`);
        for (const l of ucciOptionLines(this.engine.options.list())) this.write(l);
        this.engine.warmup();
        this.write(`info string ${this.engine.evaluationStatus()}`);
        this.write('ucciok');
        return true;
      case 'isready':
        return this.uci.command('isready');
      case 'setoption':
        this.setoption(line.trim().replace(/^setoption\s*/, ''));
        return true;
      case 'position':
        this.banned = [];
        return this.uci.command(line.trim());
      case 'banmoves':
        this.banmoves(args);
        return true;
      case 'go':
        await this.go(args, received);
        return true;
      case 'stop':
        // Only in batch mode (otherwise acted on when read): the search has ended.
        if (this.searches.length === 0) this.write('nobestmove');
        return true;
      case 'ponderhit':
        return true;
      case 'probe':
        this.probe(args);
        return true;
      case 'quit':
        await this.engine.waitIdle();
        this.write('bye');
        return false;
      default:
        if (cmd.startsWith('#')) return true;
        this.error(`unknown UCCI command '${echo(line.trim())}'`);
        return true;
    }
  }

  private setoption(rest: string): void {
    const m = /^(\S+)(?:\s+(.*))?$/s.exec(rest);
    if (!m) {
      this.error(`malformed setoption; expected 'setoption <name> [<value>]'`);
      return;
    }
    const name = m[1].toLowerCase();
    const value = m[2]?.trim();
    // A name or value with a control character (a CR inside the line) is refused whole.
    const text = checkCommandFields([
      ['setoption name', m[1]],
      ['setoption value', value ?? ''],
    ]);
    if (!text.ok) {
      this.error(text.error.message);
      return;
    }
    const check = (): boolean | null => {
      const v = (value ?? '').toLowerCase();
      if (v === 'true' || v === 'on') return true;
      if (v === 'false' || v === 'off') return false;
      this.error(`setoption ${name} needs true/on or false/off, got '${echo(value ?? '')}'`);
      return null;
    };
    switch (name) {
      case 'usemillisec': {
        const v = check();
        if (v !== null) this.usemillisec = v;
        return;
      }
      case 'batch': {
        const v = check();
        if (v !== null) this.batch = v;
        return;
      }
      case 'debug': {
        const v = check();
        if (v !== null) this.debug = v;
        return;
      }
      case 'newgame':
        this.engine.newGame();
        return;
      case 'clearhash':
        this.setKirin('Clear Hash', undefined);
        return;
      case 'randomness': {
        const level = RANDOMNESS[(value ?? '').toLowerCase()];
        if (level === undefined) {
          this.error(`randomness must be one of ${Object.keys(RANDOMNESS).join(', ')}, got '${echo(value ?? '')}'`);
          return;
        }
        this.setKirin('Skill Level', String(level));
        return;
      }
      case 'hashsize':
        // 0 = "let the engine choose": the default size.
        this.setKirin('Hash', value === '0' ? '16' : value);
        return;
    }
    const opt = this.engine.options.list().find((o) => ucciName(o.name) === name && o.name !== 'Debug Log File');
    if (!opt) {
      this.error(`unknown option '${echo(name)}'; ignored`);
      return;
    }
    let v = value;
    if (opt.type === 'check') {
      const c = check();
      if (c === null) return;
      v = String(c);
    }
    this.setKirin(opt.name, v);
  }

  private setKirin(name: string, value: string | undefined): void {
    const r = this.engine.options.set(name, value);
    if (!r.ok) this.error(r.error.message);
    else if (r.value.message) this.write(`info string ${r.value.message}`);
  }

  private banmoves(args: string[]): void {
    const pos = this.engine.position();
    const banned: string[] = [];
    for (const a of args) {
      const m = parseLegalMove(pos, a);
      if (!m.ok) {
        this.error(`banmoves: ${m.error.message}; banned moves unchanged`);
        return;
      }
      banned.push(moveToUci(m.value));
    }
    this.banned = banned;
  }

  private async go(args: string[], received: Received): Promise<void> {
    const ctx = this.searches.find((s) => !s.started) ?? null;
    if (ctx) ctx.started = true;
    const drop = (): void => {
      if (ctx) this.searches.splice(this.searches.indexOf(ctx), 1);
    };
    const translated = ucciGoToUci(args, this.engine.position(), this.usemillisec, this.banned);
    if (!translated.ok) {
      drop();
      this.error(translated.error.message);
      return;
    }
    const uciArgs = translated.value;
    if (uciArgs === 'none') {
      drop();
      this.write('nobestmove');
      return;
    }
    // Refuse here what the UCI go would refuse (so that a refused go has no context left).
    const parsed = parseGo(uciArgs, received.readAt);
    if (!parsed.ok) {
      drop();
      this.error(parsed.error.message);
      return;
    }
    this.current = ctx;
    try {
      await this.uci.command(`go ${uciArgs.join(' ')}`, received);
    } finally {
      this.current = null;
    }
    if (ctx?.dropped) drop();
  }

  /** `probe <position>`: what Kirin knows about a position, without changing the engine's own. */
  private probe(args: string[]): void {
    let fen = START_FEN;
    let i = 1;
    if (args[0] === 'fen') {
      const end = args.indexOf('moves');
      fen = args.slice(1, end < 0 ? undefined : end).join(' ');
      i = end < 0 ? args.length : end;
    } else if (args[0] !== 'startpos') {
      this.error(`probe must be followed by 'startpos' or 'fen <fen>'`);
      return;
    }
    const pos = new Position(null);
    const set = pos.setFen(fen);
    if (!set.ok) {
      this.error(`probe: ${set.error.message}`);
      return;
    }
    const moves = args[i] === 'moves' ? args.slice(i + 1) : [];
    const played = playUciMoves(pos, moves);
    if (!played.ok) {
      this.error(`probe: ${played.error.message}`);
      return;
    }
    const legal: Move[] = legalMoves(pos);
    this.write(`info string probe: fen ${pos.fen()} key ${pos.keyHex()} legal moves ${legal.length}`);
    this.write(`info string probe: ${formatJudgement(judge(pos, this.engine.ruleConfig()))}`);
    // The transposition table lives in the search thread: nothing from it is reported.
    this.write('pophash');
  }
}

const GO_VALUES: readonly string[] = Object.freeze([
  'depth',
  'nodes',
  'time',
  'movestogo',
  'increment',
  'opptime',
  'oppmovestogo',
  'oppincrement',
  'movetime',
]);

/**
 * The UCI `go` arguments for the arguments of a UCCI `go` in position `pos`, or
 * 'none' when there is nothing to search (no legal move left, all banned, or
 * `depth 0`): the answer is then `nobestmove`. Times are seconds unless
 * `usemillisec`; `time`/`increment` belong to the side to move, `opptime`/
 * `oppincrement` to the other side; `oppmovestogo` is accepted and not used.
 * Without movestogo or increment the time is for the rest of the game.
 */
export function ucciGoToUci(
  args: readonly string[],
  pos: Position,
  usemillisec: boolean,
  banned: readonly string[],
): Result<string[] | 'none', 'unknown-token' | 'not-an-integer'> {
  const out: string[] = [];
  let i = 0;
  if (args[0] === 'ponder') {
    out.push('ponder');
    i++;
  } else if (args[0] === 'draw') i++;
  const unit = usemillisec ? 1 : 1000;
  const values: Record<string, string> = {};
  for (; i < args.length; i++) {
    const k = args[i];
    if (k === 'infinite') {
      values.infinite = '';
      continue;
    }
    if (!GO_VALUES.includes(k)) return err('unknown-token', `unknown 'go' parameter '${echo(k, 40)}'; no search`);
    const v = args[i + 1];
    if (v === undefined || !/^[+-]?\d+$/.test(v)) {
      return err(
        'not-an-integer',
        `'go ${k}' needs an integer value${v === undefined ? '' : `, got '${echo(v, 40)}'`}; no search`,
      );
    }
    values[k] = v;
    i++;
  }
  if (values.depth !== undefined && Number(values.depth) === 0) return ok('none');
  if (values.depth !== undefined) out.push('depth', values.depth);
  if (values.nodes !== undefined) out.push('nodes', values.nodes);
  const ms = (k: string): string => String(Math.round(Number(values[k]) * unit));
  if (values.movetime !== undefined) out.push('movetime', ms('movetime'));
  if (values.infinite !== undefined) out.push('infinite');
  if (values.time !== undefined) {
    const red = pos.side === RED;
    out.push(red ? 'wtime' : 'btime', ms('time'));
    if (values.increment !== undefined) out.push(red ? 'winc' : 'binc', ms('increment'));
    if (values.opptime !== undefined) out.push(red ? 'btime' : 'wtime', ms('opptime'));
    if (values.oppincrement !== undefined) out.push(red ? 'binc' : 'winc', ms('oppincrement'));
    if (values.movestogo !== undefined) out.push('movestogo', values.movestogo);
  }
  const legal = legalMoves(pos).map(moveToUci);
  if (banned.length > 0) {
    const allowed = legal.filter((m) => !banned.includes(m));
    if (allowed.length === 0) return ok('none');
    out.push('searchmoves', ...allowed);
  } else if (legal.length === 0) {
    return ok('none');
  }
  return ok(out);
}

/**
 * The command loop for stdin: the first non-blank line chooses the protocol
 * (`ucci`: UCCI, anything else: UCI), then runSession() reads the rest.
 */
export async function runProtocol(engine: Engine, lines: AsyncIterable<string>, write: Writer): Promise<void> {
  const it = lines[Symbol.asyncIterator]();
  const head: string[] = [];
  let ucci = false;
  let ended = false;
  for (;;) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    head.push(r.value);
    if (r.value.trim() !== '') {
      ucci = r.value.trim() === 'ucci';
      break;
    }
  }
  async function* all(): AsyncGenerator<string> {
    yield* head;
    if (ended) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  const session: Session = ucci ? new Ucci(engine, write) : new Uci(engine, write);
  await runSession(session, engine, all(), write);
}
