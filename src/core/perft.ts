// Perft: counts the legal move paths to a given depth, with a per-move divide
// listing like Pikafish's `go perft N`. Bulk-counts the last ply.

import { countLegal, generate } from './movegen.js';
import type { Position } from './position.js';
import { GEN_LEGAL, MAX_MOVES, moveToUci, type Move } from './types.js';

const MAX_DEPTH = 64;

/** A reusable move buffer with room for one move list per ply. */
function makeBuffer(depth: number): Int32Array {
  return new Int32Array(MAX_MOVES * (Math.min(depth, MAX_DEPTH) + 2));
}

function perftRec(pos: Position, depth: number, buf: Int32Array, start: number): number {
  const end = generate(pos, GEN_LEGAL, buf, start);
  if (depth === 1) return end - start;
  let nodes = 0;
  if (depth === 2) {
    for (let i = start; i < end; i++) {
      const m = buf[i];
      pos.doMove(m);
      nodes += countLegal(pos, buf, end);
      pos.undoMove(m);
    }
    return nodes;
  }
  for (let i = start; i < end; i++) {
    const m = buf[i];
    pos.doMove(m);
    nodes += perftRec(pos, depth - 1, buf, end);
    pos.undoMove(m);
  }
  return nodes;
}

/** Number of legal move paths of length `depth` from `pos`. */
export function perft(pos: Position, depth: number): number {
  if (depth <= 0) return 1;
  pos.reserve(depth + 1);
  return perftRec(pos, depth, makeBuffer(depth), 0);
}

export interface DivideEntry {
  move: Move;
  uci: string;
  nodes: number;
}

/** Perft split by root move, in generation order (Pikafish's `go perft` listing). */
export function perftDivide(
  pos: Position,
  depth: number,
  onMove?: (e: DivideEntry) => void,
): { entries: DivideEntry[]; total: number } {
  const d = Math.max(1, depth);
  pos.reserve(d + 1);
  const buf = makeBuffer(d);
  const end = generate(pos, GEN_LEGAL, buf, 0);
  const entries: DivideEntry[] = [];
  let total = 0;
  for (let i = 0; i < end; i++) {
    const m = buf[i];
    let nodes = 1;
    if (d > 1) {
      pos.doMove(m);
      nodes = perftRec(pos, d - 1, buf, end);
      pos.undoMove(m);
    }
    total += nodes;
    const e = { move: m, uci: moveToUci(m), nodes };
    entries.push(e);
    onMove?.(e);
  }
  return { entries, total };
}

/** The text Pikafish prints for `go perft N`: "move: count" lines, then the total. */
export function perftReport(pos: Position, depth: number, write: (line: string) => void): number {
  const { total } = perftDivide(pos, depth, (e) => write(`${e.uci}: ${e.nodes}`));
  write('');
  write(`Nodes searched: ${total}`);
  write('');
  return total;
}
