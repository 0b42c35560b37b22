// `kirin puzzles build`: finds puzzles in game files with the engine
// (docs/PUZZLES.md) and writes a puzzle set.
//
//   kirin puzzles build --out FILE [--target N] [--threads N] [--scan-plies N] [--scan-nodes N]
//                       [--verify-nodes N] [--max-mate N] [--encoding NAME] [--name TEXT]
//                       FILE|DIR|SELFPLAY.kc ...
//
// The games are read in the order given (a directory: its .pgn and .xqf files
// by name; a .kc file: Kirin's self-play games, docs/DATAGEN.md), each scanned by one engine of one search thread (--threads engines
// side by side); the candidates each game gives are checked (src/puzzles/find.ts).
// With --target, no new game is started once that many puzzles are found, and
// the set ends with the game that reached it: the same files and options give
// the same set whatever --threads. Progress and the rejections by reason go to
// stderr.

import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  Engine,
  mainLine,
  moveToUci,
  Position,
  prepareNetworkDecoder,
  writePuzzles,
  type Game,
  type Puzzle,
} from '../../src/dev.js';
import { EXIT_NOTHING, EXIT_PARTIAL, encodingOption, gameFilesIn, loadGameFile } from '../../src/cli/game-files.js';
import { yearOf } from '../../src/explorer/build.js';
import { REJECTIONS, findPuzzle, scanGame, type Rejection } from '../../src/puzzles/find.js';
import { readChainEntries } from '../datagen/chain.js';
import { commandSpec, integerOption, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { setStart } from '../datagen/chain-codec.js';

const USAGE = `usage: kirin puzzles build --out FILE [--target N] [--threads N] [--scan-plies N]
                           [--scan-nodes N] [--verify-nodes N] [--max-mate N]
                           [--encoding NAME] [--name TEXT] FILE|DIR|SELFPLAY.kc ...

build   scans the last --scan-plies (24) positions of every game of the files
        (PGN in any notation and encoding, XQF; a directory: every .pgn and .xqf
        below it; a .kc file: Kirin's self-play games; a game from a set-up
        position whole) with --scan-nodes (1500)
        searches, checks each candidate (a position just turned clearly won, or
        a mate) with --verify-nodes (100000) searches of the best two moves at
        every move of the solver, and writes the puzzles found: one move wins,
        a mate of at most --max-mate (5) moves or a decisive gain no other move
        makes. --target N: stop after the game that brings N puzzles.
        --threads: engines of one search thread side by side (default 1).
`;

const SPEC = commandSpec({
  name: 'kirin puzzles',
  usage: USAGE,
  options: {
    out: { type: 'string' },
    target: { type: 'string' },
    threads: { type: 'string' },
    'scan-plies': { type: 'string' },
    'scan-nodes': { type: 'string' },
    'verify-nodes': { type: 'string' },
    'max-mate': { type: 'string' },
    encoding: { type: 'string' },
    name: { type: 'string' },
  },
  positionals: { min: 1 },
});

/** A game to scan with where it came from. */
interface SourceGame {
  index: number;
  fen: string | null;
  moves: string[];
  source: (ply: number) => string;
}

/** "许银川 - 吕钦, 全国赛 1999, move 23 (Black)" */
function describe(game: Game, file: string, n: number): (ply: number) => string {
  const tag = (k: string): string => game.headers[k]?.trim() ?? '';
  const players = tag('Red') || tag('Black') ? `${tag('Red') || '?'} - ${tag('Black') || '?'}` : '';
  const year = yearOf(tag('Date'));
  const event = [tag('Event'), year === null ? '' : String(year)].filter((x) => x).join(' ');
  const where = [players, event].filter((x) => x).join(', ') || `${basename(file)} game ${n}`;
  return (ply) => `${where}, move ${1 + (ply >> 1)}`;
}

/** The games of a self-play chain file (docs/DATAGEN.md): each one's start and moves; a damaged file is a problem. */
function selfplayGames(path: string, problems: string[]): { n: number; fen: string; moves: string[] }[] {
  const entries = readChainEntries(path);
  if (!entries.ok) {
    problems.push(`${path}: ${entries.error.message}`);
    return [];
  }
  const out: { n: number; fen: string; moves: string[] }[] = [];
  let n = 0;
  for (const e of entries.value) {
    if (e.kind !== 'game' || e.records) continue;
    n++;
    const start = setStart(new Position(), e.start);
    if (!start.ok) continue;
    out.push({ n, fen: start.value.fen(), moves: Array.from(e.moves, moveToUci) });
  }
  return out;
}

/** A 32-bit FNV-1a hash of a text, as 8 hex digits: the puzzle's id, stable across builds. */
function hashId(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

async function build(values: Record<string, unknown>, paths: readonly string[]): Promise<number> {
  const fail = (message: string): number => {
    process.stderr.write(`kirin puzzles build: ${message}\n`);
    return EXIT_NOTHING;
  };
  const out = values.out;
  if (typeof out !== 'string' || out === '') return fail('--out FILE is required');
  const ints = {
    target: integerOption(values, 'target', 0, { min: 0 }),
    threads: integerOption(values, 'threads', 1, { min: 1, max: 64 }),
    scanPlies: integerOption(values, 'scan-plies', 24, { min: 1, max: 400 }),
    scanNodes: integerOption(values, 'scan-nodes', 1500, { min: 1 }),
    verifyNodes: integerOption(values, 'verify-nodes', 100000, { min: 1 }),
    maxMate: integerOption(values, 'max-mate', 5, { min: 1, max: 20 }),
  };
  for (const r of Object.values(ints)) if (!r.ok) return fail(r.error.message);
  const num = (k: keyof typeof ints): number => {
    const r = ints[k];
    return r.ok ? r.value : 0;
  };
  const encoding = encodingOption(typeof values.encoding === 'string' ? values.encoding : undefined);
  if (!encoding.ok) return fail(encoding.error.message);
  const textEncoding = encoding.value;
  const files: string[] = [];
  for (const p of paths) {
    try {
      files.push(...(p.endsWith('.kc') ? [p] : gameFilesIn(p)));
    } catch (e) {
      return fail(`${p}: ${(e as Error).message}`);
    }
  }
  if (files.length === 0) return fail('no game files given');

  // The games, read as they are needed; a game repeating an earlier one (start and moves) is skipped.
  let code = 0;
  const problems: string[] = [];
  const seenGames = new Set<string>();
  let fileAt = 0;
  const pending: SourceGame[] = [];
  let index = 0;
  const nextGame = (): SourceGame | null => {
    while (pending.length === 0 && fileAt < files.length) {
      const f = files[fileAt++];
      if (f.endsWith('.kc')) {
        for (const g of selfplayGames(f, problems)) {
          const key = `${g.fen}|${g.moves.join(' ')}`;
          if (seenGames.has(key)) continue;
          seenGames.add(key);
          const n = g.n;
          pending.push({
            index: index++,
            fen: g.fen,
            moves: g.moves,
            source: (ply) => `Kirin self-play, ${basename(f)} game ${n}, move ${1 + (ply >> 1)}`,
          });
        }
        continue;
      }
      const read = loadGameFile(f, textEncoding);
      if (!read.ok) {
        problems.push(read.error.message);
        code = EXIT_NOTHING;
        continue;
      }
      read.value.games.forEach((g, i) => {
        if (!g.ok) {
          problems.push(read.value.kind === 'xqf' ? g.error.message : `${f}: ${g.error.message}`);
          code = Math.max(code, EXIT_PARTIAL);
          return;
        }
        const moves = mainLine(g.value).map(moveToUci);
        const key = `${g.value.fen}|${moves.join(' ')}`;
        if (seenGames.has(key)) return;
        seenGames.add(key);
        pending.push({ index: index++, fen: g.value.fen, moves, source: describe(g.value, f, i + 1) });
      });
    }
    const g = pending.shift();
    return g ?? null;
  };

  await prepareNetworkDecoder();
  const engines = Array.from({ length: num('threads') }, () => new Engine());
  const found: { game: number; ply: number; puzzle: Omit<Puzzle, 'id'> }[] = [];
  const rejected = new Map<Rejection, number>();
  const seenPositions = new Set<string>();
  let scanned = 0;
  let candidates = 0;
  let stop = false;
  const started = Date.now();
  const report = (): void => {
    const why = [...rejected.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
    process.stderr.write(
      `kirin puzzles build: ${scanned} games, ${candidates} candidates, ${found.length} puzzles, ` +
        `rejected: ${why || 'none'} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
    );
  };
  let lastReport = Date.now();
  const work = async (engine: Engine): Promise<void> => {
    for (let g = stop ? null : nextGame(); g !== null; g = stop ? null : nextGame()) {
      const cands = await scanGame(
        engine,
        { fen: g.fen, moves: g.moves },
        { plies: num('scanPlies'), nodes: num('scanNodes') },
      );
      // A candidate on the line of a puzzle found earlier in the game is that puzzle again.
      let coveredTo = -1;
      for (const c of cands.sort((a, b) => a.ply - b.ply)) {
        if (c.ply <= coveredTo) continue;
        const board = c.fen.split(' ').slice(0, 2).join(' ');
        if (seenPositions.has(board)) continue;
        seenPositions.add(board);
        candidates++;
        const r = await findPuzzle(engine, c.fen, { verifyNodes: num('verifyNodes'), maxMate: num('maxMate') });
        if (r.ok) {
          found.push({ game: g.index, ply: c.ply, puzzle: { ...r.value, source: g.source(c.ply) } });
          coveredTo = c.ply + r.value.moves.length;
        } else rejected.set(r.error.code, (rejected.get(r.error.code) ?? 0) + 1);
      }
      scanned++;
      if (num('target') > 0 && found.length >= num('target')) stop = true;
      if (Date.now() - lastReport > 30000) {
        lastReport = Date.now();
        report();
      }
    }
  };
  try {
    await Promise.all(engines.map(work));
  } finally {
    await Promise.all(engines.map((e) => e.close()));
  }
  report();
  // In the games' order; with --target, up to the game that reached it (every game before it was scanned).
  found.sort((a, b) => a.game - b.game || a.ply - b.ply);
  let kept = found;
  if (num('target') > 0 && found.length > num('target')) {
    const last = found[num('target') - 1].game;
    kept = found.filter((f) => f.game <= last);
  }
  const puzzles: Puzzle[] = kept.map((f) => ({ id: hashId(`${f.puzzle.fen} ${f.puzzle.moves[0]}`), ...f.puzzle }));
  const name = typeof values.name === 'string' ? values.name : basename(out);
  const text = writePuzzles({
    description: {
      name,
      scanned,
      candidates,
      puzzles: puzzles.length,
      rejected: Object.fromEntries([...rejected.entries()].sort()),
      scanPlies: num('scanPlies'),
      scanNodes: num('scanNodes'),
      verifyNodes: num('verifyNodes'),
      maxMate: num('maxMate'),
    },
    puzzles,
  });
  try {
    writeFileSync(out, text);
  } catch (e) {
    return fail(`cannot write ${out}: ${(e as Error).message}`);
  }
  for (const p of problems.slice(0, 20)) process.stderr.write(`kirin puzzles build: ${p}\n`);
  if (problems.length > 20)
    process.stderr.write(`kirin puzzles build: ... and ${problems.length - 20} more problems\n`);
  const themes = new Map<string, number>();
  for (const p of puzzles) for (const t of p.themes) themes.set(t, (themes.get(t) ?? 0) + 1);
  process.stdout.write(
    `${out}: ${puzzles.length} puzzles (${[...themes].map(([t, n]) => `${t} ${n}`).join(', ')}) from ${scanned} games, ` +
      `${candidates} candidates; rejected: ${[...rejected].map(([k, v]) => `${v} ${REJECTIONS[k]}`).join('; ') || 'none'}\n`,
  );
  return code;
}

export async function runPuzzlesCli(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const [command, ...rest] = cl.value.positionals;
  if (command === 'build') return build(cl.value.values as Record<string, unknown>, rest);
  return reportCommandLine(SPEC, { code: 'arguments', message: `unknown command '${command}' (build)` });
}
