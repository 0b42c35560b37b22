// Plays one match from its command line's meaning (MatchArgs): the openings,
// the logs, the progress and the results as `kirin match` prints them.

import { appendFileSync, writeFileSync } from 'node:fs';
import type { MatchArgs } from './args.js';
import type { EngineLogger } from './uci-engine.js';
import { formatTimeControl } from './game.js';
import { thinkingLines } from './thinking.js';
import { endingsLine, runMatch, summaryLines, type MatchOutcome } from './match.js';
import { loadOpenings, shuffled, type Opening } from './openings.js';

/** What playMatch did: the exit code `kirin match` gives for it, and the match (null when none was played). */
export interface PlayedMatch {
  code: number;
  outcome: MatchOutcome | null;
}

/**
 * Plays the match `args` describes, printing its progress and results: the
 * body of `kirin match`, and of each match of `kirin match gauntlet`.
 * `interrupted` is polled between moves.
 */
export async function playMatch(
  args: MatchArgs,
  print: (line: string) => void,
  interrupted: () => boolean,
): Promise<PlayedMatch> {
  let openings: Opening[] = [];
  if (args.openingsFile) {
    const loaded = loadOpenings(args.openingsFile, args.rules);
    if (!loaded.ok) {
      process.stderr.write(`kirin match: ${loaded.error.message}\n`);
      return { code: 2, outcome: null };
    }
    openings = loaded.value;
    if (args.order === 'random') openings = shuffled(openings, args.seed);
  }
  const games = args.games ?? 2 * Math.max(1, openings.length);

  let gameLog: ((line: string) => void) | null = null;
  if (args.logFile) {
    const file = args.logFile;
    try {
      writeFileSync(file, '');
    } catch (e) {
      process.stderr.write(`kirin match: cannot write ${file}: ${(e as Error).message}\n`);
      return { code: 2, outcome: null };
    }
    gameLog = (line) => appendFileSync(file, line + '\n');
  }
  let engineLog: EngineLogger | null = null;
  if (args.debug) {
    const t0 = Date.now();
    const target = args.debug;
    if (typeof target === 'string') writeFileSync(target, '');
    engineLog = (engine, dir, line) => {
      const text = `${String(Date.now() - t0).padStart(7)} ${engine} ${dir} ${line}\n`;
      if (typeof target === 'string') appendFileSync(target, text);
      else process.stderr.write(text);
    };
  }

  const tcText = args.tc.map(formatTimeControl);
  print(
    `Match: ${games} games, tc ${tcText[0] === tcText[1] ? tcText[0] : `${tcText[0]} / ${tcText[1]}`}, concurrency ${args.concurrency}, ` +
      `${openings.length ? `${openings.length} openings from ${args.openingsFile}` : 'start position'}, ` +
      `rules ${args.rules.repetitionRule}/rule60=${args.rules.rule60MaxPly}/${args.repetitions}-fold`,
  );
  const out = await runMatch(
    {
      engines: [args.engines[0], args.engines[1]],
      tc: args.tc,
      games,
      concurrency: args.concurrency,
      openings,
      rules: args.rules,
      timeMarginMs: args.timeMarginMs,
      moveTimeoutMs: args.moveTimeoutMs,
      maxPlies: args.maxPlies,
      repetitions: args.repetitions,
      adjudication: args.adjudication,
      sprt: args.sprt,
      sprtModel: args.sprtModel,
      print,
      gameLog,
      engineLog,
      ratingInterval: args.ratingInterval,
      // Generous: a fresh engine on a loaded machine takes seconds to answer; one that never does still fails.
      startTimeoutMs: 60000,
    },
    interrupted,
  );
  if (out.error && out.stats.finished.length === 0) {
    process.stderr.write(`kirin match: ${out.error}\n`);
    return { code: 1, outcome: out };
  }
  print('');
  print(`Results${out.stoppedEarly ? ` (stopped after ${out.stats.finished.length} of ${games} games)` : ''}:`);
  for (const l of summaryLines(out.names, out.stats, args.sprt, args.sprtModel)) print(l);
  const endings = endingsLine(out.stats);
  if (endings) print(endings);
  const played = out.stats.finished.map((f) => ({
    red: f.record.redName,
    black: f.record.blackName,
    fen: f.game.opening.fen,
    openingMoves: f.game.opening.moves.length,
    thinking: f.record.thinking,
  }));
  for (const l of thinkingLines(played, out.names)) print(l);
  if (out.error) {
    process.stderr.write(`kirin match: ${out.error}\n`);
    return { code: 1, outcome: out };
  }
  return { code: 0, outcome: out };
}
