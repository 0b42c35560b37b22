import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../toolkit/files.js';
import { decodePng, type Pixels } from '../../test/support/png.js';
import { glyphPath, iconSvg, PNG_ICONS } from './icons.js';

const web = join(repoRoot(), 'web');

test("glyphPath finds a piece's outline in web/board/glyphs.ts and refuses a missing one", () => {
  const text = readFileSync(join(web, 'board', 'glyphs.ts'), 'utf8');
  assert.match(glyphPath(text, '帥'), /^M[\d,. MLQCZ-]+Z$/);
  assert.notEqual(glyphPath(text, '帥'), glyphPath(text, '將'));
  assert.throws(() => glyphPath(text, '麒'), /no outline of 麒/);
});

test('iconSvg: a disc on transparent, or full bleed for a maskable icon', () => {
  const any = iconSvg('M0,0L1,1Z', false, 192);
  assert.match(any, /^<svg [^>]*viewBox="0 0 1000 1000" width="192" height="192">/);
  assert.match(any, /<circle cx="500" cy="500" r="490" fill="#b1121b"\/>/);
  assert.match(any, /d="M0,0L1,1Z"/);
  assert.match(iconSvg('M0,0Z', true), /<rect width="1000" height="1000" fill="#b1121b"\/>/);
});

const pixel = (p: Pixels, x: number, y: number): number[] => [
  ...p.rgba.subarray((y * p.width + x) * 4, (y * p.width + x) * 4 + 4),
];
const isRed = ([r, g, b, a]: number[]): boolean => a === 255 && r > 150 && g < 60 && b < 60;

test('the committed icons: their sizes, transparent corners or full bleed, the red disc and a cream glyph', () => {
  for (const icon of PNG_ICONS) {
    const png = decodePng(readFileSync(join(web, 'icons', icon.file)));
    assert.deepEqual([png.width, png.height], [icon.size, icon.size], icon.file);
    const corner = pixel(png, 0, 0);
    if (icon.fullBleed) assert.ok(isRed(corner), `${icon.file}: red to the corner`);
    else assert.equal(corner[3], 0, `${icon.file}: transparent corner`);
    // Red just inside the disc's edge (left middle), and cream ink somewhere on the middle row.
    assert.ok(isRed(pixel(png, Math.round(icon.size * 0.06), icon.size >> 1)), `${icon.file}: red disc`);
    const row = Array.from({ length: icon.size }, (_, x) => pixel(png, x, icon.size >> 1));
    assert.ok(
      row.some(([r, g, b]) => r > 230 && g > 220 && b > 190),
      `${icon.file}: cream glyph or ring`,
    );
  }
  assert.match(readFileSync(join(web, 'icons', 'icon.svg'), 'utf8'), /^<svg /);
});

test("the manifest: the page's name, language and colours, and icons that exist at the sizes it says", () => {
  const m = JSON.parse(readFileSync(join(web, 'manifest.webmanifest'), 'utf8')) as {
    name: string;
    short_name: string;
    lang: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  assert.equal(m.name, '麒麟象棋 Kirin');
  assert.equal(m.lang, 'zh-CN');
  assert.equal(m.display, 'standalone');
  assert.equal(m.start_url, './');
  assert.match(m.theme_color + m.background_color, /^#[0-9a-f]{6}#[0-9a-f]{6}$/);
  assert.ok(m.short_name.length > 0 && m.short_name.length <= 12);
  assert.ok(m.icons.some((i) => i.purpose === 'maskable'));
  for (const size of ['192x192', '512x512']) assert.ok(m.icons.some((i) => i.sizes === size && i.purpose === 'any'));
  for (const i of m.icons) {
    const file = join(web, i.src);
    assert.ok(existsSync(file), i.src);
    if (i.type !== 'image/png') continue;
    const png = decodePng(readFileSync(file));
    assert.equal(`${png.width}x${png.height}`, i.sizes, i.src);
  }
  // index.html names the manifest and the apple-touch-icon.
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  assert.match(html, /<link rel="manifest" href="manifest\.webmanifest" \/>/);
  assert.ok(existsSync(join(web, /<link rel="apple-touch-icon" href="([^"]+)"/.exec(html)![1])));
});
