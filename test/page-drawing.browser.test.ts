// The page draws everywhere, in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core): the pieces and the river are the page's own SVG
// shapes, not text, so they look the same on a machine without CJK fonts (as
// this test's machines are: it prints what `fc-list :lang=zh` finds). Each of
// the fourteen pieces and each river character is photographed and must show
// ink of its own: empty disks, or the one "missing glyph" box that a font
// without the character draws for all of them, fail. Then the page at phone
// width (the board scales, taps play a move), and what it says in a page that is
// not cross-origin isolated and in a browser without WebAssembly. Skipped where
// /usr/bin/chromium is absent.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildWeb } from '../scripts/web/build.js';
import { CHROMIUM, launchChromium } from '../lab/web/chromium.js';
import { decodePng, type Pixels } from './support/png.js';
import { serveWeb } from '../scripts/web/serve.js';
import { piecesShown, showTab, squarePoint, startGame, tapSquare } from './support/board.js';

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (Debian package chromium): browser test skipped`;

let tmp = '';
let out = '';
let server: Server | undefined;
let url = '';
let browser: Browser | undefined;

before(async () => {
  if (skip) return;
  tmp = mkdtempSync(join(tmpdir(), 'kirin-page-'));
  out = join(tmp, 'dist');
  await buildWeb(out);
  ({ server, url } = await serveWeb({ port: 0, distDir: out }));
  browser = await launchChromium();
  const fonts = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
  const cjk = fonts.status === 0 ? fonts.stdout.trim().split('\n').filter(Boolean).length : 'unknown (no fc-list)';
  process.stdout.write(`# CJK fonts on this machine (fc-list :lang=zh): ${cjk}\n`);
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Opens the page in a fresh context; page errors and console errors are collected in `errors`. */
async function open(
  b: Browser,
  base: string,
  opts: { width: number; height: number; phone?: boolean; noServiceWorker?: boolean },
): Promise<{ page: Page; errors: string[] }> {
  const context = await b.newContext({
    viewport: { width: opts.width, height: opts.height },
    locale: 'en-US',
    isMobile: opts.phone === true,
    hasTouch: opts.phone === true,
    serviceWorkers: opts.noServiceWorker === true ? 'block' : 'allow',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(base);
  await page.waitForSelector('body[data-ready="yes"]', { timeout: 30_000 });
  return { page, errors };
}

/** RGB of a CSS colour in hex. */
const rgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as never;

/**
 * Where a box of the picture (fractions of its width and height) differs from
 * `ground`: a `grid` x `grid` sampling, true where the pixel's colour is more
 * than 90 (sum over R, G, B) from the ground colour.
 */
function inkMask(p: Pixels, box: { x: number; y: number; w: number; h: number }, ground: string, grid = 40): boolean[] {
  const [r0, g0, b0] = rgb(ground);
  const mask: boolean[] = [];
  for (let gy = 0; gy < grid; gy++)
    for (let gx = 0; gx < grid; gx++) {
      const x = Math.floor((box.x + (box.w * (gx + 0.5)) / grid) * p.width);
      const y = Math.floor((box.y + (box.h * (gy + 0.5)) / grid) * p.height);
      const i = (y * p.width + x) * 4;
      mask.push(Math.abs(p.rgba[i] - r0) + Math.abs(p.rgba[i + 1] - g0) + Math.abs(p.rgba[i + 2] - b0) > 90);
    }
  return mask;
}
/** The mean colour of the ink (pixels more than 90 from the ground) in a box of the picture. */
function inkColour(p: Pixels, box: { x: number; y: number; w: number; h: number }, ground: string): number[] {
  const [r0, g0, b0] = rgb(ground);
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.floor(box.y * p.height); y < (box.y + box.h) * p.height; y++)
    for (let x = Math.floor(box.x * p.width); x < (box.x + box.w) * p.width; x++) {
      const i = (y * p.width + x) * 4;
      const [r, g, b] = [p.rgba[i], p.rgba[i + 1], p.rgba[i + 2]];
      if (Math.abs(r - r0) + Math.abs(g - g0) + Math.abs(b - b0) <= 90) continue;
      sum[0] += r;
      sum[1] += g;
      sum[2] += b;
      n++;
    }
  return sum.map((v) => Math.round(v / Math.max(n, 1)));
}
const inkShare = (m: boolean[]): number => m.filter(Boolean).length / m.length;
const difference = (a: boolean[], b: boolean[]): number => a.filter((v, i) => v !== b[i]).length / a.length;

/** Checks that every picture has ink and that no two look alike. */
function assertDistinctInk(masks: Map<string, boolean[]>, minInk: number, minDifference: number): void {
  for (const [name, m] of masks) assert.ok(inkShare(m) >= minInk, `${name}: ink ${inkShare(m).toFixed(3)} < ${minInk}`);
  const names = [...masks.keys()];
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++) {
      const d = difference(masks.get(names[i])!, masks.get(names[j])!);
      assert.ok(d >= minDifference, `${names[i]} and ${names[j]} look alike (${(d * 100).toFixed(1)}% differ)`);
    }
}

/** The start position's square of each piece type, red then black (a0 rook ... a3 pawn). */
const PIECE_SQUARES: Record<string, string> = {
  'red rook': 'a0',
  'red knight': 'b0',
  'red bishop': 'c0',
  'red advisor': 'd0',
  'red king': 'e0',
  'red cannon': 'b2',
  'red pawn': 'a3',
  'black rook': 'a9',
  'black knight': 'b9',
  'black bishop': 'c9',
  'black advisor': 'd9',
  'black king': 'e9',
  'black cannon': 'b7',
  'black pawn': 'a6',
};

test(
  'every piece and river character is drawn, each its own shape, with no text and no font',
  { skip, timeout: 90_000 },
  async () => {
    const { page, errors } = await open(browser!, url, { width: 1100, height: 800 });
    try {
      // Nothing on the board is text (the coordinates beside it are): no font can be missing.
      assert.equal(await page.$eval('#board cg-board', (b) => (b.textContent ?? '').trim()), '');
      assert.equal(await page.$$eval('#board text', (t) => t.length), 0);
      const shown = await piecesShown(page);
      const board = (await page.locator('#board cg-board').boundingBox())!;
      const cell = board.width / 9;
      for (const set of ['traditional', 'simplified']) {
        // Each piece set draws every piece its own way.
        await showTab(page, 'settings');
        await page.selectOption('#piece-set', set);
        assert.equal(await page.getAttribute('#board', 'data-pieces'), set);
        const pieces = { red: new Map<string, boolean[]>(), black: new Map<string, boolean[]>() };
        for (const [name, sq] of Object.entries(PIECE_SQUARES)) {
          assert.equal(shown.get(sq), name, sq);
          const c = await squarePoint(page, sq);
          const shot = decodePng(
            await page.screenshot({ clip: { x: c.x - cell / 2, y: c.y - cell / 2, width: cell, height: cell } }),
          );
          // The middle of the disk, inside its inner ring, against the disk's colour.
          const box = { x: 0.3, y: 0.3, w: 0.4, h: 0.4 };
          const side = name.startsWith('red') ? 'red' : 'black';
          pieces[side].set(`${set} ${name}`, inkMask(shot, box, '#fdf3dc'));
          // Red's characters are red, Black's black (the simplified set writes 车 马 炮 for both).
          const [r, g, b] = inkColour(shot, box, '#fdf3dc');
          if (side === 'red') assert.ok(r > g + 60 && r > b + 60, `${set} ${name}: ink ${r},${g},${b} is red`);
          else assert.ok(r < 110 && g < 110 && b < 110, `${set} ${name}: ink ${r},${g},${b} is black`);
        }
        // Each side's seven characters differ from each other.
        assertDistinctInk(pieces.red, 0.1, 0.08);
        assertDistinctInk(pieces.black, 0.1, 0.08);
      }
      // (A character covers a good part of the disk's middle; an empty disk none. Two
      // different characters differ in many places; a missing-glyph box is the same for all.)
      // The river: 楚河 汉界 in a 900 x 1000 board, each character 70 units wide around (x, 500).
      // Only the board: no piece, no arrow on it.
      await page.evaluate(
        "document.querySelectorAll('#board piece, #arrows').forEach((e) => (e.style.visibility = 'hidden'))",
      );
      const picture = decodePng(await page.locator('#board cg-board').screenshot());
      const river = new Map<string, boolean[]>();
      for (const [name, cx] of [
        ['楚', 210],
        ['河', 320],
        ['漢', 580],
        ['界', 690],
      ] as const)
        river.set(name, inkMask(picture, { x: (cx - 35) / 900, y: 465 / 1000, w: 70 / 900, h: 70 / 1000 }, '#e8c98c'));
      assertDistinctInk(river, 0.1, 0.08);
      // The glyphs' licence is served beside the page.
      const licence = await page.evaluate<string>("fetch('glyphs-OFL.txt').then((r) => r.text())");
      assert.match(licence, /SIL OPEN FONT LICENSE Version 1\.1/);
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);

test('at phone width the board fits the screen and taps play a move', { skip, timeout: 90_000 }, async () => {
  const width = 360;
  const { page, errors } = await open(browser!, url, { width, height: 740, phone: true });
  try {
    const box = (await page.locator('#board').boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= width, `the board (${box.x} + ${box.width}) fits ${width} px`);
    assert.ok(box.width >= width - 40, `the board uses the width: ${box.width} px`);
    assert.ok(
      Math.abs(box.height / box.width - 10 / 9) < 0.03,
      `the board keeps its shape: ${box.width} x ${box.height}`,
    );
    // Nothing sticks out sideways.
    assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= width);
    const cell = box.width / 9;
    assert.ok(cell >= 32, `a cell is a finger's size: ${cell} px`);
    await startGame(page, '0.2s');
    await tapSquare(page, 'h2');
    // chessgroundx draws the selection at its next frame.
    await page.waitForSelector('#board square.move-dest', { timeout: 5_000 }).catch(() => null);
    assert.ok((await page.$$('#board square.move-dest')).length > 0, 'a tap selects the cannon');
    await tapSquare(page, 'e2');
    await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length === 2", null, {
      timeout: 30_000,
    });
    assert.equal(await page.getAttribute('#moves .move[data-ply="1"]', 'data-uci'), 'h2e2');
    assert.equal(await page.isHidden('#fatal'), true);
    assert.equal(await page.isHidden('#notice'), true);
    assert.deepEqual(errors, []);
  } finally {
    await page.context().close();
  }
});

test('a page that is not cross-origin isolated says why Kirin cannot search', { skip, timeout: 60_000 }, async () => {
  // A host without the headers, and a browser that gives the page no service worker to add them
  // (test/pwa.browser.test.ts: with one, the page isolates itself).
  const plain = await serveWeb({ port: 0, distDir: out, isolated: false });
  try {
    const { page } = await open(browser!, plain.url, { width: 1100, height: 800, noServiceWorker: true });
    try {
      assert.equal(await page.evaluate('crossOriginIsolated'), false);
      assert.equal(await page.isVisible('#fatal'), true);
      const said = (await page.textContent('#fatal')) ?? '';
      assert.match(said, /not cross-origin isolated/);
      assert.match(said, /Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp/);
      await page.waitForSelector('#isolation', { timeout: 10_000 });
      assert.match((await page.textContent('#isolation')) ?? '', /gives it no service worker/);
      // The board is drawn all the same.
      assert.equal((await piecesShown(page)).size, 32);
    } finally {
      await page.context().close();
    }
  } finally {
    plain.server.close();
  }
});

test(
  'a browser without WebAssembly is told that networks run slower, and the page still plays',
  { skip, timeout: 120_000 },
  async () => {
    // V8 without its compilers (--jitless) has no WebAssembly at all.
    const jitless = await launchChromium(['--js-flags=--jitless']);
    try {
      const { page, errors } = await open(jitless, url, { width: 1100, height: 800 });
      assert.equal(await page.evaluate('typeof WebAssembly'), 'undefined');
      assert.equal(await page.isHidden('#fatal'), true);
      assert.equal(await page.isVisible('#notice'), true);
      assert.match((await page.textContent('#notice')) ?? '', /runs no WebAssembly.*portable kernels/);
      assert.equal((await piecesShown(page)).size, 32);
      // The search thread runs (interpreted): the static evaluation of Kirin's embedded
      // network arrives, computed by the portable kernels.
      await page.waitForFunction(
        "(document.getElementById('eval-static').dataset.evaluation || '').includes('kirin.knet')",
        null,
        { timeout: 60_000 },
      );
      assert.match(
        (await page.getAttribute('#eval-static', 'data-evaluation')) ?? '',
        /^NNUE kirin\.knet .*\(portable kernels\)$/,
      );
      assert.deepEqual(errors, []);
    } finally {
      await jitless.close();
    }
  },
);
