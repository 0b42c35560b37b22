// Match configurations for the runner's own tests: two fake engines
// (fake-engine.ts, started with the running Node) at depth 1, quiet.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RULES } from '../../src/dev.js';
import { NO_ADJUDICATION, parseTimeControl } from '../../commands/match/game.js';
import type { MatchConfig } from '../../commands/match/match.js';

const fake = join(dirname(fileURLToPath(import.meta.url)), 'fake-engine.js');

/** The command that starts a fake engine with the arguments `args`. */
export function fakeEngineCommand(args: string): string {
  return `"${process.execPath}" "${fake}" ${args}`;
}

/**
 * A match of the fake engines started with `a` and `b`: depth 1 a move, 4 games one
 * at a time, no openings, no output, no logs; `extra` replaces any of it.
 */
export function fakeMatchConfig(a: string, b: string, extra: Partial<MatchConfig> = {}): MatchConfig {
  const depth1 = parseTimeControl('depth=1');
  if (!depth1.ok) throw new Error(depth1.error.message);
  return {
    engines: [
      { command: fakeEngineCommand(a), options: [] },
      { command: fakeEngineCommand(b), options: [] },
    ],
    tc: [depth1.value, depth1.value],
    games: 4,
    concurrency: 1,
    openings: [],
    rules: DEFAULT_RULES,
    timeMarginMs: 100,
    moveTimeoutMs: 5000,
    maxPlies: 300,
    repetitions: 3,
    adjudication: NO_ADJUDICATION,
    sprt: null,
    sprtModel: 'pentanomial',
    print: () => {},
    gameLog: null,
    engineLog: null,
    ratingInterval: 0,
    startTimeoutMs: 10000,
    ...extra,
  };
}
