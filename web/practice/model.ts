// Practice mode's state (docs/PUZZLES.md), as plain data and no DOM so that
// Node tests it: the puzzle being solved and the moves so far, the solver's
// move judged by the library (puzzleMove) and answered with the line's
// defence ("Kirin defends"), a hint (the square of the piece to move), retry,
// the next puzzle fitted to the player's rating, and the progress (rating,
// puzzles solved and missed) that the page keeps in the browser.

import {
  Position,
  choosePuzzle,
  parseLegalMove,
  puzzleMove,
  ratingAfter,
  type Puzzle,
  type PuzzleVerdict,
} from '../../src/browser/index.js';

/** What the page keeps between visits. */
export interface PracticeProgress {
  rating: number;
  /** Ids of puzzles solved at the first try, and of puzzles missed. */
  solved: string[];
  missed: string[];
}

const NEW_PROGRESS: Readonly<PracticeProgress> = { rating: 1200, solved: [], missed: [] };

/** Progress read back from storage (anything unreadable starts afresh). */
export function readProgress(text: string | null): PracticeProgress {
  try {
    const o = JSON.parse(text ?? '') as Partial<PracticeProgress>;
    if (typeof o.rating === 'number' && Number.isFinite(o.rating) && Array.isArray(o.solved) && Array.isArray(o.missed))
      return {
        rating: o.rating,
        solved: o.solved.filter((x) => typeof x === 'string'),
        missed: o.missed.filter((x) => typeof x === 'string'),
      };
  } catch {
    // Afresh below.
  }
  return { ...NEW_PROGRESS, solved: [], missed: [] };
}

export type PracticeStatus = 'solving' | 'solved' | 'missed';

/** The answer to a move: its verdict and, when right and not the last, the defence Kirin plays. */
export interface PracticeAnswer {
  readonly verdict: PuzzleVerdict;
  readonly defence: string | null;
}

export class PracticeSession {
  puzzle: Puzzle | null = null;
  /** The moves of the puzzle so far (the solver's and the defences). */
  played: string[] = [];
  status: PracticeStatus = 'solving';
  /** Whether this try used a hint or was already judged (the rating moves once per puzzle). */
  private judged = false;

  constructor(
    private readonly puzzles: readonly Puzzle[],
    readonly progress: PracticeProgress,
    private readonly random: () => number = Math.random,
  ) {}

  /** The next puzzle for the player's rating (neither solved nor missed before); null when none is left. */
  next(): Puzzle | null {
    const done = new Set([...this.progress.solved, ...this.progress.missed]);
    this.puzzle = choosePuzzle(this.puzzles, this.progress.rating, done, this.random);
    this.played = [];
    this.status = 'solving';
    this.judged = false;
    return this.puzzle;
  }

  /** The position on the board: the puzzle's, after the moves so far. */
  position(): Position | null {
    if (this.puzzle === null) return null;
    const pos = Position.fromFen(this.puzzle.fen);
    if (!pos.ok) return null;
    for (const m of this.played) {
      const mv = parseLegalMove(pos.value, m);
      if (!mv.ok) return null;
      pos.value.doMove(mv.value);
    }
    return pos.value;
  }

  /** The solver plays `uci`: judged, the defence played when right, the rating moved once when it ends. */
  play(uci: string): PracticeAnswer {
    if (this.puzzle === null || this.status !== 'solving') return { verdict: 'wrong', defence: null };
    const verdict = puzzleMove(this.puzzle, this.played, uci);
    if (verdict === 'wrong') {
      this.status = 'missed';
      this.score(false);
      return { verdict, defence: null };
    }
    this.played.push(uci);
    if (verdict === 'solved') {
      this.status = 'solved';
      this.score(true);
      return { verdict, defence: null };
    }
    const defence = this.puzzle.moves[this.played.length];
    this.played.push(defence);
    return { verdict, defence };
  }

  /** The square (a0..i9) of the piece the solver should move now; taking it counts the puzzle as missed. */
  hint(): string | null {
    if (this.puzzle === null || this.status !== 'solving') return null;
    if (!this.judged) this.score(false);
    return this.puzzle.moves[this.played.length].slice(0, 2);
  }

  /** Back to the puzzle's start (the rating does not move again). */
  retry(): void {
    this.played = [];
    this.status = 'solving';
  }

  private score(solved: boolean): void {
    if (this.judged || this.puzzle === null) return;
    this.judged = true;
    this.progress.rating = ratingAfter(this.progress.rating, this.puzzle.rating, solved);
    (solved ? this.progress.solved : this.progress.missed).push(this.puzzle.id);
  }
}
