// The progress bar: its text, redrawn in place on a terminal, whole lines elsewhere.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProgressBar, progressText } from './progress.js';

test('progressText: the bar, the count, the time taken and the time left', () => {
  assert.equal(progressText(0, 10, 0), `[${'.'.repeat(30)}] 0/10 positions  0:00, left --:--`);
  assert.equal(progressText(5, 10, 65_000), `[${'#'.repeat(15)}${'.'.repeat(15)}] 5/10 positions  1:05, left 1:05`);
  assert.equal(progressText(10, 10, 3_725_000, 'games'), `[${'#'.repeat(30)}] 10/10 games  1:02:05, left 0:00`);
});

test('ProgressBar: in place on a terminal (and a newline at the end), the first and last lines elsewhere', () => {
  const tty: string[] = [];
  const bar = new ProgressBar({ isTTY: true, write: (t: string) => tty.push(t) });
  for (let i = 1; i <= 3; i++) bar.update(i, 3);
  bar.end();
  assert.equal(tty.length, 4);
  assert.ok(tty.slice(0, 3).every((t) => t.startsWith('\r[') && !t.includes('\n')));
  assert.equal(tty[3], '\n');
  const file: string[] = [];
  const quiet = new ProgressBar({ write: (t: string) => file.push(t) });
  for (let i = 1; i <= 3; i++) quiet.update(i, 3);
  quiet.end();
  assert.deepEqual(
    file.map((t) => t.replace(/ {2}.*$/s, '')),
    [`[${'#'.repeat(10)}${'.'.repeat(20)}] 1/3 positions`, `[${'#'.repeat(30)}] 3/3 positions`],
  );
  assert.ok(file.every((t) => t.endsWith('\n') && !t.includes('\r')));
});
