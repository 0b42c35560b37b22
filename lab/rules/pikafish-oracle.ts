// Native Pikafish's verdict on a game, through the rule_judge harness of
// docs/RULES.md ("Reproducing the oracle"): every prefix of the moves is judged at
// the root; the first final verdict (or a side left without a legal move) ends the
// game. Shared by check-case.ts and book-to-corpus.ts. Run from dist/ after `npm run build`.
import { spawnSync } from 'node:child_process';
import { err, ok, Position, type FenErrorCode, type Result } from '../../src/dev.js';

/** Native Pikafish's verdict. */
export interface NativeVerdict {
  result: 'red' | 'black' | 'draw' | 'none';
  ply: number;
  noLegalMove: boolean;
}

/** The verdict for `fen` + UCI `moves`, or why there is none (a refused FEN, a harness that does not run). */
export function nativeFirstVerdict(
  pikafish: string,
  given: string,
  moves: readonly string[],
): Result<NativeVerdict, FenErrorCode | 'oracle'> {
  const start = Position.fromFen(given);
  if (!start.ok) return start;
  const fen = start.value.fen(); // Pikafish misreads FENs without the counters
  const lines = [];
  for (let n = 1; n <= moves.length; n++) lines.push(`${fen}|${moves.slice(0, n).join(' ')}|0`);
  const run = spawnSync(pikafish, { input: lines.join('\n') + '\n', encoding: 'utf8' });
  if (run.error || run.status !== 0)
    return err('oracle', `${pikafish} did not run: ${run.error?.message ?? `exit status ${run.status}`}`);
  const out = run.stdout.trim().split('\n');
  const redFirst = fen.split(' ')[1] === 'w';
  for (let n = 1; n <= out.length; n++) {
    const [kind, value, legal] = out[n - 1].split(' ');
    const stmRed = (n % 2 === 0) === redFirst;
    if (Number(legal) === 0) return ok({ result: stmRed ? 'black' : 'red', ply: n, noLegalMove: true });
    if (kind === 'final') {
      const v = Number(value);
      return ok({ result: v === 0 ? 'draw' : v > 0 === stmRed ? 'red' : 'black', ply: n, noLegalMove: false });
    }
  }
  return ok({ result: 'none', ply: moves.length, noLegalMove: false });
}
