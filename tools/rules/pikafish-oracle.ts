// Native Pikafish's verdict on a game, through the rule_judge harness of
// docs/RULES.md ("Reproducing the oracle"): every prefix of the moves is judged at
// the root; the first final verdict (or a side left without a legal move) ends the
// game. Shared by check-case.ts and book-to-corpus.ts. Run from dist/ after `npm run build`.
import { spawnSync } from 'node:child_process';
import { Position } from '../../src/dev.js';

/** { result: 'red' | 'black' | 'draw' | 'none', ply, noLegalMove } for `fen` + UCI `moves`. */
export function nativeFirstVerdict(
  pikafish: string,
  fen: string,
  moves: readonly string[],
): { result: 'red' | 'black' | 'draw' | 'none'; ply: number; noLegalMove: boolean } {
  fen = new Position(fen).fen(); // Pikafish misreads FENs without the counters
  const lines = [];
  for (let n = 1; n <= moves.length; n++) lines.push(`${fen}|${moves.slice(0, n).join(' ')}|0`);
  const out = spawnSync(pikafish, { input: lines.join('\n') + '\n', encoding: 'utf8' })
    .stdout.trim()
    .split('\n');
  const redFirst = fen.split(' ')[1] === 'w';
  for (let n = 1; n <= out.length; n++) {
    const [kind, value, legal] = out[n - 1].split(' ');
    const stmRed = (n % 2 === 0) === redFirst;
    if (Number(legal) === 0) return { result: stmRed ? 'black' : 'red', ply: n, noLegalMove: true };
    if (kind === 'final') {
      const v = Number(value);
      return { result: v === 0 ? 'draw' : v > 0 === stmRed ? 'red' : 'black', ply: n, noLegalMove: false };
    }
  }
  return { result: 'none', ply: moves.length, noLegalMove: false };
}
