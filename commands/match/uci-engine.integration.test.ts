// The engine wrapper's guard of command text, attacked with Kirin itself as the
// engine: its `Debug Log File` option writes every line of UCI traffic to the
// file it names, so text that smuggles `setoption name Debug Log File value F`
// past the wrapper leaves F behind. Each test checks that F does not exist, and
// first that the same engine does write F when it is asked properly (so a
// missing file means the guard held, not that nothing could have been written).

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { repoPath } from '../../toolkit/files.js';
import { checkEngineOptions, UciEngine, type EngineLogger } from './uci-engine.js';

const KIRIN = `"${process.execPath}" "${repoPath('bin', 'kirin.js')}"`;
const dir = mkdtempSync(join(tmpdir(), 'kirin-uci-engine-'));
const running: UciEngine[] = [];
after(async () => {
  await Promise.all(running.map((e) => e.quit()));
  rmSync(dir, { recursive: true, force: true });
});

async function kirin(log: EngineLogger | null = null): Promise<UciEngine> {
  const e = new UciEngine({ command: KIRIN, options: [] }, log);
  running.push(e);
  const r = await e.start(60000);
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  return e;
}

/** Line breaks and the other control characters an attacker may try, each with the name the error gives it. */
const BREAKS: Array<[string, string]> = [
  ['\n', 'LF'],
  ['\r', 'CR'],
  ['\r\n', 'CR'],
  ['\u0000', 'NUL'],
  ['\u000b', 'U+000B'],
  ['\u0085', 'NEL'],
  ['\u2028', 'U+2028'],
];

test('the control: Kirin writes its Debug Log File when asked through setOption', async () => {
  const e = await kirin();
  const file = join(dir, 'control.log');
  assert.ok(e.setOption('Debug Log File', file).ok);
  assert.equal(await e.isReady(60000), true);
  assert.ok(existsSync(file), 'the engine writes the file: the attacks below would leave one');
  assert.ok(e.setOption('Debug Log File', '').ok);
  assert.equal(await e.isReady(60000), true);
});

test('an option with a line break is refused before the engine starts: no process, no file', async () => {
  for (const [brk, name] of BREAKS) {
    const trap = join(dir, `start-${name}.log`);
    const injection = `${brk}setoption name Debug Log File value ${trap}`;
    for (const options of [
      [['Hash', `16${injection}`]],
      [[`Hash value 16${injection}`, '']],
      [
        ['Threads', '1'],
        ['Hash', `16${injection}`],
      ],
    ] as Array<Array<[string, string]>>) {
      const e = new UciEngine({ command: KIRIN, options });
      running.push(e);
      const r = await e.start(60000);
      assert.ok(!r.ok && r.error.code === 'command-text', JSON.stringify(options));
      assert.ok(r.error.message.includes(`: ${name} at offset `), r.error.message);
      assert.equal(e.pid, null, 'no process was started');
      assert.ok(!existsSync(trap), `${JSON.stringify(options)} wrote ${trap}`);
    }
  }
  const text = checkEngineOptions([['Hash', '16\nx']]);
  assert.ok(!text.ok && text.error.message.startsWith('option "Hash" value: LF at offset 2'));
  assert.ok(
    checkEngineOptions([
      ['Hash', '16'],
      ['Skill Level', '3'],
    ]).ok,
  );
});

test('on a running engine: setOption, go and send refuse control characters and send nothing of them', async () => {
  const sent: string[] = [];
  const e = await kirin((_engine, dir, line) => {
    if (dir === '>') sent.push(line);
  });
  for (const [brk, name] of BREAKS) {
    const trap = join(dir, `run-${name}.log`);
    const injection = `${brk}setoption name Debug Log File value ${trap}`;
    const set = e.setOption('Hash', `16${injection}`);
    assert.ok(!set.ok && set.error.code === 'command-text' && set.error.message.includes(name));
    const pos = await e.go(`position startpos moves h2e2${injection}`, 'go depth 1', 60000);
    assert.ok(pos.kind === 'crash' && pos.message.startsWith(`position command: ${name}`), JSON.stringify(pos));
    const fen = await e.go(
      `position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w${injection}`,
      'go depth 1',
      60000,
    );
    assert.ok(fen.kind === 'crash' && fen.message.startsWith(`position command: ${name}`));
    const go = await e.go('position startpos', `go depth 1${injection}`, 60000);
    assert.ok(go.kind === 'crash' && go.message.startsWith(`go command: ${name}`));
    assert.equal(e.send(`isready${injection}`), false);
    assert.equal(await e.isReady(60000), true, 'the engine is still there');
    assert.ok(!existsSync(trap), `${name}: ${trap} was written`);
  }
  assert.ok(e.alive);
  assert.ok(!sent.some((l) => l.includes('Debug Log File')), sent.join('\n'));
  // What did go through is a game as usual.
  const move = await e.go('position startpos', 'go depth 1', 60000);
  assert.equal(move.kind, 'move');
});
