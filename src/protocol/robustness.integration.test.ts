// The CI-sized runs of the robustness tools (each also runs long by hand):
//   lab/protocol/fuzz-protocol.ts  random and mutated command lines against one process
//   lab/protocol/soak.ts           self-play with the match runner: crashes, illegal
//                                    moves, time losses, memory
// (lab/protocol/uci-stress.ts runs from uci.integration.test.ts.)

import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { repoRoot } from '../../toolkit/files.js';

const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Runs a tool of lab/protocol/ (compiled) with --json and returns its summary (rejects on a non-zero exit). */
function runScript(name: string, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const c = execFile(
      process.execPath,
      [join(repoRoot(), 'dist', 'lab', 'protocol', name), ...args, '--json'],
      { maxBuffer: 1 << 24, cwd: repoRoot() },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${name} ${args.join(' ')}: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, unknown>);
      },
    );
    children.push(c);
  });
}

test('protocol fuzzer: 5,000 random and mutated lines; the engine never exits, replies stay well formed, isready answers', async () => {
  const s = await runScript('fuzz-protocol.js', ['--lines', '5000', '--seed', String(Date.now() % 100000)]);
  assert.equal(s.failure, null, JSON.stringify(s));
  assert.equal(s.lines, 5000);
  assert.deepEqual(s.malformed, []);
  assert.equal(s.stderr, '');
  assert.ok((s.bestmoves as number) > 0 && (s.readyoks as number) > 0);
});

test('soak: 24 games of self-play (2 at once): no crash, illegal move or time loss; memory does not grow', async () => {
  const s = await runScript('soak.js', ['--games', '24', '--tc', 'nodes=300', '--concurrency', '2', '--early', '8']);
  assert.deepEqual(s.problems, [], JSON.stringify(s));
  assert.equal(s.games, 24);
  assert.equal(s.crashes, 0);
  assert.equal(s.illegalMoves, 0);
  assert.equal(s.timeLosses, 0);
});
