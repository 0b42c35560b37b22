// `kirin explorer`: builds and probes opening explorers (docs/EXPLORER.md).
//
//   kirin explorer build --out FILE [--depth PLIES] [--min-games N] [--notable N]
//                        [--keep-duplicates] [--encoding NAME] [--name TEXT] FILE|DIR ...
//   kirin explorer probe [--file FILE] [--notation chinese|wxf|iccs|uci] [startpos | FEN] [moves] [MOVE ...]
//
// Exit codes as every command that reads game files (game-files.ts); probe: 0
// found or not, 2 a bad command line, position, move or explorer file.

import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { START_FEN } from '../core/fen.js';
import { Position } from '../core/position.js';
import { moveToUci } from '../core/types.js';
import { buildExplorer, DEFAULT_EXPLORER_OPTIONS, explorerGame, type ExplorerGame } from '../explorer/build.js';
import { Explorer, type ExplorerCounts } from '../explorer/explorer.js';
import { formatMove, NOTATIONS, parseMove, type Notation } from '../notation/move.js';
import { classifyOpening } from '../opening/ecco.js';
import {
  commandSpec,
  integerOption,
  readCommandLine,
  reportCommandLine,
  PROCESS_IO,
  type CommandIo,
} from './command-line.js';
import {
  ENCODING_USAGE,
  EXIT_NOTHING,
  EXIT_PARTIAL,
  encodingOption,
  fileExitCode,
  fileMessage,
  gameFilesIn,
  loadGameFile,
} from './game-files.js';

const D = DEFAULT_EXPLORER_OPTIONS;
const SPEC = commandSpec({
  name: 'kirin explorer',
  usage: `usage: kirin explorer build --out FILE [--depth PLIES] [--min-games N] [--notable N]
                            [--keep-duplicates] [--encoding NAME] [--name TEXT] FILE|DIR ...
       kirin explorer probe [--file FILE] [--notation chinese|wxf|iccs|uci]
                            [startpos | FEN] [moves] [MOVE ...]

build   counts every position of the first PLIES plies (default ${D.depth}) of the games of the
        files (PGN in any notation and encoding, XQF; a directory: every .pgn
        and .xqf below it): the games that reached it, how they ended, and each
        move played there. A position or move goes in when at least N games
        (default ${D.minGames}) reached or played it, with up to --notable (default ${D.notable}) notable
        games. A game repeating an earlier one counts once unless
        --keep-duplicates. The same games give the same file.
        ${ENCODING_USAGE.replace(/\n {14}/g, '\n                    ')}
probe   prints a position's moves with their games and results, and its
        notable games: the start position, a FEN, and moves played from it in
        any notation (炮二平五, C2=5, h2e2), from FILE or Kirin's master games.
        --notation: how moves are written (default chinese).`,
  options: {
    out: { type: 'string' },
    depth: { type: 'string' },
    'min-games': { type: 'string' },
    notable: { type: 'string' },
    'keep-duplicates': { type: 'boolean' },
    encoding: { type: 'string' },
    name: { type: 'string' },
    file: { type: 'string' },
    notation: { type: 'string' },
  },
  positionals: { min: 1 },
});

/** Kirin's explorer of master games (dist/browser/masters.explorer), or null when this build has none. */
export function readMastersExplorer(): Uint8Array | null {
  try {
    return readFileSync(new URL('../../browser/masters.explorer', import.meta.url));
  } catch {
    return null;
  }
}

type Values = Record<string, unknown>;

function build(values: Values, paths: readonly string[], io: CommandIo): number {
  const fail = (message: string): number => {
    io.stderr.write(`kirin explorer build: ${message}\n`);
    return EXIT_NOTHING;
  };
  const out = values.out;
  if (typeof out !== 'string' || out === '') return fail('--out FILE is required');
  const depth = integerOption(values, 'depth', D.depth, { min: 1, max: 200 });
  const minGames = integerOption(values, 'min-games', D.minGames, { min: 1 });
  const notable = integerOption(values, 'notable', D.notable, { min: 0, max: 20 });
  for (const r of [depth, minGames, notable]) if (!r.ok) return fail(r.error.message);
  if (!depth.ok || !minGames.ok || !notable.ok) return EXIT_NOTHING;
  const encoding = encodingOption(typeof values.encoding === 'string' ? values.encoding : undefined);
  if (!encoding.ok) return fail(encoding.error.message);
  const files: string[] = [];
  for (const p of paths) {
    try {
      files.push(...gameFilesIn(p));
    } catch (e) {
      return fail(`${p}: ${(e as Error).message}`);
    }
  }
  if (files.length === 0) return fail('no game files given');
  const problems: string[] = [];
  let code = 0;
  const games: ExplorerGame[] = [];
  for (const f of files) {
    const read = loadGameFile(f, encoding.value);
    if (!read.ok) {
      problems.push(read.error.message);
      code = EXIT_NOTHING;
      continue;
    }
    code = Math.max(code, fileExitCode(read.value));
    read.value.games.forEach((g, i) => {
      if (g.ok) games.push(explorerGame(g.value, `${f} game ${i + 1}`));
      else problems.push(fileMessage(f, read.value, g.error.message));
    });
  }
  const name = typeof values.name === 'string' ? values.name : basename(out);
  const built = buildExplorer(
    games,
    {
      depth: depth.value,
      minGames: minGames.value,
      notable: notable.value,
      dedupe: values['keep-duplicates'] !== true,
    },
    { name },
  );
  problems.push(...built.problems);
  if (built.problems.length > 0) code = Math.max(code, EXIT_PARTIAL);
  try {
    writeFileSync(out, built.bytes);
  } catch (e) {
    return fail(`cannot write ${out}: ${(e as Error).message}`);
  }
  for (const p of problems.slice(0, 20)) io.stderr.write(`kirin explorer build: ${p}\n`);
  if (problems.length > 20) io.stderr.write(`kirin explorer build: ... and ${problems.length - 20} more problems\n`);
  io.stdout.write(
    `${out}: ${built.bytes.length} bytes, ${built.positions} positions, ${built.moves} moves, ` +
      `${built.notableGames} notable games, from ${built.counted} games ` +
      `(${files.length} files, ${built.games} games read, ${built.duplicates} duplicates, ${problems.length} problems)\n`,
  );
  return code;
}

/** `text` padded to `width` columns (a Chinese character takes two). */
function padColumns(text: string, width: number): string {
  let w = 0;
  for (const ch of text) w += /[\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/.test(ch) ? 2 : 1;
  return text + ' '.repeat(Math.max(0, width - w));
}

function percent(n: number, of: number): string {
  return `${of > 0 ? ((100 * n) / of).toFixed(1) : '0.0'}%`.padStart(6);
}

function counts(c: ExplorerCounts): string {
  return `${String(c.games).padStart(7)} ${percent(c.redWins, c.games)} ${percent(c.draws, c.games)} ${percent(c.blackWins, c.games)}`;
}

function probe(values: Values, words$: readonly string[], io: CommandIo): number {
  const fail = (message: string): number => {
    io.stderr.write(`kirin explorer probe: ${message}\n`);
    return EXIT_NOTHING;
  };
  const notation = (typeof values.notation === 'string' ? values.notation : 'chinese') as Notation;
  if (!NOTATIONS.includes(notation)) return fail(`--notation ${notation}: one of ${NOTATIONS.join(', ')}`);
  const file = typeof values.file === 'string' ? values.file : null;
  let bytes: Uint8Array | null;
  try {
    bytes = file === null ? readMastersExplorer() : readFileSync(file);
  } catch (e) {
    return fail(`cannot read ${file}: ${(e as Error).message}`);
  }
  if (bytes === null) return fail('this build has no explorer of master games: give --file FILE');
  const explorer = Explorer.fromBytes(bytes, file ?? 'masters.explorer');
  if (!explorer.ok) return fail(explorer.error.message);
  // The position: startpos or a FEN (its words up to 'moves' or a move), then moves in any notation.
  let words = [...words$];
  let fen: string | null = null;
  if (words[0] === 'startpos') words = words.slice(1);
  else if (words[0]?.includes('/')) {
    const end = words.indexOf('moves');
    const fields = end < 0 ? Math.min(words.length, 6) : end;
    fen = words.slice(0, fields).join(' ');
    words = words.slice(fields);
  }
  if (words[0] === 'moves') words = words.slice(1);
  const start = Position.fromFen(fen ?? START_FEN);
  if (!start.ok) return fail(start.error.message);
  const pos = start.value;
  const played: string[] = [];
  for (const w of words) {
    const m = parseMove(pos, w);
    if (!m.ok) return fail(`after ${played.length} moves: ${m.error.message}`);
    played.push(moveToUci(m.value));
    pos.doMove(m.value);
  }
  const lines = [`explorer: ${explorer.value.label()}`, `position: ${pos.fen()}`];
  const opening = classifyOpening(played, fen);
  if (opening.ok && played.length > 0)
    lines.push(
      `opening: ${[opening.value.code, opening.value.name, opening.value.variation].filter((x) => x).join(' ')}`,
    );
  const here = explorer.value.probe(pos);
  if (here === null) lines.push('not in the explorer (too few games reached it, or it lies deeper than it counts)');
  else {
    lines.push(`move          games    red   draw  black`);
    lines.push(`(all)       ${counts(here)}`);
    for (const m of here.moves) {
      const text = formatMove(pos, m.move, { notation });
      lines.push(`${padColumns(text.ok ? text.value : m.uci, 10)}  ${counts(m)}`);
    }
    if (here.notable.length > 0) {
      lines.push('notable games:');
      for (const g of here.notable) {
        const when = [g.event, g.year === null ? '' : String(g.year)].filter((x) => x).join(', ');
        lines.push(
          `  ${g.red || '?'} - ${g.black || '?'}${when ? `, ${when}` : ''}: ${g.result} (${g.moves.length} plies)`,
        );
      }
    }
  }
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}

export function runExplorerCli(argv: readonly string[], io: CommandIo = PROCESS_IO): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error, io.stdout, io.stderr);
  const [command, ...rest] = cl.value.positionals;
  const values = cl.value.values as Values;
  if (command === 'build') return build(values, rest, io);
  if (command === 'probe') return probe(values, rest, io);
  return reportCommandLine(
    SPEC,
    { code: 'arguments', message: `unknown command '${command}' (build or probe)` },
    io.stdout,
    io.stderr,
  );
}
