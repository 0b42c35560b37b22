// Generates random games rich in repetitions and records the verdict of native
// Pikafish's rule_judge (ComputerRule) for them, through a small C++ harness
// (see docs/RULES.md, "Checking ComputerRule against Pikafish").
//
//   node dist/lab/rules/gen-computer-oracle.js <rulejudge-binary> <count> <seed> [verdicts] > out.tsv
//
// Output: one line per game (format below); with 'verdicts' only games with a win or loss
// by rule and a sample of the others are kept.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { legalMoves, moveToUci, Position, type Color } from '../../src/dev.js';
import { assignIds, chasedMask, idBoard } from '../../src/core/chase.js';
import { mulberry32 } from '../../src/core/prng.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLineOrExit, commandSpec } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';
import { exitWithError } from '../../toolkit/script.js';

const SPEC = commandSpec({
  name: 'gen-computer-oracle',
  usage:
    'usage: node dist/lab/rules/gen-computer-oracle.js <rulejudge-binary> [count=200] [seed=1] [verdicts] > out.tsv',
  options: {},
  positionals: { min: 1, max: 4 },
});
const [bin, countArg, seedArg, filterArg] = commandLineOrExit(process.argv.slice(2), SPEC).positionals;
const count = Number(countArg ?? 200);
const seed = Number(seedArg ?? 1);
if (!Number.isInteger(count) || count < 1) exitWithError(SPEC.name, `count ${countArg}: not a positive integer`, 2);
if (!Number.isInteger(seed)) exitWithError(SPEC.name, `seed ${seedArg}: not an integer`, 2);
if (filterArg !== undefined && filterArg !== 'verdicts')
  exitWithError(SPEC.name, `unexpected argument '${filterArg}' (only 'verdicts')`, 2);
const rnd = mulberry32(seed);

const here = join(repoRoot(), 'test', 'rules') + '/';
const fens = [
  ...new Set(
    readFileSync(join(repoRoot(), 'test', 'data', 'perft.tsv'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .slice(1)
      .map((l) => l.split('\t')[0]),
  ),
].map((f) => (f.split(' ').length < 3 ? f + ' - - 0 1' : f));
try {
  for (const l of readFileSync(here + 'oracle-fens.txt', 'utf8').split('\n'))
    if (l.trim() && !l.startsWith('#')) fens.push(l.trim());
} catch {
  /* optional */
}

const games = [];
for (let g = 0; g < count; g++) {
  let fen =
    rnd() < 0.3
      ? fens[Math.floor(rnd() * fens.length)]
      : fens[fens.length - 1 - Math.floor(rnd() * Math.min(35, fens.length))];
  if (rnd() < 0.3) {
    // A high rule-60 counter exercises the 60-move rule and its check exemption.
    const f = fen.split(' ');
    f[4] = String(80 + Math.floor(rnd() * 40));
    fen = f.join(' ');
  }
  const start = Position.fromFen(fen);
  if (!start.ok) exitWithError(SPEC.name, start.error.message);
  const pos = start.value;
  const moves = [];
  const len = 8 + Math.floor(rnd() * 60);
  const k = [4, 4, 4, 6, 8, 12][Math.floor(rnd() * 6)];
  const chaser = rnd() < 0.5 ? 0 : 1;
  for (let i = 0; i < len; i++) {
    const legal = legalMoves(pos);
    if (legal.length === 0) break;
    let m = 0;
    const r = rnd();
    if (moves.length >= 2 && r < 0.35) {
      const prev = moves[moves.length - 2];
      const back = ((prev & 127) << 7) | (prev >> 7);
      if (legal.includes(back)) m = back;
    } else if (moves.length >= k && r < 0.85) {
      const cand = moves[moves.length - k];
      if (legal.includes(cand)) m = cand;
    }
    if (!m && rnd() < 0.7) {
      // Bias towards chases: the chaser makes moves that attack something new,
      // the defender moves a piece that is attacked.
      assignIds(pos);
      const us = pos.side;
      const quiet = legal.filter((x) => !pos.isCapture(x));
      if (us === chaser) {
        const before = chasedMask(pos, us);
        const good = quiet.filter((x) => {
          pos.doMove(x);
          const a = chasedMask(pos, us);
          pos.undoMove(x);
          return (a & ~before) !== 0;
        });
        if (good.length) m = good[Math.floor(rnd() * good.length)];
      } else {
        const threatened = chasedMask(pos, (us ^ 1) as Color);
        const good = quiet.filter((x) => threatened & (1 << idBoard[x >> 7]));
        if (good.length) m = good[Math.floor(rnd() * good.length)];
      }
    }
    if (!m) {
      const quiet = legal.filter((x) => !pos.isCapture(x));
      const pool = quiet.length && rnd() < 0.9 ? quiet : legal;
      m = pool[Math.floor(rnd() * pool.length)];
    }
    pos.doMove(m);
    moves.push(m);
  }
  games.push({ fen, moves });
}

// One oracle query per game prefix (4 plies or more) and root distance (ply).
const PLIES = [0, 1, 7, 13];
const lines = [];
for (const { fen, moves } of games) {
  for (let n = 4; n <= moves.length; n++) {
    for (const ply of PLIES) if (ply <= n) lines.push(`${fen}|${moves.slice(0, n).map(moveToUci).join(' ')}|${ply}`);
  }
}
if (process.env.DUMP) writeFileSync(process.env.DUMP, lines.join('\n') + '\n');
const res = spawnSync(bin, { input: lines.join('\n') + '\n', maxBuffer: 1 << 28 });
if (res.error) exitWithError(SPEC.name, `${bin} did not run: ${res.error.message}`);
const out = res.stdout.toString().trim().split('\n');
if (out.length !== lines.length) exitWithError(SPEC.name, 'the oracle stopped early');
// Compact output, one line per game: fen, moves, then per ply a string with one
// character per prefix of 4.. plies: '.' no verdict, 'd' draw, 'W'/'L' win/loss
// for the side to move, 'w'/'l' a not yet final two-fold win/loss (hint), '-' n/a.
let k = 0;
let kept = 0;
for (const { fen, moves } of games) {
  const codes = PLIES.map(() => '');
  for (let n = 4; n <= moves.length; n++) {
    PLIES.forEach((ply, j) => {
      if (ply > n) {
        codes[j] += '-';
        return;
      }
      const [kind, value] = out[k++].split(' ');
      const v = Number(value);
      codes[j] += kind === 'final' ? (v === 0 ? 'd' : v > 0 ? 'W' : 'L') : v === 99999 ? '.' : v > 0 ? 'w' : 'l';
    });
  }
  const interesting = codes.some((c) => /[WLwl]/.test(c));
  if (filterArg === 'verdicts' && !interesting && rnd() > 0.15) continue;
  if (moves.length < 4) continue;
  kept++;
  console.log([fen, moves.map(moveToUci).join(' '), ...codes].join('\t'));
}
