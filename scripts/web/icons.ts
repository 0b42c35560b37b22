// Writes the page's icons (web/icons/, committed: the build only copies them):
// Red's general 帥, the outline the page draws its piece with (web/board/glyphs.ts,
// Noto Serif CJK, SIL Open Font License 1.1), in cream on a red disc. The web
// app manifest (web/manifest.webmanifest) names them; index.html names the
// apple-touch-icon.
//
//   icon.svg                 any size, transparent around the disc
//   icon-192.png, icon-512.png   the same, rendered
//   maskable-512.png         full-bleed red, the disc's ring and the glyph
//                            inside the middle 80% (a launcher crops it to
//                            its own shape)
//   apple-touch-icon.png     180 x 180, full-bleed red (iOS rounds the corners)
//
// The PNGs are rendered by headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core, as the browser tests do).
//
//   node dist/scripts/web/icons.js [--chromium /usr/bin/chromium] [--out web/icons]

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';
import { isMain } from '../../toolkit/script.js';

const RED = '#b1121b';
const CREAM = '#fdf3dc';

/** The outline of `char` from the text of web/board/glyphs.ts (SVG path data in a 1000 x 1000 em box); throws when absent. */
export function glyphPath(glyphsTs: string, char: string): string {
  const m = new RegExp(`\\n\\s*${char}: '([MLQCZ0-9,. -]+)'`).exec(glyphsTs);
  if (!m) throw new Error(`web/board/glyphs.ts has no outline of ${char}`);
  return m[1];
}

/**
 * The icon as SVG (viewBox 1000 x 1000). `fullBleed`: a red square with the
 * ring and the glyph inside the safe circle (radius 400) a maskable icon keeps;
 * else a red disc on transparent.
 */
export function iconSvg(glyph: string, fullBleed: boolean, size?: number): string {
  const dims = size === undefined ? '' : ` width="${size}" height="${size}"`;
  const [ring, glyphBox] = fullBleed ? [340, 440] : [400, 540];
  const at = (1000 - glyphBox) / 2;
  const ground = fullBleed
    ? `<rect width="1000" height="1000" fill="${RED}"/>`
    : `<circle cx="500" cy="500" r="490" fill="${RED}"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000"${dims}>` +
    ground +
    `<circle cx="500" cy="500" r="${ring}" fill="none" stroke="${CREAM}" stroke-width="${fullBleed ? 18 : 22}"/>` +
    `<path transform="translate(${at} ${at}) scale(${glyphBox / 1000})" fill="${CREAM}" d="${glyph}"/>` +
    `</svg>\n`
  );
}

/** The PNG icons: file name, size in pixels, full bleed. */
export const PNG_ICONS: readonly { file: string; size: number; fullBleed: boolean }[] = [
  { file: 'icon-192.png', size: 192, fullBleed: false },
  { file: 'icon-512.png', size: 512, fullBleed: false },
  { file: 'maskable-512.png', size: 512, fullBleed: true },
  { file: 'apple-touch-icon.png', size: 180, fullBleed: true },
];

async function writeIcons(out: string, chromium: string): Promise<string[]> {
  const glyph = glyphPath(readFileSync(join(repoRoot(), 'web', 'board', 'glyphs.ts'), 'utf8'), '帥');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'icon.svg'), iconSvg(glyph, false));
  const written = [join(out, 'icon.svg')];
  const { chromium: pw } = await import('playwright-core');
  const browser = await pw.launch({ executablePath: chromium, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    for (const icon of PNG_ICONS) {
      await page.setViewportSize({ width: icon.size, height: icon.size });
      await page.setContent(
        `<!doctype html><body style="margin:0;background:transparent">${iconSvg(glyph, icon.fullBleed, icon.size)}</body>`,
      );
      await page.locator('svg').screenshot({ path: join(out, icon.file), omitBackground: true });
      written.push(join(out, icon.file));
    }
  } finally {
    await browser.close();
  }
  return written;
}

if (isMain(import.meta.url)) {
  const cl = scriptCommandLine(
    process.argv.slice(2),
    commandSpec({
      name: 'icons',
      usage: 'usage: node dist/scripts/web/icons.js [--chromium /usr/bin/chromium] [--out web/icons]',
      options: { chromium: { type: 'string' }, out: { type: 'string' } },
    }),
  );
  try {
    const files = await writeIcons(
      cl.string('out', join(repoRoot(), 'web', 'icons')),
      cl.string('chromium', '/usr/bin/chromium'),
    );
    for (const f of files) process.stdout.write(`${f}  ${readFileSync(f).length} bytes\n`);
  } catch (e) {
    process.stderr.write(`icons: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
