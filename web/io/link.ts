// The page's shareable address: the game after the '#', as
//   #fen=<FEN>&moves=h2e2,h9g7&ply=2&flip=1
// fen is left out for the standard start, ply when it is the last move, flip
// when Red is at the bottom. Only text here; io.ts checks the FEN and the moves.

export interface BoardLink {
  /** The start position; null: the standard start. */
  fen: string | null;
  /** The moves in UCI coordinates. */
  moves: string[];
  /** How many of the moves are played on the board shown (null: all). */
  ply: number | null;
  /** Black at the bottom. */
  flipped: boolean;
}

/** The link in an address's hash ('#...' or ''), or null when it names no game (no fen and no moves). */
export function readLink(hash: string): BoardLink | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const fen = params.get('fen');
  const moves = params.get('moves');
  if (fen === null && moves === null) return null;
  const ply = params.get('ply');
  const n = ply === null ? NaN : Number(ply);
  return {
    fen: fen === null || fen.trim() === '' ? null : fen.trim(),
    moves: (moves ?? '').split(/[\s,]+/).filter((m) => m !== ''),
    ply: Number.isSafeInteger(n) && n >= 0 ? n : null,
    flipped: params.get('flip') === '1',
  };
}

/** The hash ('#...') for a link. */
export function writeLink(link: BoardLink): string {
  const params = new URLSearchParams();
  if (link.fen !== null) params.set('fen', link.fen);
  params.set('moves', link.moves.join(','));
  if (link.ply !== null && link.ply !== link.moves.length) params.set('ply', String(link.ply));
  if (link.flipped) params.set('flip', '1');
  // URLSearchParams writes a space as '+' and a comma and slash escaped; both read back alike.
  return `#${params.toString().replace(/%2C/g, ',').replace(/%2F/g, '/')}`;
}
