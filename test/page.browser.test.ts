// The page in a real browser: headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core; nothing is downloaded) opens the page from the
// local server, starts a game against Kirin at a time per move, plays moves by
// clicking, waits for Kirin's replies, checks the position shown against the
// library, takes a move back, shows a FEN error, and saves a screenshot. A second test loads the synthetic seed-1 network by
// URL and by the file picker and checks the search thread's static evaluation
// against native Pikafish's numbers (test/data/nnue/seed1-evals.tsv); a damaged
// file is refused and the network in use keeps playing. Without
// /usr/bin/chromium the tests are skipped (CI). The bundles are built into a
// temporary folder (scripts/web/build.ts).

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Browser } from 'playwright-core';
import { Position } from '../src/core/position.js';
import { START_FEN as START_FEN_TEXT } from '../src/core/fen.js';
import { legalMoves } from '../src/core/movegen.js';
import { moveToUci } from '../src/core/types.js';
import { playUciMoves } from '../src/core/ucimove.js';
import { evaluate } from '../src/eval/evaluate.js';
import { loadEmbeddedNetwork } from '../src/eval/networks.js';
import { Searcher } from '../src/search/search.js';
import { repoRoot } from '../toolkit/files.js';
import { syntheticNetFile } from '../toolkit/nnue/synthetic-net.js';
import { buildWeb } from '../scripts/web/build.js';
import { serveWeb } from '../scripts/web/serve.js';
import { CHROMIUM, launchChromium } from '../lab/web/chromium.js';
import { clickSquare, destinationsShown, showTab, startGame } from './support/board.js';

/** A page expression: the move list has `n` moves (the test compiles without the DOM library). */
const moveCount = (n: number): string => `document.querySelectorAll('#moves .move[data-ply]').length === ${n}`;

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
    const tmp = mkdtempSync(join(tmpdir(), 'kirin-web-'));
    const out = join(tmp, 'dist');
    await buildWeb(out);
    const { server, url } = await serveWeb({ port: 0, distDir: out });
    let browser: Browser | undefined;
    const errors: string[] = [];
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1100, height: 760 }, locale: 'en-US' });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await page.goto(url);
      await page.waitForSelector('body[data-ready="yes"]', { timeout: 20_000 });
      assert.equal(await page.evaluate('crossOriginIsolated'), true, 'the server makes the page cross-origin isolated');
      assert.equal(await page.isHidden('#fatal'), true);
      // A game against Kirin at 0.2 s a move (no clocks), the player Red.
      await startGame(page, '0.2s');
      assert.equal(await page.isHidden('#clock-top'), true, 'a time per move has no clocks');
      await showTab(page, 'moves');

      const moves = (): Promise<string[]> =>
        page.$$eval('#moves .move[data-ply]', (ms) => ms.map((m) => m.getAttribute('data-uci') ?? ''));
      const shownFen = async (): Promise<string> => (await page.textContent('#fen'))!.trim();
      const click = (sq: string) => clickSquare(page, sq);

      // Red's cannon h2: selecting it highlights its legal targets (e2 among them), and only those.
      await click('h2');
      const targets = await destinationsShown(page);
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
      // Kirin's reply comes from its default book (fetched beside kirin.js), marked so, and the opening is named.
      assert.equal(await page.getAttribute('#moves .move[data-ply="2"]', 'data-uci'), played[1]);
      assert.match((await page.getAttribute('#moves .move[data-ply="2"]', 'class'))!, /\bbook\b/);
      assert.match((await page.textContent('#opening'))!, /^[A-E]\d\d \S/);

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
      assert.match((await page.textContent('#status'))!, /^Your move \(Red\)$/);
      await page.screenshot({ path: join(tmp, 'kirin-web.png') });
      process.stdout.write(`# screenshot: ${join(tmp, 'kirin-web.png')}\n`);

      // Take back: our last move and Kirin's reply.
      await showTab(page, 'play');
      await page.click('.play-takeback');
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

/** Native Pikafish's evaluations of the seed-1 network (test/data/nnue/seed1-evals.tsv). */
function referenceRows(): { fen: string; final: number }[] {
  return readFileSync(join(repoRoot(), 'test', 'data', 'nnue', 'seed1-evals.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('fen\t'))
    .map((l) => {
      const [fen, , , final] = l.split('\t');
      return { fen, final: Number(final) };
    });
}

/** The static evaluation of `pos` by Kirin's embedded network, as the Node engine's search thread computes it. */
function embeddedStaticEval(pos: Position): number | null {
  const net = loadEmbeddedNetwork();
  assert.ok(net, 'the build has an embedded network');
  assert.ok(net.ok);
  const searcher = new Searcher(1);
  searcher.setNetwork(net.value);
  return searcher.staticEvaluation(pos).value;
}

/** A page expression: #eval-static shows the search thread's evaluation of `fen` by an evaluation naming `name`. */
const staticEvalOf = (fen: string, name: string): string =>
  `(() => { const d = document.getElementById('eval-static').dataset;` +
  ` return d.fen === ${JSON.stringify(fen)} && (d.evaluation || '').includes(${JSON.stringify(name)}); })()`;

test(
  "the page: a network by URL and by file picker plays, its evaluation is native Pikafish's, a damaged file is refused",
  {
    skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (Debian package chromium): browser test skipped`,
    timeout: 120_000,
  },
  async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'kirin-web-net-'));
    const out = join(tmp, 'dist');
    await buildWeb(out);
    // Served: the seed-1 network beside the bundles (/dist/seed1.nnue). Picked: a copy and a damaged one.
    const net = syntheticNetFile(1);
    copyFileSync(net, join(out, 'seed1.nnue'));
    const picked = join(tmp, 'seed1-picked.nnue');
    copyFileSync(net, picked);
    const bytes = readFileSync(net);
    const damaged = join(tmp, 'seed1-damaged.nnue');
    writeFileSync(damaged, bytes.subarray(0, bytes.length >> 1));
    const rows = referenceRows();
    const { server, url } = await serveWeb({ port: 0, distDir: out });
    let browser: Browser | undefined;
    const errors: string[] = [];
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, locale: 'en-US' });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        // The one failed request is the test's own missing URL.
        if (m.type() === 'error' && !m.location().url.endsWith('/dist/missing.nnue')) errors.push(m.text());
      });
      await page.goto(url);
      await page.waitForSelector('body[data-ready="yes"]', { timeout: 20_000 });
      const text = async (sel: string): Promise<string> => ((await page.textContent(sel)) ?? '').trim();
      const shownValue = async (): Promise<number> => Number(await page.getAttribute('#eval-static', 'data-value'));
      const fenOf = (fen: string): string => new Position(fen).fen();
      // The WebAssembly zstd decoder (zstd.wasm, fetched from beside kirin.js) unpacks what the page loads.
      assert.equal(
        await page.evaluate('import("./dist/kirin.js").then((lib) => lib.prepareNetworkDecoder())'),
        true,
        'the page has the WebAssembly zstd decoder',
      );

      await showTab(page, 'settings');
      // No network loaded: Kirin's embedded network (fetched from beside kirin.js), and the
      // search thread's number is the Node engine's with the same network.
      assert.match(
        await text('#eval-status'),
        /^Evaluation: NNUE kirin\.knet \(Kirin network .*\), wasm-simd kernels$/,
      );
      await page.waitForFunction(staticEvalOf(fenOf(START_FEN_TEXT), 'kirin.knet'), null, { timeout: 20_000 });
      assert.equal(await shownValue(), embeddedStaticEval(new Position()));
      // Classical: the classical evaluation, the library's number; Kirin network: back to it.
      await page.click('#eval-classical');
      assert.equal(await text('#eval-status'), 'Evaluation: classical');
      await page.waitForFunction(staticEvalOf(fenOf(START_FEN_TEXT), 'classical'), null, { timeout: 20_000 });
      assert.equal(await shownValue(), evaluate(new Position(), 0));
      await page.click('#eval-embedded');
      await page.waitForFunction(staticEvalOf(fenOf(START_FEN_TEXT), 'kirin.knet'), null, { timeout: 20_000 });
      assert.equal(await shownValue(), embeddedStaticEval(new Position()));
      await page.click('#eval-classical'); // a network loaded after Classical plays

      // Analysis mode (Kirin moves for neither side), the first reference position.
      await showTab(page, 'moves');
      await page.check('#analysis');
      await showTab(page, 'settings');
      const setFen = async (fen: string): Promise<void> => {
        await page.fill('#fen-input', fen);
        await page.click('#fen-set');
        assert.equal(await text('#fen-error'), '');
      };
      await setFen(rows[0].fen);

      // By URL: the page says the network plays, with the WebAssembly SIMD kernels, and the
      // search thread evaluates exactly as native Pikafish does.
      await page.fill('#eval-url', 'dist/seed1.nnue');
      await page.click('#eval-load');
      await page.waitForFunction(staticEvalOf(fenOf(rows[0].fen), 'seed1.nnue'), null, { timeout: 60_000 });
      assert.equal(await text('#eval-error'), '');
      assert.match(
        await text('#eval-status'),
        /^Evaluation: NNUE seed1\.nnue \(random net, make_random_net\.py seed=1\), wasm-simd kernels$/,
      );
      assert.match(
        (await page.getAttribute('#eval-static', 'data-evaluation')) ?? '',
        /^NNUE seed1\.nnue \(random net, make_random_net\.py seed=1\) \(wasm-simd kernels\)$/,
      );
      assert.equal(await shownValue(), rows[0].final, rows[0].fen);
      await setFen(rows[1].fen);
      await page.waitForFunction(staticEvalOf(fenOf(rows[1].fen), 'seed1.nnue'), null, { timeout: 20_000 });
      assert.equal(await shownValue(), rows[1].final, rows[1].fen);

      // By the file picker.
      await page.setInputFiles('#eval-file', picked);
      await page.waitForFunction(staticEvalOf(fenOf(rows[1].fen), 'seed1-picked.nnue'), null, { timeout: 60_000 });
      assert.match(await text('#eval-status'), /^Evaluation: NNUE seed1-picked\.nnue \(random net/);
      assert.equal(await shownValue(), rows[1].final, rows[1].fen);

      // A damaged file (half of it) and a missing URL: a clear error each, and the network keeps playing.
      await page.setInputFiles('#eval-file', damaged);
      await page.waitForFunction(
        `document.getElementById('eval-error').textContent.includes('seed1-damaged.nnue\\' is not valid zstd data')`,
        null,
        { timeout: 60_000 },
      );
      assert.match(await text('#eval-error'), /expected a Pikafish NNUE network/);
      assert.match(await text('#eval-error'), /The evaluation stays: NNUE seed1-picked\.nnue/);
      assert.match(await text('#eval-status'), /^Evaluation: NNUE seed1-picked\.nnue/);
      await page.fill('#eval-url', 'dist/missing.nnue');
      await page.click('#eval-load');
      await page.waitForFunction(`document.getElementById('eval-error').textContent.includes('HTTP 404')`, null, {
        timeout: 20_000,
      });
      assert.match(
        await text('#eval-error'),
        /^dist\/missing\.nnue: HTTP 404 .*The evaluation stays: NNUE seed1-picked/,
      );
      await setFen(rows[2].fen);
      await page.waitForFunction(staticEvalOf(fenOf(rows[2].fen), 'seed1-picked.nnue'), null, { timeout: 20_000 });
      assert.equal(await shownValue(), rows[2].final, rows[2].fen);

      // The network plays a game: a move of ours, Kirin's reply searched with it (from the position
      // shown: out of the book), and the analysis waits meanwhile.
      const before = new Position(rows[2].fen);
      await startGame(page, '0.2s', before.side === 0 ? 'red' : 'black', 'shown');
      assert.equal(await page.isDisabled('#analysis'), true, 'no analysis during a game');
      const ours = moveToUci(legalMoves(before)[0]);
      await clickSquare(page, ours.slice(0, 2));
      await clickSquare(page, ours.slice(2));
      await page.waitForFunction(moveCount(2), null, { timeout: 20_000 });
      assert.equal(await page.getAttribute('#moves .move[data-ply="1"]', 'data-uci'), ours);
      assert.match(await text('#eval-status'), /^Evaluation: NNUE seed1-picked\.nnue/);
      assert.deepEqual(errors, [], 'no errors in the page');
    } finally {
      await browser?.close();
      server.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);
