#!/usr/bin/env node
// Evaluates every opening of an opening file with an engine (default:
// Fairy-Stockfish through commands/match/fairy-stockfish-uci.ts) and prints the score
// from red's point of view, flagging unbalanced lines. Build first (`npm run build`):
//
//   node dist/commands/match/check-openings.js [FILE] [--depth D] [--limit CP] [--engine CMD]
//
// Output: one line per opening: "<cp> <line>", with "!!" when |cp| > limit.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';
import { loadOpenings } from './openings.js';
import { UciEngine } from './uci-engine.js';

const root = repoRoot();
const cl = scriptCommandLine(
  process.argv.slice(2),
  commandSpec({
    name: 'check-openings',
    usage: 'usage: node dist/commands/match/check-openings.js [FILE] [--depth D] [--limit CP] [--engine CMD]',
    options: { depth: { type: 'string' }, limit: { type: 'string' }, engine: { type: 'string' } },
    positionals: { max: 1 },
  }),
);
const file = cl.positionals[0] ?? join(root, 'data/openings/openings.txt');
const depth = cl.integer('depth', 10, { min: 1 });
const limit = cl.number('limit', 100, { min: 0 });
const engine = cl.string('engine', `node ${join(dirname(fileURLToPath(import.meta.url)), 'fairy-stockfish-uci.js')}`);

const loaded = loadOpenings(file);
if (!loaded.ok) {
  process.stderr.write(`check-openings: ${loaded.error.message}\n`);
  process.exit(2);
}
const openings = loaded.value;
const eng = new UciEngine({ command: engine, options: [] });
const started = await eng.start(20000);
if (!started.ok) {
  process.stderr.write(`check-openings: ${started.error.message}\n`);
  process.exit(1);
}
let bad = 0;
for (const o of openings) {
  const base = o.fen ? `position fen ${o.fen}` : 'position startpos';
  const cmd = o.moves.length ? `${base} moves ${o.moves.join(' ')}` : base;
  await eng.newGame();
  const r = await eng.go(cmd, `go depth ${depth}`, 120000);
  if (r.kind !== 'move' || !r.score) {
    console.log(`?? ${o.line}: no score (${r.kind})`);
    continue;
  }
  // Score is from the side to move; black is to move after an odd number of plies from the start position.
  const blackToMove = (o.fen ? / b\b/.test(o.fen) : false) !== (o.moves.length % 2 === 1);
  const red = blackToMove ? -r.score.value : r.score.value;
  const flag = Math.abs(red) > limit ? ' !!' : '';
  if (flag) bad++;
  console.log(
    `${String(red).padStart(6)} line ${String(o.line).padStart(3)}: ${o.moves.join(' ')}${o.name ? ` # ${o.name}` : ''}${flag}`,
  );
}
console.log(`${openings.length} openings, ${bad} with |score| > ${limit} cp at depth ${depth}`);
await eng.quit();
