// The architecture of Kirin's own network (docs/NETWORK.md), shared by the
// engine's evaluator and the trainer (commands/train) so that both index features
// and choose output buckets the same way.
//
//   input:  per perspective (the side to move, "us", and the other, "them"),
//           one feature per piece: 14 piece kinds (own R A C P N B K, then the
//           opponent's) x 90 squares = 1260 inputs, the board seen from that
//           perspective (Black's view flips the ranks) and mirrored left-right
//           when that perspective's king stands on the files f..i;
//   hidden: one feature transformer (1260 -> H, shared by both perspectives),
//           int16 accumulators, SCReLU: clamp(x, 0, 1)^2;
//   output: [us, them] (2H) -> 1, one output layer per output bucket (chosen by
//           the number of pieces on the board).
//
// Quantisation (the usual QA/QB scheme): feature-transformer weights and biases
// are int16 at QA = 255, output weights int16 at QB = 256, output biases int32 at
// QA * QB >> OUTPUT_SHIFT (= QA). The output sum takes each term
// clamp(acc, 0, QA) * w * clamp(acc, 0, QA) exactly in int32 and shifts it right
// by OUTPUT_SHIFT (so that no sum can overflow); the evaluation in internal
// units (PawnValue = 144) is
// (sum / QA + bias) * SCALE / (QA * QB >> OUTPUT_SHIFT).

import { FILE_OF, RANK_OF, SQUARE_NB } from '../../core/types.js';

/** Piece kinds per perspective: own rook..king, then the opponent's. */
export const PIECE_KINDS = 14;
/** Inputs per perspective (feature-transformer rows). */
export const INPUTS = PIECE_KINDS * SQUARE_NB;
/** Feature-transformer quantisation: 1.0 = QA. */
export const QA = 255;
/** Output-layer quantisation: 1.0 = QB. */
export const QB = 256;
/** Right shift of each output term (clamp(acc)^2 * w), keeping every sum far inside int32. */
export const OUTPUT_SHIFT = 8;
/** Scale of the output biases and of the output sum divided by QA. */
export const OUTPUT_UNIT = (QA * QB) >> OUTPUT_SHIFT;
/** Network output 1.0 = SCALE internal units. */
export const SCALE = 400;
/** Largest hidden size the engine accepts (a multiple of 16 up to this). */
export const MAX_HIDDEN = 1024;
/** Largest number of output buckets. */
export const MAX_OUTPUT_BUCKETS = 16;
/**
 * Bound on the float weights and feature biases (trainer) so that quantised
 * arithmetic never overflows: an accumulator of at most 33 rows of |w| * QA
 * stays in int16 (33 * 1.98 * 255 < 32768), and an output weight within
 * +-MAX_OUTPUT_WEIGHT.
 */
export const WEIGHT_CLIP = 1.98;
/** Largest |output weight| a file may hold (WEIGHT_CLIP * QB rounded, with room). */
export const MAX_OUTPUT_WEIGHT = 512;

/** The shape of a network: what the file's header declares. */
export interface KirinNetShape {
  readonly inputs: number;
  readonly hidden: number;
  readonly outputBuckets: number;
}

export const DEFAULT_SHAPE: KirinNetShape = { inputs: INPUTS, hidden: 256, outputBuckets: 8 };

/**
 * 1 when perspective `p`'s king stands on files f..i (the board is then
 * mirrored so that the king is always on files a..e). `kingFile` is 0..8.
 */
export function mirrorFor(kingFile: number): number {
  return kingFile > 4 ? 1 : 0;
}

/**
 * The input index of `piece` (color << 3 | type) on square `sq` seen from
 * perspective `p` (0 red, 1 black) with mirror flag `mirror`.
 */
export function featureIndex(p: number, piece: number, sq: number, mirror: number): number {
  const own = piece >> 3 === p ? 0 : 7;
  const kind = own + (piece & 7) - 1;
  const rank = p === 0 ? RANK_OF[sq] : 9 - RANK_OF[sq];
  const file = mirror ? 8 - FILE_OF[sq] : FILE_OF[sq];
  return kind * SQUARE_NB + rank * 9 + file;
}

/** The output bucket for `pieces` pieces on the board (2..32, kings included). */
export function outputBucket(pieces: number, buckets: number): number {
  const b = (((pieces - 2) * buckets) / 32) | 0;
  return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
}

/**
 * Writes the active inputs of perspective `p` for `board` (90 piece codes, 0
 * empty) into `out` from index `start`; returns the end index. The mirror flag
 * comes from the perspective's king (files f..i: mirrored); a board without
 * that king is not mirrored.
 */
export function appendFeatures(board: Uint8Array, p: number, out: Int32Array, start: number): number {
  const king = (p << 3) | 7;
  let mirror = 0;
  for (let s = 0; s < SQUARE_NB; s++)
    if (board[s] === king) {
      mirror = mirrorFor(FILE_OF[s]);
      break;
    }
  let n = start;
  for (let s = 0; s < SQUARE_NB; s++) {
    const pc = board[s];
    if (pc !== 0) out[n++] = featureIndex(p, pc, s, mirror);
  }
  return n;
}

/** Pieces on `board`. */
export function pieceCount(board: Uint8Array): number {
  let n = 0;
  for (let s = 0; s < SQUARE_NB; s++) if (board[s] !== 0) n++;
  return n;
}

/** The float evaluation's SCReLU: clamp(x, 0, 1)^2. */
export function screlu(x: number): number {
  const c = x < 0 ? 0 : x > 1 ? 1 : x;
  return c * c;
}
