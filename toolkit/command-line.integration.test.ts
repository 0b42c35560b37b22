// Every tool on the one command-line reader (command-line.ts), run as a script: --help
// prints its usage, an unknown option is refused with exit code 2.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from './files.js';

// Every tool with a command line, run as a script (kirin match / datagen / tune through bin/kirin.js).
const SCRIPTS: readonly string[][] = [
  ['dist/lab/eval/selfplay.js'],
  ['dist/lab/eval/speed.js'],
  ['dist/lab/gui/check-pgn.js'],
  ['dist/commands/match/check-openings.js'],
  ['dist/commands/match/fairy-stockfish-uci.js'],
  ['dist/test/support/fake-engine.js'],
  ['dist/commands/match/ucci-uci.js'],
  ['dist/lab/nnue/kernel-bench.js'],
  ['dist/lab/nnue/load-bench.js'],
  ['dist/lab/nnue/make-net.js'],
  ['dist/lab/nnue/native-compare.js'],
  ['dist/lab/nnue/speed.js'],
  ['dist/lab/protocol/first-move-bench.js'],
  ['dist/lab/protocol/fuzz-protocol.js'],
  ['dist/lab/protocol/soak.js'],
  ['dist/lab/protocol/uci-stress.js'],
  ['dist/lab/rules/book-to-corpus.js'],
  ['dist/lab/rules/check-case.js'],
  ['dist/lab/rules/chinese-notation.js'],
  ['dist/lab/rules/gen-computer-oracle.js'],
  ['dist/lab/rules/wxf-notation.js'],
  ['dist/scripts/run-tests.js'],
  ['dist/lab/strength/elo-scale.js'],
  ['dist/lab/threads/scaling.js'],
  ['dist/lab/web/browser-speed.js'],
  ['dist/scripts/web/build.js'],
  ['dist/scripts/web/glyphs.js'],
  ['dist/scripts/web/serve.js'],
  ['bin/kirin.js', 'match'],
  ['bin/kirin.js', 'datagen'],
  ['bin/kirin.js', 'tune'],
  ['bin/kirin.js', 'train'],
  ['dist/commands/train/bench.js'],
  ['dist/commands/cluster/bench.js'],
  ['bin/kirin.js', 'cluster', 'worker'],
  ['bin/kirin.js', 'cluster', 'sprt'],
  ['bin/kirin.js', 'cluster', 'datagen'],
  ['bin/kirin.js', 'cluster', 'analyse'],
  ['bin/kirin.js', 'cluster', 'status'],
  ['bin/kirin.js', 'cluster', 'resume'],
  ['bin/kirin.js', 'cluster', 'cancel'],
];

/** Runs a script with arguments: its exit status and output. */
function run(
  script: readonly string[],
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const [file, ...sub] = script;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(repoRoot(), file), ...sub, ...args],
      { encoding: 'utf8', timeout: 60000 },
      (error, stdout, stderr) => resolve({ status: error ? (error.code as number | null) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

test('every tool answers --help with its usage and refuses an unknown option before running anything', async () => {
  // A few at a time: each start loads the product.
  const queue = [...SCRIPTS];
  const check = async (): Promise<void> => {
    for (let script = queue.shift(); script; script = queue.shift()) {
      const help = await run(script, ['--help']);
      assert.equal(help.status, 0, `${script.join(' ')} --help: ${help.stderr}`);
      assert.match(help.stdout, /^usage: /i, script.join(' '));
      const typo = await run(script, ['--gmaes', '3']);
      assert.equal(typo.status, 2, `${script.join(' ')} --gmaes: ${typo.stderr}`);
      assert.match(typo.stderr, /: Unknown option '--gmaes'\nusage: /i, script.join(' '));
    }
  };
  await Promise.all([check(), check(), check(), check()]);
});
