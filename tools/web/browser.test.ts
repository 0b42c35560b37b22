// The page in a real browser: headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core; nothing is downloaded) opens the page from the
// local server, plays moves by clicking, waits for Kirin's replies, checks the
// position shown against the library, takes a move back, shows a FEN error,
// and saves a screenshot. Without /usr/bin/chromium the test is skipped (CI).
// The bundles are built into a temporary folder (tools/web/build.ts).

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Position } from '../../src/core/position.js';
import { legalMoves } from '../../src/core/movegen.js';
import { moveToUci } from '../../src/core/types.js';
import { playUciMoves } from '../../src/core/ucimove.js';
import { buildWeb } from './build.js';
import { serveWeb } from './serve.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A page expression: the move list has `n` moves (the test compiles without the DOM library). */
const moveCount = (n: number): string => `document.querySelectorAll('#moves li').length === ${n}`;

function fenAfter(moves: string[]): string {
  const pos = new Position();
  const r = playUciMoves(pos, moves);
  assert.ok(r.ok, `moves ${moves.join(' ')} are legal`);
  return pos.fen();
}

test(
  'the page: click moves, Kirin replies, take back, FEN errors, screenshot',
  {
    skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (Debian package chromium): browser test skipped`,
    timeout: 90_000,
  },
  async () => {
    const { chromium } = await import('playwright-core');
    const tmp = mkdtempSync(join(tmpdir(), 'kirin-web-'));
    const out = join(tmp, 'dist');
    await buildWeb(out);
    const { server, url } = await serveWeb({ port: 0, distDir: out });
    let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
    const errors: string[] = [];
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        // Playwright gives every launch a fresh temporary profile (user-data-dir).
        args: ARGS,
        timeout: 30_000,
      });
      const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await page.goto(url);
      await page.waitForSelector('body[data-ready="yes"]', { timeout: 20_000 });
      assert.equal(await page.evaluate('crossOriginIsolated'), true, 'the server makes the page cross-origin isolated');
      assert.equal(await page.isHidden('#fatal'), true);
      await page.fill('#movetime', '0.2');

      const moves = (): Promise<string[]> =>
        page.$$eval('#moves li', (lis) => lis.map((li) => li.getAttribute('data-uci') ?? ''));
      const shownFen = async (): Promise<string> => (await page.textContent('#fen'))!.trim();
      const click = (sq: string) => page.click(`.cell[data-square="${sq}"]`);

      // Red's cannon h2: selecting it highlights its legal targets (e2 among them), and only those.
      await click('h2');
      const targets = await page.$$eval('.cell.target', (cs) => cs.map((c) => c.getAttribute('data-square')));
      const start = new Position();
      const expected = legalMoves(start)
        .map(moveToUci)
        .filter((m) => m.startsWith('h2'))
        .map((m) => m.slice(2));
      assert.deepEqual([...targets].sort(), expected.sort());
      await click('e2');
      await page.waitForFunction(moveCount(2), null, { timeout: 20_000 });
      let played = await moves();
      assert.equal(played[0], 'h2e2');
      assert.equal(await shownFen(), fenAfter(played), 'the FEN shown is the position after both moves');
      assert.notEqual(await page.textContent('#pv'), '-', 'the search info is shown');

      // Two more moves of ours: the first legal move of each position, clicked.
      for (let n = 4; n <= 6; n += 2) {
        const pos = new Position();
        playUciMoves(pos, played);
        const m = moveToUci(legalMoves(pos)[0]);
        await click(m.slice(0, 2));
        await click(m.slice(2));
        await page.waitForFunction(moveCount(n), null, { timeout: 20_000 });
        played = await moves();
        assert.equal(played[n - 2], m);
        assert.equal(await shownFen(), fenAfter(played));
      }
      assert.match((await page.textContent('#status'))!, /Your move \(Red\)/);
      await page.screenshot({ path: join(tmp, 'kirin-web.png') });
      process.stdout.write(`# screenshot: ${join(tmp, 'kirin-web.png')}\n`);

      // Take back: our last move and Kirin's reply.
      await page.click('#takeback');
      await page.waitForFunction(moveCount(4), null, { timeout: 10_000 });
      assert.equal(await shownFen(), fenAfter(played.slice(0, 4)));

      // A bad FEN is refused with its error; the game stays.
      await page.fill('#fen-input', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w');
      await page.click('#fen-set');
      assert.notEqual((await page.textContent('#fen-error'))!.trim(), '');
      assert.equal(await shownFen(), fenAfter(played.slice(0, 4)));
      assert.deepEqual(errors, [], 'no errors in the page');
    } finally {
      await browser?.close();
      server.close();
      if (!process.env.KIRIN_KEEP_SCREENSHOT) rmSync(tmp, { recursive: true, force: true });
    }
  },
);
