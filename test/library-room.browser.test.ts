// The library room (web/library) in headless Chromium: the real IndexedDB
// store keeps a played game with its headers, comments and review across a
// reload, brings back the session (the open game and the move shown), and
// keeps renames and deletions; then the panel, mounted on a harness page
// (test/support/room-harness.ts), imports a file of games, searches, opens,
// renames, deletes and exports them. Skipped where /usr/bin/chromium is absent.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { repoRoot } from '../commands/lib.js';
import { CHROMIUM } from '../lab/web/chromium.js';
import { Engine } from '../src/engine/engine.js';
import { reviewGame, type Review } from '../src/review/review.js';
import { openRoomSite, type RoomSite } from './support/room-harness.js';

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (Debian package chromium): browser test skipped`;

const ENTRY = `
import { parseGames } from '../src/browser/index.js';
import { GameLibrary, openLibrary } from './library/library.js';
import { openIdbStore } from './library/idb-store.js';
import { LIBRARY_MESSAGES } from './library/messages.js';
import { mountLibraryPanel } from './library/panel.js';
const t = (key: string, params: Record<string, string | number> = {}) =>
  (LIBRARY_MESSAGES['zh-Hans'][key] ?? key).replace(/\\{(\\w+)\\}/g, (_: string, n: string) => String(params[n]));
Object.assign(window, { rooms: { parseGames, GameLibrary, openLibrary, openIdbStore, mountLibraryPanel, t } });
Object.assign(window, { harnessReady: true });
`;

const PLAYED = '[Red "棋手"]\n[Black "Kirin"]\n1. 炮二平五 {中炮} 马８进７ 2. 马二进三 (2. 兵七进一) 车９平８ 1-0';
const MOVES = ['h2e2', 'h9g7', 'h0g2', 'i9h9'];

let site: RoomSite | undefined;
let review: Review;

before(async () => {
  if (skip) return;
  const engine = new Engine();
  try {
    const r = await reviewGame(engine, { moves: MOVES }, { nodes: 300 });
    assert.ok(r.ok);
    review = r.value;
  } finally {
    await engine.close();
  }
  site = await openRoomSite(ENTRY);
});

after(async () => {
  await site?.close();
});

test(
  'IndexedDB keeps a game with its headers, comments and review, and the session, across reloads',
  { skip, timeout: 60_000 },
  async () => {
    const { page, errors } = await site!.open();
    const id = await page.evaluate(
      `(async () => {
      const store = await rooms.openIdbStore();
      if (!store.ok) throw new Error(store.error.message);
      const lib = new rooms.GameLibrary(store.value);
      const game = rooms.parseGames(${JSON.stringify(PLAYED)})[0].value;
      const saved = await lib.save(game, { source: 'played', review: ${JSON.stringify(review)} });
      if (!saved.ok) throw new Error(saved.error.message);
      await lib.saveSession({ id: saved.value.id, ply: 3 });
      return saved.value.id;
    })()`,
    );
    assert.equal(typeof id, 'string');
    await page.reload();
    await page.waitForFunction('window.harnessReady === true');
    const back = (await page.evaluate(`(async () => {
      const lib = await rooms.openLibrary();
      const s = await lib.restoreSession();
      return {
        problem: lib.problem,
        games: (await lib.list()).length,
        id: s.record.id,
        ply: s.ply,
        red: s.game.headers.Red,
        comment: s.game.children[0].comment,
        variations: s.game.children[0].children[0].children.length,
        result: s.game.result,
        review: s.review,
      };
    })()`)) as Record<string, unknown>;
    assert.deepEqual(
      { ...back, review: undefined },
      {
        problem: null,
        games: 1,
        id,
        ply: 3,
        red: '棋手',
        comment: '中炮',
        variations: 2,
        result: '1-0',
        review: undefined,
      },
    );
    assert.deepEqual(back.review, JSON.parse(JSON.stringify(review)), 'the review comes back whole');
    // A rename lasts; a deletion lasts and ends the session.
    await page.evaluate(
      `(async () => { const lib = await rooms.openLibrary(); await lib.rename(${JSON.stringify(id)}, '第一盘'); })()`,
    );
    await page.reload();
    await page.waitForFunction('window.harnessReady === true');
    assert.equal(await page.evaluate(`(async () => (await (await rooms.openLibrary()).list())[0].title)()`), '第一盘');
    await page.evaluate(
      `(async () => { const lib = await rooms.openLibrary(); await lib.remove(${JSON.stringify(id)}); })()`,
    );
    await page.reload();
    await page.waitForFunction('window.harnessReady === true');
    assert.deepEqual(
      await page.evaluate(`(async () => { const lib = await rooms.openLibrary();
      return [(await lib.list()).length, await lib.restoreSession()]; })()`),
      [0, null],
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  },
);

test(
  'the library panel: import a file of games, search, open, rename, delete, export all',
  { skip, timeout: 60_000 },
  async () => {
    const { page, errors } = await site!.open();
    await page.evaluate(`(async () => {
    window.opened = [];
    window.downloads = [];
    const library = await rooms.openLibrary();
    window.panel = rooms.mountLibraryPanel(document.getElementById('root'), {
      t: rooms.t,
      notation: () => 'chinese',
      open: (o) => window.opened.push({ id: o.record.id, red: o.game.headers.Red, review: o.review !== null }),
      download: (name, text) => window.downloads.push({ name, text }),
    }, library);
  })()`);
    await page.waitForSelector('.library-status:has-text("还没有棋局")');
    const games = join(repoRoot(), 'test', 'data', 'games');
    await page.setInputFiles('.library-import input', [
      join(games, 'xqdb-chinese.pgn'),
      join(games, 'hbsxcjp-01-chinese.pgn'),
    ]);
    await page.waitForSelector('#root[data-games="5"]');
    assert.match((await page.textContent('.library-status')) ?? '', /共 5 局 · 已导入 5 局（0 局已在库中）/);
    // The same file again: nothing new.
    await page.setInputFiles('.library-import input', [join(games, 'xqdb-chinese.pgn')]);
    await page.waitForSelector('.library-status:has-text("已导入 0 局（4 局已在库中）")');
    // Search by player; the result filter.
    await page.fill('.library-search', 'zhao');
    await page.waitForSelector('#root[data-games="1"]');
    assert.match((await page.textContent('.library-item .library-name')) ?? '', /ZHAO GuoRong 对 KE YongQing/);
    await page.click('.library-item .library-open');
    await page.waitForFunction('window.opened.length === 1');
    assert.deepEqual(await page.evaluate('window.opened[0].red'), 'ZHAO GuoRong');
    await page.fill('.library-search', '');
    await page.selectOption('.library-result', '1-0');
    await page.waitForFunction(`document.getElementById('root').dataset.games !== '5'`);
    const redWins = Number(await page.getAttribute('#root', 'data-games'));
    assert.ok(
      await page.$$eval('.library-item', (items) =>
        items.every((i) => (i as unknown as { dataset: { result: string } }).dataset.result === '1-0'),
      ),
    );
    await page.selectOption('.library-result', 'any');
    await page.waitForSelector('#root[data-games="5"]');
    assert.ok(redWins >= 1 && redWins < 5, `${redWins} games won by Red`);
    // Rename the first game, then delete it (the button asks again first).
    await page.click('.library-item >> nth=0 >> .library-rename');
    await page.fill('.library-rename-input', '我的研究');
    await page.click('.library-rename-save');
    await page.waitForSelector('.library-name:has-text("我的研究")');
    await page.fill('.library-search', '研究');
    await page.waitForSelector('#root[data-games="1"]');
    await page.click('.library-item .library-delete');
    await page.waitForSelector('.library-delete:has-text("确定删除？")');
    await page.click('.library-item .library-delete');
    await page.waitForSelector('#root[data-games="0"]');
    await page.fill('.library-search', '');
    await page.waitForSelector('#root[data-games="4"]');
    // Export: one PGN of the four games, in Chinese notation.
    await page.click('.library-export');
    await page.waitForFunction('window.downloads.length === 1');
    const exported = (await page.evaluate('window.downloads[0]')) as { name: string; text: string };
    assert.equal(exported.name, 'kirin-games.pgn');
    assert.equal((exported.text.match(/\[Game "Chinese Chess"\]/g) ?? []).length, 4);
    assert.match(exported.text, /\[Format "Chinese"\]/);
    assert.match((await page.textContent('.library-status')) ?? '', /已导出 4 局/);
    assert.deepEqual(errors, []);
    await page.context().close();
  },
);
