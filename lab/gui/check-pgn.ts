// Checks a xiangqi game XBoard saved (PGN, XBoard's SAN for xiangqi) with
// Kirin's rules: every move legal, and the stated end consistent with the rules.
//
//   node dist/lab/gui/check-pgn.js game.pgn [--json]
//
// XBoard's xiangqi SAN: piece letters K A E H R C (pawns have none), files a-i
// from Red's left, ranks 0-9 from Red's side (XBoard 4.9; older versions and
// some other programs number ranks 1-10: a `10` anywhere selects that), optional
// origin file and/or rank, `x` for captures, `+`/`#` suffixes. Each SAN move is
// translated to Kirin's coordinates by matching it against the legal moves.
// A result the rules can state (checkmate, stalemate, a rule outcome) must match
// Kirin's judgement of the final position; a resignation, a time forfeit or an
// agreed/adjudicated draw is accepted when every move was legal.
// Exit status: 0 legal, 1 not, 2 usage/unreadable.

import {
  err,
  DEFAULT_RULES,
  formatJudgement,
  judge,
  legalMoves,
  moveFrom,
  moveTo,
  moveToUci,
  ok,
  Position,
  type Move,
  type Result,
} from '../../src/dev.js';
import { ADVISOR, BISHOP, CANNON, FILE_OF, KING, KNIGHT, PAWN, RANK_OF, ROOK, typeOf } from '../../src/core/types.js';
import { commandSpec, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { readTextFile } from '../../toolkit/files.js';
import { runMain } from '../../toolkit/script.js';

const LETTERS: Readonly<Record<string, number>> = { K: KING, A: ADVISOR, E: BISHOP, H: KNIGHT, R: ROOK, C: CANNON };

export interface PgnCheck {
  ok: boolean;
  /** The moves in Kirin's (UCI) coordinates, as far as they were legal. */
  uci: string[];
  result: string;
  /** XBoard's comment on the end (e.g. "Xboard adjudication: Checkmate"). */
  ending: string;
  judgement: string;
  problems: string[];
}

/** The tags, the SAN moves, the result and the final comment of the first game in `text`. */
export function parsePgn(text: string): {
  tags: Record<string, string>;
  san: string[];
  result: string;
  ending: string;
} {
  const tags: Record<string, string> = {};
  for (const m of text.matchAll(/^\[(\w+)\s+"([^"]*)"\]/gm)) tags[m[1]] = m[2];
  const body = text.replace(/^\[.*\]\s*$/gm, '');
  const comments = [...body.matchAll(/\{([^}]*)\}/g)].map((m) => m[1].trim());
  const ending = comments.length ? comments[comments.length - 1] : '';
  const tokens = body
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\([^)]*\)/g, ' ')
    .split(/\s+/)
    .filter((t) => t.length > 0);
  const san: string[] = [];
  let result = tags.Result ?? '*';
  for (const t of tokens) {
    if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t)) {
      result = t;
      continue;
    }
    const m = t.replace(/^\d+\.(\.\.)?/, '');
    if (m.length > 0 && !/^\$\d+$/.test(m)) san.push(m);
  }
  return { tags, san, result, ending };
}

/** The legal move of `pos` that the SAN text names, or why there is none. */
export function sanToMove(pos: Position, san: string, oneBasedRanks: boolean): Result<Move, 'san'> {
  const m = /^([KAEHRCP]?)([a-i])?(\d{1,2})?(x)?([a-i])(\d{1,2})[+#]?[!?]*$/.exec(san);
  if (!m) return err('san', `cannot read move '${san}'`);
  const type = m[1] === '' || m[1] === 'P' ? PAWN : LETTERS[m[1]];
  const rank = (t: string): number => Number(t) - (oneBasedRanks ? 1 : 0);
  const fromFile = m[2] === undefined ? -1 : m[2].charCodeAt(0) - 97;
  const fromRank = m[3] === undefined ? -1 : rank(m[3]);
  const toFile = m[5].charCodeAt(0) - 97;
  const toRank = rank(m[6]);
  const hits = legalMoves(pos).filter((mv) => {
    const f = moveFrom(mv);
    const t = moveTo(mv);
    return (
      typeOf(pos.board[f]) === type &&
      FILE_OF[t] === toFile &&
      RANK_OF[t] === toRank &&
      (fromFile < 0 || FILE_OF[f] === fromFile) &&
      (fromRank < 0 || RANK_OF[f] === fromRank)
    );
  });
  if (hits.length === 1) return ok(hits[0]);
  return err('san', hits.length === 0 ? `'${san}' is not a legal move` : `'${san}' is ambiguous`);
}

export function checkPgn(text: string): PgnCheck {
  const { tags, san, result, ending } = parsePgn(text);
  const problems: string[] = [];
  const uci: string[] = [];
  if (tags.Variant !== undefined && tags.Variant.toLowerCase() !== 'xiangqi')
    problems.push(`variant is ${tags.Variant}, not xiangqi`);
  const start = tags.FEN === undefined ? ok(new Position()) : Position.fromFen(tags.FEN);
  if (!start.ok) {
    problems.push(`the FEN tag: ${start.error.message}`);
    return { ok: false, uci, result, ending, judgement: '', problems };
  }
  const pos = start.value;
  pos.reserve(san.length + 1);
  const oneBased = san.some((s) => /10/.test(s));
  for (let i = 0; i < san.length; i++) {
    const mv = sanToMove(pos, san[i], oneBased);
    if (!mv.ok) {
      problems.push(`ply ${i + 1}: ${mv.error.message} in ${pos.fen()}`);
      break;
    }
    uci.push(moveToUci(mv.value));
    pos.doMove(mv.value);
  }
  const j = judge(pos, DEFAULT_RULES);
  const judgement = formatJudgement(j);
  if (problems.length === 0) {
    const winner = result === '1-0' ? 'red' : result === '0-1' ? 'black' : result === '1/2-1/2' ? 'draw' : 'none';
    if (/checkmate|stalemate|mate/i.test(ending) && j.result !== winner)
      problems.push(`the game says '${ending}' ${result}, the rules say ${judgement}`);
    if (result === '*') problems.push('the game has no result');
    if (/invalid move|illegal move|forfeit/i.test(ending))
      problems.push(`the game ended by a refused move: '${ending}'`);
    if (j.code === 'checkmate' || j.code === 'stalemate') {
      if (j.result !== winner) problems.push(`the final position is ${judgement}, the game says ${result}`);
    }
  }
  return { ok: problems.length === 0, uci, result, ending, judgement, problems };
}

const SPEC = commandSpec({
  name: 'check-pgn',
  usage: 'usage: node dist/lab/gui/check-pgn.js <game.pgn> [--json]',
  options: { json: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
});

function main(argv: string[]): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const text = readTextFile(cl.value.positionals[0]);
  if (!text.ok) {
    process.stderr.write(`check-pgn: ${text.error.message}\n`);
    return 2;
  }
  const r = checkPgn(text.value);
  if (cl.value.values.json) process.stdout.write(JSON.stringify(r) + '\n');
  else {
    process.stdout.write(`moves: ${r.uci.length} plies, all legal: ${r.problems.length === 0 ? 'yes' : 'no'}\n`);
    process.stdout.write(`result: ${r.result} {${r.ending}}\n`);
    process.stdout.write(`Kirin's judgement of the final position: ${r.judgement}\n`);
    process.stdout.write(`uci moves: ${r.uci.join(' ')}\n`);
    for (const p of r.problems) process.stdout.write(`PROBLEM: ${p}\n`);
  }
  return r.ok ? 0 : 1;
}

runMain(import.meta.url, main);
