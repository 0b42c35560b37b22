// The panel's tabs beside the board: a tab button (.tab[data-tab="moves"])
// shows its panel (#tab-moves) and hides the others; a reload opens 着法 (moves).

/** Wires the tab buttons under `root`; returns the function that shows a panel by id (tab-moves or moves). */
export function mountTabs(root: HTMLElement): (id: string) => void {
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('.tab[data-tab]')];
  const show = (id: string): void => {
    const name = id.replace(/^#?tab-/, '');
    if (!buttons.some((b) => b.dataset.tab === name)) return;
    for (const b of buttons) {
      const on = b.dataset.tab === name;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(`tab-${b.dataset.tab}`);
      if (panel) panel.hidden = !on;
    }
  };
  for (const b of buttons) b.addEventListener('click', () => show(b.dataset.tab!));
  // Left and right move between the tabs when one has the focus.
  root.addEventListener('keydown', (ev) => {
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (i < 0 || (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight')) return;
    ev.preventDefault();
    ev.stopPropagation();
    const next = buttons[(i + (ev.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length];
    next.focus();
    show(next.dataset.tab!);
  });
  return show;
}
