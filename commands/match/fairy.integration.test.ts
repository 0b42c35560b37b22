// The Fairy-Stockfish wrapper (commands/match/fairy-stockfish-uci.ts): square
// translation, and one short game through the match runner when the
// fairy-stockfish-nnue.wasm dev dependency is installed.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UciEngine } from './uci-engine.js';
import { playRunnerGames } from '../../test/support/runner-games.js';
import { unwrap } from '../../test/support/fixtures.js';
import { fakeEngineCommand } from '../../test/support/fake-config.js';

const here = dirname(fileURLToPath(import.meta.url));
const wrapper = join(here, 'fairy-stockfish-uci.js');

interface Wrapper {
  toFairy(m: string): string;
  fromFairy(m: string): string;
  translateInput(l: string): string | null;
  translateOutput(l: string): string;
}

test('wrapper: ranks 0-9 <-> 1-10 in both directions', async () => {
  const w = (await import(wrapper)) as Wrapper;
  assert.equal(w.toFairy('h2e2'), 'h3e3');
  assert.equal(w.toFairy('a9a0'), 'a10a1');
  assert.equal(w.fromFairy('a10a1'), 'a9a0');
  assert.equal(w.fromFairy('h3e3'), 'h2e2');
  assert.equal(w.translateInput('position startpos moves h2e2 h9g7'), 'position startpos moves h3e3 h10g8');
  assert.equal(
    w.translateInput('position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e0e1'),
    'position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e1e2',
  );
  assert.equal(
    w.translateInput('go wtime 1000 btime 1000 searchmoves h2e2 b0c2'),
    'go wtime 1000 btime 1000 searchmoves h3e3 b1c3',
  );
  assert.equal(w.translateInput('setoption name Threads value 8'), 'setoption name Threads value 1');
  assert.equal(w.translateInput('setoption name UCI_Variant value chess'), null);
  assert.equal(w.translateOutput('bestmove h10g8 ponder h1g3'), 'bestmove h9g7 ponder h0g2');
  assert.equal(
    w.translateOutput('info depth 3 score cp 20 nodes 500 pv b1c3 h10g8 i1h1'),
    'info depth 3 score cp 20 nodes 500 pv b0c2 h9g7 i0h0',
  );
});

let hasFairy = true;
try {
  createRequire(import.meta.url).resolve('fairy-stockfish-nnue.wasm/stockfish.js');
} catch {
  hasFairy = false;
}

test(
  'Fairy-Stockfish plays legal xiangqi moves through the runner',
  { skip: hasFairy ? false : 'fairy-stockfish-nnue.wasm not installed' },
  async () => {
    const fsf = new UciEngine({ command: `"${process.execPath}" "${wrapper}"`, options: [['Hash', '8']] });
    const other = new UciEngine({ command: fakeEngineCommand('--mode random --seed 5'), options: [] });
    try {
      unwrap(await fsf.start(30000));
      unwrap(await other.start(10000));
      assert.equal(fsf.name, 'Fairy-Stockfish');
      // Every move is checked by the runner; an untranslated square would be an illegal move.
      await playRunnerGames(fsf, other, { moveTimeoutMs: 20000, minPlies: 2 });
    } finally {
      await fsf.quit();
      await other.quit();
    }
  },
);
