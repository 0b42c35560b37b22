// `kirin book`: builds and probes opening books (docs/BOOK.md).
//
//   kirin book build --out FILE [--depth PLIES] [--min-games N] [--min-score PERCENT]
//                    [--keep-duplicates] [--encoding NAME] [--name TEXT] FILE|DIR ...
//   kirin book probe [--book FILE] [startpos | FEN] [moves] [MOVE ...]
//   kirin book variety [--book FILE] [--games N] [--variety V] [--seed S]

import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { OpeningBook, Position, START_FEN, classifyOpening, err, playUciMoves, type Result } from '../../src/dev.js';
import { readEmbeddedBook } from '#platform/book-files';
import { EXIT_NOTHING, EXIT_PARTIAL, encodingOption, gameFilesIn } from '../../src/cli/game-files.js';
import { mulberry32 } from '../../src/core/prng.js';
import { commandSpec, integerOption, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { DEFAULT_BOOK_OPTIONS, buildBook, type BookGame } from './build.js';
import { readBookGames } from './games.js';

const USAGE = `usage: kirin book build --out FILE [--depth PLIES] [--min-games N] [--min-score PERCENT]
                       [--keep-duplicates] [--encoding NAME] [--name TEXT] FILE|DIR ...
       kirin book probe [--book FILE] [startpos | FEN] [moves] [MOVE ...]
       kirin book variety [--book FILE] [--games N] [--variety V] [--seed S]

build   counts the moves of the first PLIES plies (default ${DEFAULT_BOOK_OPTIONS.depth}) of every game in the
        game files (PGN in any notation, XQF, or the game log of \`kirin match
        --log\`: Kirin's own games; a directory: every .pgn and .xqf below it)
        and writes the book: a move
        goes in when at least N games (default ${DEFAULT_BOOK_OPTIONS.minGames}) played it and it scored at
        least PERCENT (default ${DEFAULT_BOOK_OPTIONS.minScore}) for the side that played it (a draw or an
        unknown result counts half). A game repeating an earlier one counts once
        unless --keep-duplicates. --encoding: the PGN files' text encoding
        (utf-8, utf-16le, utf-16be, gbk or big5; by default each file's is the
        one that reads its games). The same games give the same file. Exit
        code: 0 every game read, 1 some refused, 2 a file with no game that
        reads or a bad command line.
probe   lists the book moves of a position (the start position, a FEN, and
        moves played from it) with their weights, games and results, from FILE
        or Kirin's default book.
variety plays N games (default 50) from the start with both sides choosing
        from the book (Book Variety V, default 100) until it has no move or 20
        plies are played, and counts the different lines and ECCO openings.
`;

const SPEC = commandSpec({
  name: 'kirin book',
  usage: USAGE,
  options: {
    out: { type: 'string' },
    depth: { type: 'string' },
    'min-games': { type: 'string' },
    'min-score': { type: 'string' },
    'keep-duplicates': { type: 'boolean' },
    encoding: { type: 'string' },
    name: { type: 'string' },
    book: { type: 'string' },
    games: { type: 'string' },
    variety: { type: 'string' },
    seed: { type: 'string' },
  },
  positionals: { min: 1 },
});

function build(cl: { values: Record<string, unknown>; positionals: readonly string[] }): number {
  const fail = (message: string): number => {
    process.stderr.write(`kirin book build: ${message}\n`);
    return 2;
  };
  const out = cl.values.out;
  if (typeof out !== 'string' || out === '') return fail('--out FILE is required');
  const depth = integerOption(cl.values, 'depth', DEFAULT_BOOK_OPTIONS.depth, { min: 1, max: 200 });
  const minGames = integerOption(cl.values, 'min-games', DEFAULT_BOOK_OPTIONS.minGames, { min: 1 });
  const minScore = integerOption(cl.values, 'min-score', DEFAULT_BOOK_OPTIONS.minScore, { min: 0, max: 100 });
  for (const r of [depth, minGames, minScore]) if (!r.ok) return fail(r.error.message);
  if (!depth.ok || !minGames.ok || !minScore.ok) return 2;
  const encoding = encodingOption(typeof cl.values.encoding === 'string' ? cl.values.encoding : undefined);
  if (!encoding.ok) return fail(encoding.error.message);
  const textEncoding = encoding.value;
  const files: string[] = [];
  for (const p of cl.positionals.slice(1)) {
    try {
      files.push(...gameFilesIn(p));
    } catch (e) {
      return fail(`${p}: ${(e as Error).message}`);
    }
  }
  if (files.length === 0) return fail('no game files given');
  const problems: string[] = [];
  let code = 0;
  function* games(): Generator<BookGame> {
    for (const f of files) {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(f);
      } catch (e) {
        problems.push(`cannot read ${f}: ${(e as Error).message}`);
        code = EXIT_NOTHING;
        continue;
      }
      const r = readBookGames(bytes, f, textEncoding);
      problems.push(...r.problems);
      if (r.games.length === 0) code = EXIT_NOTHING;
      else if (r.problems.length > 0) code = Math.max(code, EXIT_PARTIAL);
      yield* r.games;
    }
  }
  const name = typeof cl.values.name === 'string' ? cl.values.name : basename(out);
  const book = buildBook(
    games(),
    {
      depth: depth.value,
      minGames: minGames.value,
      minScore: minScore.value,
      dedupe: cl.values['keep-duplicates'] !== true,
    },
    { name },
  );
  problems.push(...book.problems);
  writeFileSync(out, book.bytes);
  for (const p of problems.slice(0, 20)) process.stderr.write(`kirin book build: ${p}\n`);
  if (problems.length > 20) process.stderr.write(`kirin book build: ... and ${problems.length - 20} more problems\n`);
  process.stdout.write(
    `${out}: ${book.bytes.length} bytes, ${book.entries} moves in ${book.positions} positions, from ${book.counted} games ` +
      `(${files.length} files, ${book.games} games read, ${book.duplicates} duplicates, ${problems.length} problems)\n`,
  );
  return Math.max(code, book.problems.length > 0 ? EXIT_PARTIAL : 0);
}

/** The book --book names, or Kirin's default book; or the error. */
function openBook(values: Record<string, unknown>): Result<OpeningBook, string> {
  const file = typeof values.book === 'string' ? values.book : null;
  let bytes: Uint8Array | null;
  try {
    bytes = file === null ? readEmbeddedBook() : readFileSync(file);
  } catch (e) {
    return err('book', `${file}: ${(e as Error).message}`);
  }
  if (!bytes) return err('book', 'this build has no default book: give --book FILE');
  return OpeningBook.fromBytes(bytes, file ?? 'kirin.book');
}

function probe(cl: { values: Record<string, unknown>; positionals: readonly string[] }): number {
  const fail = (message: string): number => {
    process.stderr.write(`kirin book probe: ${message}\n`);
    return 2;
  };
  const book = openBook(cl.values);
  if (!book.ok) return fail(book.error.message);
  // The position: startpos or a FEN (words up to 'moves'), then moves.
  let words = cl.positionals.slice(1);
  let fen: string | null = null;
  if (words[0] === 'startpos') words = words.slice(1);
  else if (words[0]?.includes('/')) {
    const end = words.indexOf('moves');
    fen = (end < 0 ? words : words.slice(0, end)).join(' ');
    words = end < 0 ? [] : words.slice(end + 1);
  }
  if (words[0] === 'moves') words = words.slice(1);
  const pos = Position.fromFen(fen ?? START_FEN);
  if (!pos.ok) return fail(pos.error.message);
  const played = playUciMoves(pos.value, words);
  if (!played.ok) return fail(played.error.message);
  const lines = [`book: ${book.value.label()}`, `position: ${pos.value.fen()}`];
  const opening = classifyOpening(words, fen);
  if (opening.ok && words.length > 0)
    lines.push(
      `opening: ${[opening.value.code, opening.value.name, opening.value.variation].filter((x) => x).join(' ')}`,
    );
  const moves = book.value.probe(pos.value);
  if (moves.length === 0) lines.push('no book moves');
  else {
    lines.push('move  weight   games    wins   draws  losses  score');
    for (const m of moves) {
      const score = m.games > 0 ? (100 * (m.wins + m.draws / 2)) / m.games : 50;
      lines.push(
        `${m.uci}  ${(100 * m.share).toFixed(1).padStart(5)}%  ${[m.games, m.wins, m.draws, m.losses]
          .map((n) => String(n).padStart(6))
          .join('  ')}  ${score.toFixed(1).padStart(4)}%`,
      );
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

/**
 * Plays `games` openings with both sides choosing from the book (Book Variety
 * `variety`) until it has no move or 20 plies are played: the different lines,
 * the different ECCO openings, and the plies the book lasted on average.
 */
export function bookVariety(
  book: OpeningBook,
  games: number,
  variety: number,
  random: () => number,
): { lines: number; openings: Map<string, number>; plies: number } {
  const lines = new Set<string>();
  const openings = new Map<string, number>();
  let plies = 0;
  for (let g = 0; g < games; g++) {
    const pos = new Position();
    const moves: string[] = [];
    while (moves.length < 20) {
      const m = book.choose(pos, variety, random);
      if (!m) break;
      moves.push(m.uci);
      pos.doMove(m.move);
    }
    plies += moves.length;
    lines.add(moves.join(' '));
    const o = classifyOpening(moves);
    if (o.ok) openings.set(o.value.code, (openings.get(o.value.code) ?? 0) + 1);
  }
  return { lines: lines.size, openings, plies: plies / games };
}

function variety(cl: { values: Record<string, unknown> }): number {
  const fail = (message: string): number => {
    process.stderr.write(`kirin book variety: ${message}\n`);
    return 2;
  };
  const book = openBook(cl.values);
  if (!book.ok) return fail(book.error.message);
  const games = integerOption(cl.values, 'games', 50, { min: 1 });
  const v = integerOption(cl.values, 'variety', 100, { min: 0, max: 100 });
  const seed = integerOption(cl.values, 'seed', 1, { min: 0 });
  for (const r of [games, v, seed]) if (!r.ok) return fail(r.error.message);
  if (!games.ok || !v.ok || !seed.ok) return 2;
  const r = bookVariety(book.value, games.value, v.value, mulberry32(seed.value));
  const top = [...r.openings.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  process.stdout.write(
    `${games.value} games, Book Variety ${v.value}, ${book.value.label()}: ${r.lines} different lines, ` +
      `${r.openings.size} different ECCO openings, ${r.plies.toFixed(1)} book plies a game\n` +
      top.map(([code, n]) => `${code} ${n}`).join(' ') +
      '\n',
  );
  return 0;
}

export function runBookCli(argv: string[]): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const command = cl.value.positionals[0];
  const values = cl.value.values as Record<string, unknown>;
  if (command === 'build') return build({ values, positionals: cl.value.positionals });
  if (command === 'probe') return probe({ values, positionals: cl.value.positionals });
  if (command === 'variety') return variety({ values });
  return reportCommandLine(SPEC, {
    code: 'arguments',
    message: `unknown command '${command}' (build, probe or variety)`,
  });
}
