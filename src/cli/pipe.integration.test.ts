// Output to a closed pipe (`kirin convert FILE | head -1`): the command ends
// quietly with code 0, no EPIPE stack trace (bin/kirin.js).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { KIRIN_BIN } from '../../test/support/engine-process.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-pipe-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `kirin ARGS`, reads its first chunk of output, closes the pipe, and gives the exit code and stderr. */
function headOne(args: string[]): Promise<{ code: number | null; first: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KIRIN_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let first = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', (d: Buffer) => {
      first = d.toString().split('\n')[0];
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, first, stderr }));
  });
}

test('kirin convert and kirin opening to a pipe closed after the first line end quietly with 0', async () => {
  // 3,000 games: far more output than a pipe holds, so the writer meets the closed pipe.
  const game = '[Event "e"]\n[Red "r"]\n[Black "b"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 *\n\n';
  const file = join(dir, 'many.pgn');
  writeFileSync(file, game.repeat(3000));
  for (const args of [
    ['convert', '--notation', 'wxf', file],
    ['opening', file],
  ]) {
    const r = await headOne(args);
    assert.equal(r.code, 0, `kirin ${args[0]}: ${r.stderr}`);
    assert.equal(r.stderr, '', `kirin ${args[0]}`);
    assert.match(r.first, args[0] === 'convert' ? /^\[Game "Chinese Chess"\]$/ : /^C\d\d\t/);
  }
});
