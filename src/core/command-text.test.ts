import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkCommandFields, checkCommandText, shownText } from './command-text.js';

test('checkCommandText: printable text passes as it is; a control character is refused with the field, its name and offset', () => {
  for (const text of [
    '',
    '16',
    'Debug Log File',
    '/tmp/a b/c.log',
    'h2e2 h9g7',
    '帥 ♔ é',
    'tab-free text ~!@#$%^&*()',
  ]) {
    assert.deepEqual(checkCommandText('f', text), { ok: true, value: text });
  }
  for (const [text, what] of [
    ['16\nsetoption name Debug Log File value x', 'LF at offset 2'],
    ['a\rb', 'CR at offset 1'],
    ['\tx', 'TAB at offset 0'],
    ['x\u0000', 'NUL at offset 1'],
    ['\u001b[2J', 'ESC at offset 0'],
    ['x\u007f', 'DEL at offset 1'],
    ['x\u0085y', 'NEL at offset 1'],
    ['x\u009b', 'U+009B at offset 1'],
    ['x\u2028', 'U+2028 at offset 1'],
    ['x\u2029', 'U+2029 at offset 1'],
    ['\u000b', 'U+000B at offset 0'],
  ]) {
    const r = checkCommandText('option "Hash" value', text);
    assert.ok(!r.ok && r.error.code === 'command-text', JSON.stringify(text));
    assert.equal(
      r.error.message,
      `option "Hash" value: ${what} (control characters are not allowed in text sent to an engine; nothing was sent)`,
    );
  }
  // Every C0 and C1 control and DEL.
  for (let c = 0; c < 0xa0; c++) {
    const control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
    assert.equal(checkCommandText('f', `a${String.fromCharCode(c)}b`).ok, !control, `U+${c.toString(16)}`);
  }
  assert.equal(checkCommandText('f', 42 as unknown as string).ok, false, 'not text');
});

test('checkCommandFields: the first refused field, in order', () => {
  assert.deepEqual(
    checkCommandFields([
      ['a', 'x'],
      ['b', 'y'],
    ]),
    { ok: true, value: null },
  );
  const r = checkCommandFields([
    ['a', 'x'],
    ['b', 'y\n'],
    ['c', '\r'],
  ]);
  assert.ok(!r.ok && r.error.message.startsWith('b: LF at offset 1'));
});

test('shownText: quoted, control characters escaped, long text cut', () => {
  assert.equal(shownText('Hash'), '"Hash"');
  assert.equal(shownText('a\nb\u2028'), '"a\\nb\\u2028"');
  assert.equal(shownText('x'.repeat(100)), `"${'x'.repeat(60)}..."`);
});
