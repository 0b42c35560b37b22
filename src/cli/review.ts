// `kirin review FILE`: reviews a game of a PGN (or XQF) file with the engine
// (docs/REVIEW.md): a progress bar on stderr, the annotated game as PGN (to --out
// or stdout), the evaluation chart as SVG (--chart), the whole review as JSON
// (--json) and a summary: each side's accuracy and its inaccuracies, mistakes
// and blunders.
//
// Exit codes (game-files.ts, the same as every command that reads game files):
// 0 done; 1 the engine or an output file failed; 2 a bad command line, or a
// file or game that cannot be read; 130 interrupted (Ctrl-C stops the search in
// progress).

import { readFileSync, writeFileSync } from 'node:fs';
import { moveToUci, type Move } from '../core/types.js';
import { Engine } from '../engine/engine.js';
import { engineVersion, ENGINE_NAME } from '../engine/version.js';
import { prepareNetworkDecoder } from '../eval/nnue/loader.js';
import { mainLine } from '../notation/game.js';
import { detectNotation, NOTATIONS, type Notation } from '../notation/move.js';
import { writePgn } from '../notation/pgn.js';
import { decodeText, type TextEncoding } from '../notation/text.js';
import { isXqf } from '../notation/xqf.js';
import { annotateGame, CLASS_NAGS } from '../review/annotate.js';
import { reviewChartSvg } from '../review/chart.js';
import { formatReviewScore, reviewMoveTexts } from '../review/text.js';
import { reviewGame, type Review, type ReviewOptions } from '../review/review.js';
import {
  commandSpec,
  integerOption,
  readCommandLine,
  reportCommandLine,
  PROCESS_IO,
  type CommandIo,
} from './command-line.js';
import { ENCODING_USAGE, EXIT_NOTHING, encodingOption, fileMessage, fileReport, loadGameFile } from './game-files.js';
import { ProgressBar } from './progress.js';

const SPEC = commandSpec({
  name: 'kirin review',
  usage: `usage: kirin review FILE [--game N] [--nodes N | --movetime MS | --depth N]
                    [--out ANNOTATED.pgn] [--chart CHART.svg] [--json REVIEW.json]
                    [--notation chinese|wxf|iccs|uci] [--threads N] [--hash MB]
                    [--order backward|forward] [--encoding NAME] [--quiet]
  Reviews game N (default 1) of a PGN or XQF file: every position searched to
  --nodes (default 100000), --movetime or --depth, each move scored and the
  inaccuracies (?!), mistakes (?) and blunders (??) marked (docs/REVIEW.md).
  --out       the annotated game as PGN (default: stdout), in --notation
              (default: the file's own)
  --chart     the evaluation over the game as an SVG image
  --json      the whole review (every position and move) as JSON
  --threads   positions searched at once (default 2), each by an engine of
              one thread: the scores do not depend on it
  --hash      MB of hash table per engine (default 16, as the page's engine)
  --order     backward (default: the last position first) or forward: the
              order the positions are handed out
  ${ENCODING_USAGE}
  --quiet     no progress bar
  Exit code: 0 done, 1 the engine or an output failed, 2 a bad command line or
  a game that cannot be read.`,
  options: {
    game: { type: 'string' },
    nodes: { type: 'string' },
    movetime: { type: 'string' },
    depth: { type: 'string' },
    out: { type: 'string' },
    chart: { type: 'string' },
    json: { type: 'string' },
    notation: { type: 'string' },
    threads: { type: 'string' },
    hash: { type: 'string' },
    order: { type: 'string' },
    encoding: { type: 'string' },
    quiet: { type: 'boolean' },
  },
  positionals: { min: 1, max: 1 },
});

/**
 * The notation a game file writes its moves in: its first move that reads as
 * one (tags, comments and move numbers skipped); Chinese for XQF (no text) and
 * when none is found.
 */
export function fileNotation(bytes: Uint8Array, encoding?: TextEncoding): Notation {
  if (isXqf(bytes)) return 'chinese';
  const text = decodeText(bytes, encoding)
    .text.replace(/^\s*\[.*$/gm, ' ')
    .replace(/\{[^}]*\}|;.*$/gm, ' ');
  for (const word of text.split(/\s+/)) {
    const move = word.replace(/^\d+\.+/, '').replace(/[!?]+$/, '');
    const n = move === '' ? null : detectNotation(move);
    if (n !== null) return n;
  }
  return 'chinese';
}

function fail(io: CommandIo, message: string, code: number): number {
  io.stderr.write(`kirin review: ${message}\n`);
  return code;
}

function write(path: string, text: string): string | null {
  try {
    writeFileSync(path, text);
    return null;
  } catch (e) {
    return `cannot write ${path}: ${(e as Error).message}`;
  }
}

/** The summary: each side's accuracy and counts, then every marked move with the engine's best. */
export function reviewReport(review: Review, names: { red: string; black: string }, notation: Notation): string {
  const texts = reviewMoveTexts(review, { notation });
  const lines: string[] = [];
  for (const side of ['red', 'black'] as const) {
    const s = review[side];
    const name = `${side === 'red' ? 'Red' : 'Black'}${names[side] ? ` (${names[side]})` : ''}`;
    const acc = s.accuracy === null ? '   -  ' : `${s.accuracy.toFixed(1).padStart(5)}%`;
    lines.push(
      `${name.padEnd(24)} accuracy ${acc}  inaccuracies ${s.inaccuracies}  mistakes ${s.mistakes}  blunders ${s.blunders}`,
    );
  }
  for (const p of review.plies) {
    const nag = CLASS_NAGS[p.classification];
    if (nag === undefined) continue;
    const mark = { 6: '?!', 2: '?', 4: '??' }[nag] ?? '';
    const number = `${p.moveNumber}${p.side === 'red' ? '.' : '...'}`;
    const [played, best] = texts[p.ply - 1];
    lines.push(
      `  ${number} ${played}${mark}  ${formatReviewScore(p.scoreBefore)} -> ` +
        `${formatReviewScore(p.scoreAfter)}  ${p.classification}, best ${best ?? '-'}`,
    );
  }
  return lines.join('\n') + '\n';
}

export async function runReviewCli(argv: readonly string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error, io.stdout, io.stderr);
  const v = cl.value.values;
  const ints = {
    game: integerOption(v, 'game', 1, { min: 1 }),
    nodes: integerOption(v, 'nodes', 100000, { min: 1 }),
    movetime: integerOption(v, 'movetime', 0, { min: 1 }),
    depth: integerOption(v, 'depth', 0, { min: 1, max: 245 }),
    threads: integerOption(v, 'threads', 2, { min: 1, max: 256 }),
    hash: integerOption(v, 'hash', 16, { min: 1, max: 65536 }),
  };
  for (const r of Object.values(ints)) if (!r.ok) return reportCommandLine(SPEC, r.error, io.stdout, io.stderr);
  const num = (r: (typeof ints)['game']): number => (r.ok ? r.value : 0);
  const given = (['nodes', 'movetime', 'depth'] as const).filter((k) => v[k] !== undefined);
  if (given.length > 1)
    return reportCommandLine(
      SPEC,
      {
        code: 'arguments',
        message: `give one of --nodes, --movetime, --depth, not ${given.map((k) => `--${k}`).join(' and ')}`,
      },
      io.stdout,
      io.stderr,
    );
  const order = v.order ?? 'backward';
  if (order !== 'backward' && order !== 'forward')
    return reportCommandLine(
      SPEC,
      { code: 'arguments', message: `--order ${order}: backward or forward` },
      io.stdout,
      io.stderr,
    );
  if (v.notation !== undefined && !NOTATIONS.includes(v.notation as Notation))
    return reportCommandLine(
      SPEC,
      { code: 'arguments', message: `--notation ${v.notation}: one of ${NOTATIONS.join(', ')}` },
      io.stdout,
      io.stderr,
    );

  const encoding = encodingOption(v.encoding);
  if (!encoding.ok) return reportCommandLine(SPEC, encoding.error, io.stdout, io.stderr);

  // The game.
  const file = cl.value.positionals[0];
  let bytes: Uint8Array = new Uint8Array(0);
  const read = loadGameFile(file, encoding.value, (path) => (bytes = readFileSync(path)));
  if (!read.ok) return fail(io, read.error.message, EXIT_NOTHING);
  const games = read.value.games;
  const n = num(ints.game);
  if (n > games.length) return fail(io, `${file}: --game ${n}, but the file has ${games.length}`, EXIT_NOTHING);
  const parsed = games[n - 1];
  if (!parsed.ok) {
    for (const line of fileReport(file, { ...read.value, games: [parsed] }, encoding.value !== undefined))
      fail(io, line, EXIT_NOTHING);
    return EXIT_NOTHING;
  }
  const game = parsed.value;
  for (const w of game.warnings ?? []) fail(io, `warning: ${fileMessage(file, read.value, w)}`, 0);
  const moves: Move[] = mainLine(game);
  const notation: Notation =
    (v.notation as Notation | undefined) ?? fileNotation(bytes, read.value.encoding ?? undefined);

  // The engines: one search thread each, so that each position's search is the same whoever does it.
  await prepareNetworkDecoder();
  const engines = Array.from({ length: num(ints.threads) }, () => new Engine());
  try {
    for (const engine of engines) {
      const set = engine.options.set('Hash', String(num(ints.hash)));
      if (!set.ok) return fail(io, `Hash: ${set.error.message}`, 2);
    }
    const limits: Pick<ReviewOptions, 'nodes' | 'movetime' | 'depth'> =
      given[0] === 'movetime'
        ? { movetime: num(ints.movetime) }
        : given[0] === 'depth'
          ? { depth: num(ints.depth) }
          : { nodes: num(ints.nodes) };
    const controller = new AbortController();
    const onSigint = (): void => controller.abort();
    process.once('SIGINT', onSigint);
    const bar = v.quiet ? null : new ProgressBar(io.stderr);
    let review;
    try {
      review = await reviewGame(
        engines,
        { startFen: game.fen, moves: moves.map(moveToUci) },
        {
          ...limits,
          order,
          signal: controller.signal,
          onProgress: (p) => bar?.update(p.done, p.total),
        },
      );
    } finally {
      bar?.end();
      process.removeListener('SIGINT', onSigint);
    }
    if (!review.ok) {
      if (review.error.code === 'cancelled') return fail(io, 'interrupted', 130);
      return fail(io, `${file}, game ${n}: ${review.error.message}`, review.error.code === 'search' ? 1 : 2);
    }
    const r = review.value;

    // The outputs.
    const annotated = annotateGame(game, r, { notation, annotator: `${ENGINE_NAME} ${engineVersion()}` });
    if (!annotated.ok) return fail(io, annotated.error.message, 1);
    const pgn = writePgn(annotated.value, { notation });
    if (!pgn.ok) return fail(io, pgn.error.message, 1);
    const problems: string[] = [];
    const put = (path: string | undefined, text: string): void => {
      if (path === undefined) return;
      const why = write(path, text);
      if (why !== null) problems.push(why);
    };
    put(v.out, pgn.value);
    put(v.chart, reviewChartSvg(r, { moves: { notation } }));
    put(v.json, JSON.stringify(r, null, 1) + '\n');
    if (v.out === undefined) io.stdout.write(pgn.value);
    const header = (k: string): string => game.headers[k] ?? '';
    (v.out === undefined ? io.stderr : io.stdout).write(
      reviewReport(r, { red: header('Red'), black: header('Black') }, notation),
    );
    for (const p of problems) fail(io, p, 1);
    return problems.length > 0 ? 1 : 0;
  } finally {
    await Promise.all(engines.map((e) => e.close()));
  }
}
