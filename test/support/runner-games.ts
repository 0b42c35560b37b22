// Test support for the engine wrappers' tests (ucci-uci.integration.test.ts, fairy.integration.test.ts):
// two short games through the match runner, one with each colour, that must end
// without an illegal move, a crash or a loss on time.

import assert from 'node:assert/strict';
import { DEFAULT_RULES } from '../../src/core/rules.js';
import { NO_ADJUDICATION, parseTimeControl, playGame } from '../../commands/match/game.js';
import { START_OPENING } from '../../commands/match/openings.js';
import type { UciEngine } from '../../commands/match/uci-engine.js';

export interface RunnerGamesOptions {
  /** How long the runner waits for one move before the engine forfeits. */
  moveTimeoutMs: number;
  /** The fewest plies each game must last (both games stop at 12 plies). */
  minPlies: number;
}

/**
 * Plays the start position at depth 2 for at most 12 plies twice, `a` with red
 * then with black, against `b` (both already started), and asserts each game's
 * termination: no illegal move (an untranslated move would be one), no crash,
 * no time loss, and at least `minPlies` plies played.
 */
export async function playRunnerGames(a: UciEngine, b: UciEngine, o: RunnerGamesOptions): Promise<void> {
  const tc = parseTimeControl('depth=2');
  assert.ok(tc.ok);
  for (const engines of [
    [a, b],
    [b, a],
  ] as Array<[UciEngine, UciEngine]>) {
    const played = await playGame({
      opening: START_OPENING,
      engines,
      tc: [tc.value, tc.value],
      rules: DEFAULT_RULES,
      timeMarginMs: 100,
      moveTimeoutMs: o.moveTimeoutMs,
      maxPlies: 12,
      adjudication: NO_ADJUDICATION,
    });
    assert.ok(played.ok, played.ok ? '' : played.error.message);
    const rec = played.value;
    assert.notEqual(rec.termination, 'illegal', rec.reason);
    assert.notEqual(rec.termination, 'crash', rec.reason);
    assert.notEqual(rec.termination, 'time', rec.reason);
    assert.ok(rec.moves.length >= o.minPlies, `${rec.moves.length} moves: ${rec.reason}`);
  }
}
