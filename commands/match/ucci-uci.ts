#!/usr/bin/env node
// A UCCI engine (ElephantEye, or Kirin in UCCI mode) presented as a UCI
// engine on stdin/stdout, for Kirin's match runner and UCI GUIs.
//
//   node dist/commands/match/ucci-uci.js [--option NAME=VALUE ...] -- <engine command and arguments>
//
// The protocol mapping (docs/ANCHORS.md has the whole table):
// - `uci`: the engine was sent `ucci` at start; its `id name`/`id author` and
//   `option` lines come back in UCI form and `ucciok` becomes `uciok`.
//   `hashsize` is shown as Hash and `threads` as Threads; an engine without a
//   threads option gets `Threads` fixed at 1 (ElephantEye has one thread).
//   `usemillisec` is not shown: the adapter sets it (times in ms); without it
//   the times go in seconds, as UCCI says. --option lines are sent after `ucciok`.
// - `setoption name Hash value 16` -> `setoption hashsize 16`, and so on;
//   `ucinewgame` -> `setoption newgame` when the engine has that button, else nothing.
// - `position startpos|fen ... [moves ...]` is checked by Kirin's rules core
//   (the squares are the same: files a-i, ranks 0-9 from Red's side) and
//   passed on; a list longer than UCCI engines hold (ElephantEye: 1024) is
//   rebased on the FEN of a later position.
// - `go`: depth, nodes, movetime (`time t movestogo 1`), the clock
//   (`time/increment/opptime/oppincrement` or `movestogo` for the side to
//   move), infinite, ponder; searchmoves becomes `banmoves` (the other legal
//   moves). One limit is used, the first of depth, nodes, movetime, clock.
// - `bestmove m [ponder p] [draw|resign]` -> `bestmove m [ponder p]` (the
//   offer goes to an `info string`); `nobestmove` -> see below.
// - `info depth d score x pv ...` -> `info depth d score cp x pv ...`, with
//   |x| > 9900 as `score mate` (ElephantEye's MATE_VALUE 10000 minus plies).
//   ElephantEye's book lines (`info depth 0 score <weight> pv <move>`) become
//   `info string book ...` so that book weights are not read as scores.
// - ElephantEye answers `nobestmove` in positions it judges drawn (its own
//   50-move rule, three repetitions, no attacking pieces left); the match
//   rules may disagree (Kirin plays the 60-move rule). The adapter then asks
//   once more with the current position as a bare FEN (no history) and plays
//   that answer; `bestmove (none)` only when that fails too.
// - `stop`, `ponderhit`, `isready`, `quit` pass; a `bestmove` that UCI must
//   hold back (go infinite / go ponder) waits for `stop` or `ponderhit`.

import { err, legalMoves, moveToUci, ok, playUciMoves, Position, RED, type Color, type Result } from '../../src/dev.js';
import { checkCommandText } from '../../src/core/command-text.js';
import { runRelay, spawnEndpoint, type RelayIO } from './relay.js';
import {
  commandSpec,
  nameValueOptions,
  readCommandLine,
  reportCommandLine,
  type CommandLineCode,
} from '../../toolkit/command-line.js';
import { isMain } from '../../toolkit/script.js';

/** Moves a `position` command may carry before it is rebased on a FEN (ElephantEye reads at most 1024). */
export const MAX_UCCI_MOVES = 1000;
/** Moves kept after the FEN when a list is rebased (repetitions are still seen). */
export const REBASE_KEEP = 200;
/** ElephantEye's MATE_VALUE; scores beyond MATE_LIMIT are mates (its perpetual-check scores stay below). */
const MATE_VALUE = 10000;
const MATE_LIMIT = 9900;

export interface AdapterArgs {
  /** Options from --option NAME=VALUE, in order (UCI or UCCI names). */
  options: Array<[string, string]>;
  command: string;
  args: string[];
}

const USAGE = 'usage: ucci-uci.js [--option NAME=VALUE ...] -- <UCCI engine command> [arguments ...]';

const SPEC = commandSpec({
  name: 'ucci-uci',
  usage: USAGE,
  options: { option: { type: 'string', short: 'o', multiple: true } },
  positionals: {},
});

/**
 * Parses the adapter's command line (without node and the script): its options,
 * then the engine command (after `--`, or from the first word that is not an
 * option) with the engine's own arguments, which are not read here.
 */
export function parseArgs(argv: readonly string[]): Result<AdapterArgs, CommandLineCode> {
  // The adapter's own part ends at `--` or at the engine command.
  let end = 0;
  while (end < argv.length && argv[end] !== '--' && argv[end].startsWith('-'))
    end += argv[end] === '--option' || argv[end] === '-o' ? 2 : 1;
  end = Math.min(end, argv.length);
  const engineAt = argv[end] === '--' ? end + 1 : end;
  const cl = readCommandLine(argv.slice(0, end), SPEC);
  if (!cl.ok) return cl;
  const options = nameValueOptions(cl.value.values, 'option');
  if (!options.ok) return options;
  if (engineAt >= argv.length) return err('arguments', 'no engine command given');
  return ok({ options: options.value, command: argv[engineAt], args: argv.slice(engineAt + 1) });
}

/** An option the engine declared in UCCI, and how the GUI sees it. */
export interface UcciOption {
  /** The engine's (UCCI) name. */
  ucci: string;
  /** The name shown in UCI. */
  uci: string;
  type: string;
  /** The UCI `option name ...` line. */
  line: string;
}

/** UCCI option names with a standard UCI name. */
const UCI_NAMES: Record<string, string> = { hashsize: 'Hash', threads: 'Threads' };

/** Reads an `option <name> type <type> [min ..] [max ..] [var ..] [default ..]` line; null if it is not one. */
export function parseUcciOption(line: string): UcciOption | null {
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'option' || words.length < 4 || words[2] !== 'type') return null;
  const ucci = words[1];
  const type = words[3];
  const uci = UCI_NAMES[ucci.toLowerCase()] ?? ucci;
  let min: string | null = null;
  let max: string | null = null;
  let def: string | null = null;
  const vars: string[] = [];
  for (let i = 4; i < words.length; i++) {
    const w = words[i];
    if (w === 'min' && i + 1 < words.length) min = words[++i];
    else if (w === 'max' && i + 1 < words.length) max = words[++i];
    else if (w === 'var' && i + 1 < words.length) vars.push(words[++i]);
    else if (w === 'default') {
      // A string's default runs to the end of the line (a path may hold spaces); other defaults are one word.
      if (type === 'string') {
        def = words.slice(i + 1).join(' ');
        break;
      }
      if (i + 1 < words.length) def = words[++i];
    }
  }
  let out = `option name ${uci} type ${type}`;
  if (type !== 'button') out += ` default ${def === null || def === '' ? (type === 'string' ? '<empty>' : '') : def}`;
  if (min !== null) out += ` min ${min}`;
  if (max !== null) out += ` max ${max}`;
  for (const v of vars) out += ` var ${v}`;
  return { ucci, uci, type, line: out.replace(/\s+$/, '') };
}

/** UCI `info` line for a UCCI `info` line, or null to drop it. */
export function translateInfo(line: string): string | null {
  const words = line.trim().split(/\s+/);
  if (words[1] === 'string') return line.trim();
  // ElephantEye's book moves: `info depth 0 score <weight> pv <move>` - a weight, not a score.
  if (words[1] === 'depth' && words[2] === '0' && words[3] === 'score' && words[5] === 'pv' && words.length === 7)
    return `info string book move ${words[6]} weight ${words[4]}`;
  const k = words.indexOf('score');
  if (k >= 0 && k + 1 < words.length && /^-?\d+$/.test(words[k + 1])) {
    const v = Number(words[k + 1]);
    if (Math.abs(v) > MATE_LIMIT && Math.abs(v) <= MATE_VALUE) {
      const plies = MATE_VALUE - Math.abs(v);
      const moves = Math.max(1, Math.ceil(plies / 2));
      words.splice(k + 1, 1, 'mate', String(v > 0 ? moves : -moves));
    } else {
      words.splice(k + 1, 0, 'cp');
    }
  }
  return words.join(' ');
}

/** The UCI `go` parameters the adapter reads. */
export interface UciGo {
  wtime: number | null;
  btime: number | null;
  winc: number;
  binc: number;
  movestogo: number;
  movetime: number;
  depth: number;
  nodes: number;
  infinite: boolean;
  ponder: boolean;
  searchmoves: string[];
}

export type GoErrorCode = 'go-syntax';

const GO_NUMBERS = new Set(['wtime', 'btime', 'winc', 'binc', 'movestogo', 'movetime', 'depth', 'nodes', 'mate']);

/** Parses `go ...` (UCI). */
export function parseUciGo(line: string): Result<UciGo, GoErrorCode> {
  const words = line.trim().split(/\s+/);
  const g: UciGo = {
    wtime: null,
    btime: null,
    winc: 0,
    binc: 0,
    movestogo: 0,
    movetime: 0,
    depth: 0,
    nodes: 0,
    infinite: false,
    ponder: false,
    searchmoves: [],
  };
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === 'infinite') g.infinite = true;
    else if (w === 'ponder') g.ponder = true;
    else if (w === 'searchmoves') {
      while (i + 1 < words.length && /^[a-i][0-9][a-i][0-9]$/.test(words[i + 1])) g.searchmoves.push(words[++i]);
    } else if (GO_NUMBERS.has(w)) {
      const v = words[i + 1];
      if (v === undefined || !/^-?\d+$/.test(v)) return err('go-syntax', `go: ${w} needs a number`);
      const n = Number(words[++i]);
      if (w === 'wtime') g.wtime = n;
      else if (w === 'btime') g.btime = n;
      else if (w === 'winc') g.winc = n;
      else if (w === 'binc') g.binc = n;
      else if (w === 'movestogo') g.movestogo = n;
      else if (w === 'movetime') g.movetime = n;
      else if (w === 'depth') g.depth = n;
      else if (w === 'nodes') g.nodes = n;
      // mate: UCCI has no mate search; the search runs without it (as infinite unless another limit is given).
    } else return err('go-syntax', `go: unknown parameter ${w}`);
  }
  return ok(g);
}

/**
 * The UCCI `go` for a UCI one, with the side to move (whose clock is `time`)
 * and the unit (ms when the engine took `usemillisec`, else seconds).
 * `hold`: UCI wants the bestmove only after stop/ponderhit.
 */
export function goToUcci(g: UciGo, side: Color, millis: boolean): { line: string; hold: boolean } {
  const t = (ms: number): number => (millis ? Math.max(0, Math.round(ms)) : Math.max(0, Math.floor(ms / 1000)));
  let s = g.ponder ? 'go ponder' : 'go';
  const mine = side === RED ? g.wtime : g.btime;
  const theirs = side === RED ? g.btime : g.wtime;
  const inc = side === RED ? g.winc : g.binc;
  const oppInc = side === RED ? g.binc : g.winc;
  let limited = true;
  if (g.depth > 0) s += ` depth ${g.depth}`;
  else if (g.nodes > 0) s += ` nodes ${g.nodes}`;
  else if (g.movetime > 0) s += ` time ${t(g.movetime)} movestogo 1`;
  else if (mine !== null) {
    s += ` time ${t(mine)}`;
    s += g.movestogo > 0 ? ` movestogo ${g.movestogo}` : ` increment ${t(inc)}`;
    if (theirs !== null) {
      s += ` opptime ${t(theirs)}`;
      s += g.movestogo > 0 ? ` oppmovestogo ${g.movestogo}` : ` oppincrement ${t(oppInc)}`;
    }
  } else {
    s += ' infinite';
    limited = false;
  }
  return { line: s, hold: g.ponder || g.infinite || !limited };
}

/** The adapter's state machine: feed it GUI lines and engine lines; it writes through `io`. */
export interface UcciAdapter {
  /** Lines to send to the engine at start. */
  startup: string[];
  fromGui(line: string, io: RelayIO): void;
  fromEngine(line: string, io: RelayIO): void;
}

interface Search {
  go: UciGo;
  t0: number;
  hold: boolean;
  stopSent: boolean;
  retried: boolean;
  held: string | null;
}

export function createUcciAdapter(
  userOptions: ReadonlyArray<[string, string]> = [],
  now = () => Date.now(),
): UcciAdapter {
  let booted = false; // ucciok seen
  let uciAsked = false; // the GUI sent uci and waits for uciok
  const handshake: string[] = []; // id and option lines in UCI form
  const options = new Map<string, UcciOption>(); // lower-case UCI name -> option
  const byUcci = new Map<string, UcciOption>(); // lower-case UCCI name -> option
  let millis = false;
  const queue: string[] = []; // GUI lines waiting for ucciok or a sync
  let syncing = false; // waiting for the readyok of our own isready (after a stop)
  let pos = new Position();
  let positionCmd = 'position startpos';
  let banned = false;
  let search: Search | null = null;

  const info = (io: RelayIO, text: string): void => io.toGui(`info string ${text}`);
  const error = (io: RelayIO, text: string): void => io.toGui(`info string ERROR: ${text}`);

  const sendUciHandshake = (io: RelayIO): void => {
    for (const l of handshake) io.toGui(l);
    io.toGui('uciok');
  };

  const setOption = (io: RelayIO, name: string, value: string | null): void => {
    const key = name.toLowerCase();
    const opt = options.get(key) ?? byUcci.get(key);
    if (!opt || opt.ucci.toLowerCase() === 'usemillisec') {
      if (key === 'threads') {
        if (value !== null && value.trim() !== '1') error(io, `Threads: this engine has one thread; ${value} ignored`);
        return;
      }
      error(io, `unknown option ${name}; ignored`);
      return;
    }
    const text = checkCommandText(`option ${opt.uci} value`, value ?? '');
    if (!text.ok) error(io, text.error.message);
    else if (opt.type === 'button') io.toEngine(`setoption ${opt.ucci}`);
    else if (value === null) error(io, `option ${name} needs a value`);
    else io.toEngine(`setoption ${opt.ucci} ${value}`);
  };

  const positionLine = (line: string, io: RelayIO): void => {
    const m = /^position\s+(startpos|fen\s+(.*?))(?:\s+moves(?:\s+(.*))?)?$/.exec(line);
    if (!m) {
      error(io, `bad position command: ${line}`);
      return;
    }
    const fen = m[1] === 'startpos' ? null : m[2];
    const moves = m[3] ? m[3].trim().split(/\s+/) : [];
    const start = fen === null ? ok(new Position()) : Position.fromFen(fen);
    if (!start.ok) {
      error(io, `bad FEN in position: ${start.error.message}`);
      return;
    }
    const p = start.value;
    const base = fen === null ? 'position startpos' : `position fen ${fen}`;
    let head = base;
    let tail = moves;
    if (moves.length > MAX_UCCI_MOVES) {
      const cut = moves.length - REBASE_KEEP;
      const r = playUciMoves(p, moves.slice(0, cut));
      if (!r.ok) {
        error(io, `position: ${r.error.message}`);
        return;
      }
      // A half-move counter past the 60-move rule (only outside the match rules) is clamped: FEN readers refuse it.
      head = `position fen ${p.fen().replace(/ (\d+) (\d+)$/, (_, h: string, f: string) => ` ${Math.min(Number(h), 119)} ${f}`)}`;
      tail = moves.slice(cut);
    }
    const r = playUciMoves(p, tail);
    if (!r.ok) {
      error(io, `position: ${r.error.message}`);
      return;
    }
    pos = p;
    positionCmd = tail.length ? `${head} moves ${tail.join(' ')}` : head;
    banned = false;
    io.toEngine(positionCmd);
  };

  const startSearch = (io: RelayIO, g: UciGo, retry: boolean): void => {
    if (g.searchmoves.length) {
      const allowed = new Set(g.searchmoves);
      const ban = legalMoves(pos)
        .map(moveToUci)
        .filter((m) => !allowed.has(m));
      if (ban.length) {
        io.toEngine(`banmoves ${ban.join(' ')}`);
        banned = true;
      }
    } else if (banned) {
      io.toEngine(positionCmd); // a new position forgets the banned moves
      banned = false;
    }
    const { line, hold } = goToUcci(g, pos.side, millis);
    if (!retry) search = { go: g, t0: now(), hold, stopSent: false, retried: false, held: null };
    io.toEngine(line);
  };

  const endSearch = (io: RelayIO, line: string): void => {
    const s = search;
    search = null;
    io.toGui(line);
    if (s?.stopSent) {
      // A stop that crossed the answer would give a stray nobestmove: wait for the engine to be idle.
      syncing = true;
      io.toEngine('isready');
    }
  };

  const answer = (io: RelayIO, line: string): void => {
    const s = search;
    if (!s) return;
    if (s.hold && !s.stopSent) s.held = line;
    else endSearch(io, line);
  };

  const handle = (line: string, io: RelayIO): void => {
    const cmd = line.split(/\s+/, 1)[0];
    switch (cmd) {
      case 'uci':
        sendUciHandshake(io);
        return;
      case 'isready':
        io.toEngine('isready');
        return;
      case 'setoption': {
        const m = /^setoption\s+name\s+(.*?)(?:\s+value\s+(.*))?$/s.exec(line);
        if (!m) error(io, `bad setoption command: ${line}`);
        else setOption(io, m[1], m[2] === undefined ? null : m[2]);
        return;
      }
      case 'ucinewgame':
        if (byUcci.get('newgame')?.type === 'button') io.toEngine('setoption newgame');
        return;
      case 'position':
        if (search) {
          error(io, 'position while searching; ignored');
          return;
        }
        positionLine(line, io);
        return;
      case 'go': {
        if (search) {
          error(io, 'go while searching; ignored');
          return;
        }
        const g = parseUciGo(line);
        if (!g.ok) {
          error(io, g.error.message);
          return;
        }
        startSearch(io, g.value, false);
        return;
      }
      case 'stop':
        if (!search) return;
        if (search.held !== null) {
          endSearch(io, search.held);
          return;
        }
        if (!search.stopSent) {
          search.stopSent = true;
          io.toEngine('stop');
        }
        return;
      case 'ponderhit':
        if (!search || !search.go.ponder) return;
        search.go.ponder = false;
        if (search.held !== null) {
          endSearch(io, search.held);
          return;
        }
        search.hold = search.go.infinite;
        io.toEngine('ponderhit');
        return;
      case 'quit':
        io.toEngine('quit');
        return;
      case 'debug':
      case 'register':
        return;
      default:
        error(io, `unknown command: ${line}`);
    }
  };

  const flush = (io: RelayIO): void => {
    while (queue.length && booted && !syncing) handle(queue.shift()!, io);
  };

  return {
    startup: ['ucci'],
    fromGui(line, io) {
      if (line === 'uci') {
        if (booted) sendUciHandshake(io);
        else uciAsked = true;
        return;
      }
      if (line === 'quit') {
        io.toEngine('quit');
        return;
      }
      if (!booted || syncing) {
        queue.push(line);
        return;
      }
      handle(line, io);
    },
    fromEngine(raw, io) {
      const line = raw.trim();
      if (!line) return;
      const cmd = line.split(/\s+/, 1)[0];
      if (!booted) {
        if (line.startsWith('id ')) {
          // UCI knows `id name` and `id author`; ElephantEye's `id copyright`/`id user` are left out.
          if (/^id\s+(name|author)\s/.test(line)) handshake.push(line);
          return;
        }
        if (cmd === 'option') {
          const o = parseUcciOption(line);
          if (!o) return;
          byUcci.set(o.ucci.toLowerCase(), o);
          if (o.ucci.toLowerCase() === 'usemillisec') {
            millis = true;
            return;
          }
          options.set(o.uci.toLowerCase(), o);
          handshake.push(o.line);
          return;
        }
        if (cmd === 'ucciok') {
          booted = true;
          if (!byUcci.has('threads')) handshake.push('option name Threads type spin default 1 min 1 max 1');
          if (millis) io.toEngine('setoption usemillisec true');
          for (const [k, v] of userOptions) setOption(io, k, v);
          if (uciAsked) sendUciHandshake(io);
          flush(io);
          return;
        }
        if (cmd === 'info') {
          const t = translateInfo(line);
          if (t !== null) io.toGui(t);
        } else io.toGui(`info string ${line}`);
        return;
      }
      switch (cmd) {
        case 'readyok':
          if (syncing) {
            syncing = false;
            flush(io);
          } else io.toGui('readyok');
          return;
        case 'bestmove': {
          if (!search) return; // an answer to a stop that crossed it
          const w = line.split(/\s+/);
          let out = `bestmove ${w[1] ?? '(none)'}`;
          const k = w.indexOf('ponder');
          if (k > 0 && w[k + 1]) out += ` ponder ${w[k + 1]}`;
          if (w.includes('resign')) info(io, 'the engine resigns (the game goes on)');
          else if (w.includes('draw')) info(io, 'the engine offers a draw (the game goes on)');
          answer(io, out);
          return;
        }
        case 'nobestmove': {
          const s = search;
          if (!s) return;
          if (!s.retried && !s.stopSent && legalMoves(pos).length > 0) {
            // The engine declines to move (it judges the position drawn by its own rules): ask again without the history.
            s.retried = true;
            info(io, 'the engine gave no move; asking again from the bare FEN of this position');
            const g = { ...s.go };
            const used = now() - s.t0;
            if (pos.side === RED && g.wtime !== null) g.wtime = Math.max(1, g.wtime - used);
            if (pos.side !== RED && g.btime !== null) g.btime = Math.max(1, g.btime - used);
            if (g.movetime > 0) g.movetime = Math.max(1, g.movetime - used);
            positionCmd = `position fen ${pos.fen()}`;
            io.toEngine(positionCmd);
            banned = false;
            startSearch(io, g, true);
            return;
          }
          answer(io, 'bestmove (none)');
          return;
        }
        case 'info': {
          const t = translateInfo(line);
          if (t !== null) io.toGui(t);
          return;
        }
        case 'bye':
        case 'pophash':
          return;
        default:
          io.toGui(`info string ${line}`);
      }
    },
  };
}

function main(): void {
  const a = parseArgs(process.argv.slice(2));
  if (!a.ok) process.exit(reportCommandLine(SPEC, a.error));
  const adapter = createUcciAdapter(a.value.options);
  runRelay({
    engine: spawnEndpoint(a.value.command, a.value.args, 'ucci-uci'),
    startup: adapter.startup,
    fromGui: adapter.fromGui,
    fromEngine: adapter.fromEngine,
  });
}

if (isMain(import.meta.url)) main();
