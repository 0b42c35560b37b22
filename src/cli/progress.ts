// A progress bar on stderr for the product's long commands (`kirin review`):
// redrawn in place on a terminal, a line every 10 seconds (and at the end)
// when stderr is a file or a pipe.

import type { CommandIo } from './command-line.js';

/** Where the bar is drawn: a command's stderr. */
type Stream = CommandIo['stderr'];

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600),
    m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** One line of the bar: `[#####.....] 12/101 positions  0:05, left 0:37`. */
export function progressText(done: number, total: number, elapsedMs: number, what = 'positions'): string {
  const width = 30;
  const frac = total > 0 ? Math.min(1, done / total) : 0;
  const fill = Math.round(frac * width);
  const left = done > 0 ? ((total - done) * elapsedMs) / done / 1000 : Infinity;
  return (
    `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} ${what}  ` +
    `${clock(elapsedMs / 1000)}, left ${clock(left)}`
  );
}

/** A progress bar: update() as work is done, end() once (the bar's last state stays on its own line). */
export class ProgressBar {
  private readonly start = Date.now();
  private lastLine = 0;
  private drawn = false;

  constructor(
    private readonly out: Stream,
    private readonly what = 'positions',
  ) {}

  update(done: number, total: number): void {
    const now = Date.now();
    const text = progressText(done, total, now - this.start, this.what);
    if (this.out.isTTY) {
      this.out.write(`\r${text}`);
      this.drawn = true;
    } else if (now - this.lastLine >= 10000 || done === total) {
      this.lastLine = now;
      this.out.write(`${text}\n`);
    }
  }

  /** Ends the bar's line on a terminal. */
  end(): void {
    if (this.drawn) this.out.write('\n');
    this.drawn = false;
  }
}
