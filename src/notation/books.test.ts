// The rule-book corpora (test/rules, docs/RULES.md) give each case's moves in
// the book's notation beside Kirin's UCI moves: the AXF book in WXF notation
// (Black in lower case: k6+1, c1=2), the Chinese rules in Chinese notation
// (马二退一 车9平8), TianTian's cases in Chinese with full-width digits. Read with
// the library, the book's moves must be the UCI moves the corpus plays.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { Position } from '../core/position.js';
import { moveToUci } from '../core/types.js';
import { repoRoot } from '../../toolkit/files.js';
import { parseMove, type Notation } from './move.js';

const RULES = resolve(repoRoot(), 'test', 'rules');

/** The UCI moves of `texts` played from `fen`, or the first one that cannot be read. */
function read(fen: string, texts: string[], notation: Notation): string[] | string {
  const start = Position.fromFen(fen);
  if (!start.ok) return start.error.message;
  const pos = start.value;
  const out: string[] = [];
  for (const t of texts) {
    const m = parseMove(pos, t, { notation });
    if (!m.ok) return m.error.message;
    out.push(moveToUci(m.value));
    pos.doMove(m.value);
  }
  return out;
}

for (const [book, notation] of [
  ['axf', 'wxf'],
  ['chinese', 'chinese'],
] as const) {
  test(`the ${book} book's cases: the book's ${notation} moves are the corpus's UCI moves`, () => {
    let cases = 0;
    for (const file of readdirSync(resolve(RULES, book)).filter((f) => f.endsWith('.txt'))) {
      for (const line of readFileSync(resolve(RULES, book, file), 'utf8').split('\n')) {
        if (line.trim() === '' || line.startsWith('#')) continue;
        const [id, fen, moves, uci] = line.split('\t');
        assert.deepEqual(read(fen, moves.trim().split(/\s+/), notation), uci.trim().split(/\s+/), `${file} ${id}`);
        cases++;
      }
    }
    assert.ok(cases >= (book === 'axf' ? 40 : 30), `${cases} cases`);
  });
}

test("TianTian's cases (Chinese, full-width digits) are the corpus's tiantian-N moves", () => {
  const corpus = new Map<string, string>();
  for (const l of readFileSync(resolve(RULES, 'corpus.txt'), 'utf8').split('\n')) {
    const [id, , uci] = l.split('\t');
    if (id?.startsWith('tiantian-')) corpus.set(id, uci);
  }
  const lines = readFileSync(resolve(RULES, 'tiantian.txt'), 'utf8').split('\n');
  let cases = 0;
  for (let i = 0; i < lines.length; i++) {
    const head = /^case (\d+) \|/.exec(lines[i]);
    if (!head) continue;
    const id = `tiantian-${head[1]}`;
    const uci = read(lines[i + 1].trim(), lines[i + 2].trim().split(/\s+/), 'chinese');
    assert.deepEqual(uci, corpus.get(id)?.split(' '), id);
    cases++;
  }
  assert.equal(cases, corpus.size);
  assert.ok(cases >= 30);
});
