// Names the opening of a game by its ECCO code (A00-E99), with the opening's
// name and variation, as Chinese databases and game files do ([ECCO],
// [Opening], [Variation] tags). The classification looks at the first 20
// plies, written in WXF (ecco-rules.ts: the patterns, as data in a small rule
// language read here; ecco-names.ts: the names). docs/OPENINGS.md.

import { START_FEN } from '../core/fen.js';
import { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import {
  ADVISOR,
  BISHOP,
  BLACK,
  CANNON,
  FILE_OF,
  KING,
  KNIGHT,
  PAWN,
  RANK_OF,
  ROOK,
  colorOf,
  moveFrom,
  moveTo,
  typeOf,
  type Move,
} from '../core/types.js';
import { parseLegalMove, type MoveErrorCode } from '../core/ucimove.js';
import { ECCO_NAMES } from './ecco-names.js';
import { ECCO_RULES } from './ecco-rules.js';

/** An opening as the ECCO catalogue names it. */
export interface OpeningName {
  /** The ECCO code, `A00`..`E99`. */
  readonly code: string;
  /** The opening's name, e.g. 中炮过河车互进七兵对屏风马平炮兑车. */
  readonly name: string;
  /** The variation within the code ('' when the code has none), e.g. 红仕角炮对黑退边炮. */
  readonly variation: string;
}

/** Plies the classification reads. */
const ECCO_PLIES = 20;

// ---- The rule language ------------------------------------------------------------

/** A move slot: the ply of a round and side, absolute (round 1..10) or relative to the scanned round. */
interface Ply {
  side: 0 | 1;
  round: number;
  relative: boolean;
}

type Node =
  | { kind: 'code'; code: string }
  | { kind: 'call'; rule: string }
  | { kind: 'at'; ply: Ply; cases: Map<string, Node>; otherwise: Node }
  | { kind: 'if'; tests: Test[]; then: Node; else: Node }
  | {
      kind: 'scan';
      side: 0 | 1;
      from: number;
      to: number;
      cases: Map<string, Action[]>;
      otherwise: Action[];
      end: Node;
    };

type Test =
  | { kind: 'moves'; ply: Ply; last: number; moves: Set<string> }
  | { kind: 'set'; red: string[]; black: string[] }
  | { kind: 'flag'; flag: string; set: boolean };

type Action =
  | { kind: 'skip' }
  | { kind: 'mark'; flag: string; set: boolean }
  | { kind: 'answer'; node: Node; flag?: string; when?: boolean };

type Rules = Map<string, Node>;

const MOVE_RE = /^[KARCNBP]\d[.+-]\d$/;
const CODE_RE = /^[A-E]\d\d$/;
const FLAG_RE = /^[a-z]\w*$/;

/** Reads the rule language (ecco-rules.ts); an error names the token and its place. */
export function parseEccoRules(text: string): Result<Rules, 'ecco-rules'> {
  const tokens: { t: string; line: number }[] = [];
  text.split('\n').forEach((l, i) => {
    for (const t of l.replace(/[{}();]/g, ' $& ').split(/\s+/)) if (t !== '') tokens.push({ t, line: i + 1 });
  });
  let at = 0;
  class RuleError extends Error {}
  const fail = (why: string): never => {
    const tok = tokens[Math.min(at, tokens.length - 1)];
    throw new RuleError(`ECCO rules, line ${tok?.line ?? 0} near '${tok?.t ?? ''}': ${why}`);
  };
  const peek = (): string => tokens[at]?.t ?? '';
  const next = (): string => {
    if (at >= tokens.length) fail('unexpected end');
    return tokens[at++].t;
  };
  const expect = (t: string): void => {
    if (next() !== t) fail(`expected '${t}'`);
  };
  const ply = (t: string): Ply => {
    const abs = /^([RB])(\d+)$/.exec(t);
    if (abs) {
      const round = Number(abs[2]);
      if (round < 1 || round > ECCO_PLIES / 2) fail(`no round ${round}`);
      return { side: abs[1] === 'R' ? 0 : 1, round, relative: false };
    }
    const rel = /^([rb])([+-]?\d+)$/.exec(t);
    if (!rel) return fail(`'${t}' is not a ply (R3, B5, r-1, b0)`);
    return { side: rel[1] === 'r' ? 0 : 1, round: Number(rel[2]), relative: true };
  };
  const move = (t: string): string => (MOVE_RE.test(t) ? t : fail(`'${t}' is not a move`));
  const flag = (t: string): string => (FLAG_RE.test(t) ? t : fail(`'${t}' is not a flag name`));
  const test = (t: string): Test => {
    if (t === 'set') {
      expect('(');
      const red: string[] = [];
      const black: string[] = [];
      while (peek() !== ')') (red.length === black.length ? red : black).push(move(next()));
      expect(')');
      return { kind: 'set', red, black };
    }
    if (t[0] === '?' || t[0] === '!') return { kind: 'flag', flag: flag(t.slice(1)), set: t[0] === '?' };
    const m = /^([RBrb][+-]?\d+)(?:-(\d+))?=(.+)$/.exec(t);
    if (!m) return fail(`'${t}' is not a test`);
    const p = ply(m[1]);
    const last = m[2] === undefined ? p.round : Number(m[2]);
    if (m[2] !== undefined && (p.relative || last < p.round || last > ECCO_PLIES / 2)) fail('bad round range');
    return { kind: 'moves', ply: p, last, moves: new Set(m[3].split('|').map(move)) };
  };
  const actions = (): Action[] => {
    const out: Action[] = [];
    while (peek() !== ';') {
      const t = peek();
      if (t === 'skip') {
        next();
        out.push({ kind: 'skip' });
      } else if (t[0] === '+' || (t[0] === '-' && !MOVE_RE.test(t))) {
        next();
        out.push({ kind: 'mark', flag: flag(t.slice(1)), set: t[0] === '+' });
      } else if (t[0] === '?' || t[0] === '!') {
        next();
        out.push({ kind: 'answer', flag: flag(t.slice(1)), when: t[0] === '?', node: node() });
      } else out.push({ kind: 'answer', node: node() });
    }
    expect(';');
    if (out.length === 0) fail('a case without actions');
    return out;
  };
  const node = (): Node => {
    const t = next();
    if (CODE_RE.test(t)) return { kind: 'code', code: t };
    if (t[0] === '@') return { kind: 'call', rule: t.slice(1) };
    if (t === '(') {
      const n = node();
      expect(')');
      return n;
    }
    if (t === 'at') {
      const p = ply(next());
      expect('{');
      const cases = new Map<string, Node>();
      let otherwise: Node | null = null;
      while (peek() !== '}') {
        const moves: string[] = [];
        while (peek() !== '->') moves.push(next());
        expect('->');
        const n = node();
        if (moves.length === 1 && moves[0] === '*') otherwise = n;
        else for (const m of moves) cases.set(move(m), n);
      }
      expect('}');
      if (!otherwise) return fail("an 'at' without '*'");
      return { kind: 'at', ply: p, cases, otherwise };
    }
    if (t === 'if') {
      const tests: Test[] = [];
      while (peek() !== 'then') tests.push(test(next()));
      expect('then');
      const then = node();
      expect('else');
      return { kind: 'if', tests, then, else: node() };
    }
    if (t === 'scan') {
      const r = /^([RB])(\d+)-(\d+)$/.exec(next());
      if (!r) return fail("a scan's range is like R2-10");
      expect('{');
      const cases = new Map<string, Action[]>();
      let otherwise: Action[] | null = null;
      while (peek() !== '}') {
        const moves: string[] = [];
        while (peek() !== '->') moves.push(next());
        expect('->');
        const a = actions();
        if (moves.length === 1 && moves[0] === '*') otherwise = a;
        else for (const m of moves) cases.set(move(m), a);
      }
      expect('}');
      expect('end');
      if (!otherwise) return fail("a scan without '*'");
      const [from, to] = [Number(r[2]), Number(r[3])];
      if (from < 1 || to > ECCO_PLIES / 2 || from > to) fail('bad round range');
      return { kind: 'scan', side: r[1] === 'R' ? 0 : 1, from, to, cases, otherwise, end: node() };
    }
    return fail('expected a code, @rule, at, if, scan or (');
  };
  const rules: Rules = new Map();
  try {
    while (at < tokens.length) {
      expect('rule');
      const name = next();
      expect('=');
      if (rules.has(name)) fail(`rule ${name} twice`);
      rules.set(name, node());
    }
    for (const n of rules.values()) checkCalls(n, rules);
    if (!rules.has('ecco')) fail('no rule ecco');
  } catch (e) {
    if (e instanceof RuleError) return err('ecco-rules', e.message);
    return err('ecco-rules', `ECCO rules: ${(e as Error).message}`);
  }
  return ok(rules);
}

/** Every @rule a node uses exists. */
function checkCalls(n: Node, rules: Rules): void {
  const each = (x: Node) => checkCalls(x, rules);
  switch (n.kind) {
    case 'call':
      if (!rules.has(n.rule)) throw new Error(`no rule ${n.rule}`);
      return;
    case 'at':
      n.cases.forEach(each);
      return each(n.otherwise);
    case 'if':
      each(n.then);
      return each(n.else);
    case 'scan':
      for (const a of [...n.cases.values(), n.otherwise].flat()) if (a.kind === 'answer') each(a.node);
      return each(n.end);
    default:
      return;
  }
}

/** Every code a node (and the rules it uses) can answer. */
export function eccoCodes(rules: Rules): Set<string> {
  const out = new Set<string>();
  const walk = (n: Node): void => {
    switch (n.kind) {
      case 'code':
        out.add(n.code);
        return;
      case 'at':
        n.cases.forEach(walk);
        return walk(n.otherwise);
      case 'if':
        walk(n.then);
        return walk(n.else);
      case 'scan':
        for (const a of [...n.cases.values(), n.otherwise].flat()) if (a.kind === 'answer') walk(a.node);
        return walk(n.end);
      default:
        return;
    }
  };
  rules.forEach(walk);
  return out;
}

/** Runs the rules over a game's moves (WXF, ECCO_PLIES long, '' where the game has no move). */
function evaluate(rules: Rules, moves: readonly string[]): string {
  const flags = new Set<string>();
  const rounds: number[] = [];
  const slot = (p: Ply, round = p.round): string => {
    const r = p.relative ? (rounds[rounds.length - 1] ?? 0) + round : round;
    return r >= 1 && r <= ECCO_PLIES / 2 ? (moves[2 * (r - 1) + p.side] ?? '') : '';
  };
  const holds = (t: Test): boolean => {
    switch (t.kind) {
      case 'flag':
        return flags.has(t.flag) === t.set;
      case 'moves':
        for (let r = t.ply.round; r <= t.last; r++) if (!t.moves.has(slot(t.ply, r))) return false;
        return true;
      case 'set':
        return sameMoves(t.red, moves, 0) && sameMoves(t.black, moves, 1);
    }
  };
  const run = (n: Node): string => {
    switch (n.kind) {
      case 'code':
        return n.code;
      case 'call':
        return run(rules.get(n.rule) as Node);
      case 'at':
        return run(n.cases.get(slot(n.ply)) ?? n.otherwise);
      case 'if':
        return run(n.tests.every(holds) ? n.then : n.else);
      case 'scan':
        for (let r = n.from; r <= n.to; r++) {
          const acts = n.cases.get(moves[2 * (r - 1) + n.side] ?? '') ?? n.otherwise;
          for (const a of acts) {
            if (a.kind === 'skip') break;
            if (a.kind === 'mark') {
              if (a.set) flags.add(a.flag);
              else flags.delete(a.flag);
            } else if (a.flag === undefined || flags.has(a.flag) === a.when) {
              rounds.push(r);
              const answer = run(a.node);
              rounds.pop();
              return answer;
            }
          }
        }
        return run(n.end);
    }
  };
  return run(rules.get('ecco') as Node);
}

/** The first `want.length` moves of `side` are `want` in some order. */
function sameMoves(want: readonly string[], moves: readonly string[], side: 0 | 1): boolean {
  const left = [...want];
  for (let i = 0; i < want.length; i++) {
    const k = left.indexOf(moves[2 * i + side] ?? '');
    if (k < 0) return false;
    left.splice(k, 1);
  }
  return true;
}

// ---- Moves in WXF ------------------------------------------------------------

const LETTER: Record<number, string> = {
  [ROOK]: 'R',
  [ADVISOR]: 'A',
  [CANNON]: 'C',
  [PAWN]: 'P',
  [KNIGHT]: 'N',
  [BISHOP]: 'B',
  [KING]: 'K',
};

/**
 * A move in the WXF form the ECCO rules use: piece letter, file (from the
 * mover's right), direction, file reached or ranks moved. Two pieces of a kind
 * on one file (which WXF tells apart by front and rear) get '=' for a file:
 * no rule names such a move.
 */
export function eccoMoveText(pos: Position, m: Move): string {
  const from = moveFrom(m);
  const to = moveTo(m);
  const piece = pos.pieceOn(from);
  const black = colorOf(piece) === BLACK;
  const type = typeOf(piece);
  const fileNo = (sq: number) => String(black ? FILE_OF[sq] + 1 : 9 - FILE_OF[sq]);
  let file = fileNo(from);
  if (type !== KING && type !== ADVISOR && type !== BISHOP) {
    for (let r = 0; r < 10; r++) {
      const sq = r * 9 + FILE_OF[from];
      if (sq !== from && pos.pieceOn(sq) === piece) file = '=';
    }
  }
  const ranks = RANK_OF[to] - RANK_OF[from];
  const forward = black ? ranks < 0 : ranks > 0;
  if (type === ADVISOR || type === BISHOP || type === KNIGHT)
    return `${LETTER[type]}${file}${forward ? '+' : '-'}${fileNo(to)}`;
  if (ranks === 0) return `${LETTER[type]}${file}.${fileNo(to)}`;
  return `${LETTER[type]}${file}${forward ? '+' : '-'}${Math.abs(ranks)}`;
}

/** The move seen in a mirror (files a..i reversed). */
function mirrorUci(t: string): string {
  const f = (c: string) => String.fromCharCode(202 - c.toLowerCase().charCodeAt(0));
  return f(t[0]) + t[1] + f(t[2]) + t[3];
}

// ---- The classifier --------------------------------------------------------------

let compiled: { rules: Rules; names: Map<string, [string, string]> } | null = null;

function tables(): { rules: Rules; names: Map<string, [string, string]> } {
  if (compiled) return compiled;
  const rules = parseEccoRules(ECCO_RULES);
  // The rules ship with the code and a test reads them: a failure here is a broken build.
  if (!rules.ok) throw new Error(rules.error.message);
  const names = new Map<string, [string, string]>();
  for (const line of ECCO_NAMES.split('\n')) {
    const [code, name, variation] = line.split('\t');
    if (code) names.set(code, [name ?? '', variation ?? '']);
  }
  compiled = { rules: rules.value, names };
  return compiled;
}

/** The name and variation of an ECCO code, or null for a code the catalogue does not use. */
export function eccoName(code: string): OpeningName | null {
  const n = tables().names.get(code);
  return n ? { code, name: n[0], variation: n[1] } : null;
}

export type ClassifyErrorCode = MoveErrorCode | 'fen-not-start';

/**
 * The ECCO opening of a game from the start position, given its moves in UCI
 * coordinates (any length; the first 20 plies decide). A game from another
 * position has no ECCO opening (`fen-not-start`); an illegal move is an error
 * naming it.
 */
export function classifyOpening(
  moves: readonly string[],
  startFen: string | null = null,
): Result<OpeningName, ClassifyErrorCode> {
  if (startFen !== null && startFen.split(/\s+/).slice(0, 2).join(' ') !== START_FEN.split(' ').slice(0, 2).join(' '))
    return err('fen-not-start', 'ECCO names openings from the start position only');
  const some = moves.slice(0, ECCO_PLIES);
  // A first move left of the middle file is classified as its mirror image.
  const first = some.length > 0 ? some[0].trim().toLowerCase() : '';
  const mirrored = /^[a-d]/.test(first)
    ? some.map((t) => (/^[a-i]\d[a-i]\d$/i.test(t.trim()) ? mirrorUci(t.trim()) : t))
    : some;
  const pos = new Position();
  const wxf: string[] = [];
  for (let i = 0; i < mirrored.length; i++) {
    const m = parseLegalMove(pos, mirrored[i]);
    if (!m.ok) return err(m.error.code, `move ${i + 1} (${some[i]}): ${m.error.message}`);
    wxf.push(eccoMoveText(pos, m.value));
    pos.doMove(m.value);
  }
  const { rules } = tables();
  const code = evaluate(rules, wxf);
  return ok(eccoName(code) ?? { code, name: '', variation: '' });
}
