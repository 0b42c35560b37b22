// Perft against the reference table measured with native Pikafish
// (test/data/perft.tsv: 49 positions, depths 1-4, and the start position
// at depth 5, run only with KIRIN_SLOW=1), and divide consistency.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { legalMoves } from './movegen.js';
import { perft, perftDivide, perftReport } from './perft.js';
import { Position } from './position.js';
import { moveToUci } from './types.js';
import { perftTablePath, tableLines } from '../../test/support/fixtures.js';

interface Row {
  fen: string;
  depth: number;
  nodes: number;
}

/** Rows of test/data/perft.tsv. */
function loadTable(): Row[] {
  const file = perftTablePath();
  if (!existsSync(file)) {
    throw new Error(`perft reference table not found at ${file}`);
  }
  const lines = tableLines(readFileSync(file, 'utf8'));
  assert.deepEqual(lines[0].split('\t'), ['fen', 'depth', 'nodes'], `unexpected header in ${file}`);
  return lines.slice(1).map((l, i) => {
    const [fen, depth, nodes] = l.split('\t');
    const row = { fen, depth: Number(depth), nodes: Number(nodes) };
    assert.ok(fen && Number.isInteger(row.depth) && Number.isInteger(row.nodes), `bad line ${i + 2} in ${file}: ${l}`);
    return row;
  });
}

let table: Row[] = [];
let loadError: unknown = null;
try {
  table = loadTable();
} catch (e) {
  loadError = e;
}

const SLOW = process.env.KIRIN_SLOW === '1';
const MAX_FAST_DEPTH = 4;

describe('perft reference table', () => {
  it('the table is present and complete', () => {
    if (loadError) throw loadError;
    const fens = new Set(table.map((r) => r.fen));
    assert.equal(fens.size, 49);
    for (const f of fens) {
      const depths = table
        .filter((r) => r.fen === f)
        .map((r) => r.depth)
        .sort();
      assert.deepEqual(depths.slice(0, 4), [1, 2, 3, 4], f);
    }
  });

  const byFen = new Map<string, Row[]>();
  for (const r of table) {
    if (!byFen.has(r.fen)) byFen.set(r.fen, []);
    byFen.get(r.fen)!.push(r);
  }
  let index = 0;
  for (const [fen, rows] of byFen) {
    index++;
    const fast = rows.filter((r) => r.depth <= MAX_FAST_DEPTH);
    it(`#${index} ${fen} depths ${fast.map((r) => r.depth).join(',')}`, () => {
      const pos = new Position(fen);
      const before = pos.fen();
      for (const r of fast) assert.equal(perft(pos, r.depth), r.nodes, `perft ${r.depth} of ${fen}`);
      assert.equal(pos.fen(), before);
      assert.equal(pos.validate(), null);
    });
    for (const r of rows.filter((x) => x.depth > MAX_FAST_DEPTH)) {
      it(`#${index} ${fen} depth ${r.depth} (KIRIN_SLOW=1)`, { skip: SLOW ? false : 'set KIRIN_SLOW=1' }, () => {
        assert.equal(perft(new Position(fen), r.depth), r.nodes);
      });
    }
  }
});

describe('divide', () => {
  it('lists exactly the legal moves and sums to perft (every reference position, depth 2)', () => {
    if (loadError) throw loadError;
    for (const fen of new Set(table.map((r) => r.fen))) {
      const pos = new Position(fen);
      const { entries, total } = perftDivide(pos, 2);
      const legal = legalMoves(pos).map(moveToUci);
      assert.deepEqual(
        entries.map((e) => e.uci),
        legal,
        fen,
      ); // same moves, generation order
      assert.equal(new Set(legal).size, legal.length);
      assert.equal(
        total,
        entries.reduce((s, e) => s + e.nodes, 0),
      );
      assert.equal(total, table.find((r) => r.fen === fen && r.depth === 2)!.nodes, fen);
      for (const e of entries) {
        assert.equal(e.uci, moveToUci(e.move));
        pos.doMove(e.move);
        assert.equal(e.nodes, legalMoves(pos).length, `${fen} ${e.uci}`);
        pos.undoMove(e.move);
      }
    }
  });

  it('depth-3 divide entries equal perft 2 of each child; depth 1 counts one per move', () => {
    // A middlegame with checks and evasions from the reference set.
    const pos = new Position('3k1a3/2P1aP3/4b1n2/8C/6b2/1R5R1/9/9/1rcpr4/3c1K3 w');
    const d3 = perftDivide(pos, 3);
    assert.equal(d3.total, perft(pos, 3));
    for (const e of d3.entries) {
      pos.doMove(e.move);
      assert.equal(e.nodes, perft(pos, 2), e.uci);
      pos.undoMove(e.move);
    }
    const d1 = perftDivide(pos, 1);
    assert.ok(d1.entries.length > 0);
    assert.ok(d1.entries.every((e) => e.nodes === 1));
    assert.equal(d1.total, legalMoves(pos).length);
    assert.equal(perft(pos, 0), 1);
  });

  it('perftReport prints Pikafish-style lines', () => {
    const pos = new Position();
    const lines: string[] = [];
    const total = perftReport(pos, 2, (l) => lines.push(l));
    assert.equal(total, 1920);
    assert.equal(lines.length, 44 + 3);
    assert.match(lines[0], /^[a-i][0-9][a-i][0-9]: \d+$/);
    assert.deepEqual(lines.slice(-3), ['', 'Nodes searched: 1920', '']);
    const sum = lines.slice(0, 44).reduce((s, l) => s + Number(l.split(': ')[1]), 0);
    assert.equal(sum, 1920);
  });

  it('a position without legal moves has perft 0 at every depth', () => {
    const mate = new Position('4k4/9/9/9/3r5/9/9/9/9/3K5 w - - 0 1'); // rook d5 mates king d0

    assert.equal(legalMoves(mate).length, 0);
    for (let d = 1; d <= 4; d++) assert.equal(perft(mate, d), 0);
    assert.deepEqual(perftDivide(mate, 3), { entries: [], total: 0 });
  });
});
