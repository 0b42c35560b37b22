// Helpers shared by the evaluation tests and the evaluation speed measurement:
// colour/file mirroring of FENs and positions sampled from random games.

import { generate } from '../core/movegen.js';
import { Position } from '../core/position.js';
import { GEN_LEGAL, MAX_MOVES } from '../core/types.js';

function swapCase(ch: string): string {
  const lo = ch.toLowerCase();
  return ch === lo ? ch.toUpperCase() : lo;
}

/**
 * The colour-flipped mirror of a FEN: ranks reversed, red and black swapped and
 * the other side to move (so the evaluation from the side to move is unchanged).
 */
export function mirrorFen(fen: string): string {
  const parts = fen.trim().split(/\s+/);
  const ranks = parts[0].split('/').reverse().map((r) => r.replace(/[a-zA-Z]/g, swapCase));
  parts[0] = ranks.join('/');
  parts[1] = parts[1] === 'b' ? 'w' : 'b';
  return parts.join(' ');
}

/** The FEN with files mirrored left to right (same colours, same side to move). */
export function flipFilesFen(fen: string): string {
  const parts = fen.trim().split(/\s+/);
  parts[0] = parts[0]
    .split('/')
    .map((r) => r.replace(/\d/g, (d) => '1'.repeat(Number(d))).split('').reverse().join('').replace(/1+/g, (ones) => String(ones.length)))
    .join('/');
  return parts.join(' ');
}

/** Small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * FENs of positions (side to move not in check) from random games: captures are
 * preferred half the time so that material gets traded and endgames show up too.
 */
export function randomPositions(count: number, seed = 1, maxPlies = 160): string[] {
  const rand = rng(seed);
  const out: string[] = [];
  const list = new Int32Array(MAX_MOVES);
  const pos = new Position();
  while (out.length < count) {
    pos.setFen('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
    const plies = 10 + Math.floor(rand() * maxPlies);
    for (let ply = 0; ply < plies && out.length < count; ply++) {
      const n = generate(pos, GEN_LEGAL, list, 0);
      if (n === 0) break;
      let m = list[Math.floor(rand() * n)];
      if (rand() < 0.5) {
        for (let i = 0; i < n; i++) {
          if (pos.isCapture(list[i])) {
            m = list[i];
            break;
          }
        }
      }
      pos.doMove(m);
      if (!pos.inCheck() && rand() < 0.15) out.push(pos.fen());
    }
  }
  return out;
}
