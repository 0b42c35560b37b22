// The message keys a room's code names as literals ('play.result.flag'): what
// the rooms' tests compare with their catalogs. Development only: it reads the
// room's sources (web/<room>/*.ts, the tests left out) from the dist/web/
// build's place in the repository.

import { readFileSync, readdirSync } from 'node:fs';

/** The `room.`-prefixed string literals in web/<room>/'s sources (not its tests). */
export function keysUsedBy(room: string): Set<string> {
  const dir = new URL(`../../../web/${room}/`, import.meta.url);
  const pattern = new RegExp(`'(${room}\\.[\\w.-]+)'`, 'g');
  const used = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    for (const m of readFileSync(new URL(f, dir), 'utf8').matchAll(pattern)) used.add(m[1]);
  }
  return used;
}
