// Stepping through the game: the buttons under the board and the keys (← →
// back and forward, ↑ / Home and ↓ / End the start and the end of the line,
// f flips the board).

import { $ } from '../dom.js';
import type { PageContext } from '../page.js';

export function mountNav(ctx: PageContext): void {
  const back = (): void => {
    if (ctx.path.length > 0) ctx.goTo(ctx.path.slice(0, -1));
  };
  const forward = (): void => {
    const next = ctx.here().children[0];
    if (next) ctx.goTo([...ctx.path, next]);
  };
  const toStart = (): void => {
    if (ctx.path.length > 0) ctx.goTo([]);
  };
  const toEnd = (): void => {
    const line = ctx.currentLine();
    if (line.length > ctx.path.length) ctx.goTo(line);
  };
  const flip = (): void => ctx.setFlipped(!ctx.flipped);

  $('nav-start').addEventListener('click', toStart);
  $('nav-back').addEventListener('click', back);
  $('nav-forward').addEventListener('click', forward);
  $('nav-end').addEventListener('click', toEnd);
  $('flip').addEventListener('click', flip);
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable))
      return;
    const keys: Record<string, () => void> = {
      ArrowLeft: back,
      ArrowRight: forward,
      ArrowUp: toStart,
      Home: toStart,
      ArrowDown: toEnd,
      End: toEnd,
      f: flip,
    };
    const action = keys[ev.key];
    if (!action) return;
    ev.preventDefault();
    action();
  });
}
