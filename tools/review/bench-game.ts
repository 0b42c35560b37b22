// The game of the review benchmark (tools/review/bench.ts; the page's review
// benchmark plays the same): 100 plies of Kirin against itself at 20,000
// nodes a move, the black side at Skill Level 8 so that it makes mistakes,
// from opening 8 of data/openings/openings.txt (中炮七兵七马对屏风马).

export const BENCH_GAME: readonly string[] = Object.freeze(
  (
    'h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 b0c2 c9e7 b2a2 b7b3 a0b0 b3g3 b0b7 g7f5 b7c7 f9e8 c7c6 a9b9 ' +
    'c6e6 h7h3 e6e4 f5g7 f0e1 b9b5 a3a4 b5b3 a2a6 e7c9 e2f2 g9e7 g0e2 b3b5 c2d4 b5d5 i3i4 g7f5 d4c2 h3h1 ' +
    'e4f4 d5d6 f4f5 d6a6 c2d4 a6d6 f5f4 h1h3 c4c5 e8f9 d4f5 d6f6 f4h4 f6h6 h4h6 h9h6 f5g3 d9e8 g3e4 h3h1 ' +
    'c5d5 h6h3 a4a5 h3e3 e4d6 h1f1 e0f0 f1g1 h0h1 e3d3 d6c8 e9d9 h1g1 d3d1 d5d6 i6i5 i4i5 d1a1 e2c4 a1a3 ' +
    'f2d2 a3d3 g2f4 d3d4 a5a6 d9d8 f4e2 d4d3 d6e6 d3f3 g1f1 f3e3 c8d6 e8d7 e6e7 e3e7 d6b7 d8e8 b7c9 e8e9'
  ).split(' '),
);
