// `kirin judge` end to end: bin/kirin.js in a child process on a small PGN with
// a perpetual chase, under the Chinese rules.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { KIRIN_BIN } from '../../test/support/engine-process.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-judge-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// The rule book's 图14 in Chinese notation: the red pawn's attacks on the rook
// are idle (pawns may chase), the black rook's moves make the cannon behind it
// chase the red knight every time.
const GAME = `[Event "图14"]
[FEN "1rb1kacn1/4a4/2n1b2r1/p1C1pRP1p/2p6/9/PcP1P3P/N3C1N2/9/1RBAKAB2 w - - 0 1"]
[Result "1-0"]

1. 兵三平二 车8平7 2. 兵二平三 车7平8 3. 兵三平二 1-0
`;

test('kirin judge --rule ChineseRule: a perpetual chase, the chaser must change', async () => {
  const file = join(dir, 'fig14.pgn');
  writeFileSync(file, GAME);
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [KIRIN_BIN, 'judge', '--rule', 'ChineseRule', file],
    { timeout: 60_000 },
  );
  assert.equal(stderr, '');
  assert.equal(
    stdout,
    [
      `${file} game 1, judged under ChineseRule:`,
      'Plies 1-4 (moves 1-2) repeat the position after ply 0, a cycle of 4 plies under ChineseRule:',
      '  Red 兵三平二 is idle.',
      '  Black 车8平7 chases the red knight on g2 with the cannon on g9.',
      '  Red 兵二平三 is idle.',
      '  Black 车7平8 chases the red knight on g2 with the cannon on g9.',
      '  Red makes only idle moves.',
      '  Black chases on every move.',
      '  Black must change: a perpetual chase loses; red wins if Black repeats.',
      'The rules end the game after ply 4: red wins (perpetual chase).',
      "The record's result: 1-0.",
      '',
      '',
    ].join('\n'),
  );
});
