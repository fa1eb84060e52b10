/**
 * The evaluation's weights, read by src/engine/pst.ts and src/engine/evaluate.ts.
 * Written by `matrix-chess tune` (src/tune/): do not edit by hand, re-run the tuner (docs/strength.md).
 * Tuned: matrix-chess tune fit --pgn data/tuning/selfplay-6000n-2000-scored.pgn.gz,data/matches/matrixchess-8b2aa47-vs-sf15.1-elo2000-10+0.1-200.pgn --iterations 800 --skip-plies 6 --lambda 0 --optimizer gd --lr 3000 --hold-out 5 --result-weight 0.5
 * Data: 2200 games, 133313 training and 32520 validation positions (quiet, labelled by game result and search score).
 * K = 1.1470; stopped at iteration 299 (lowest validation error); mean squared error train 0.029891 -> 0.028787, validation 0.030351 -> 0.030175.
 */

/** Piece values by type (-, P, B, N, R, Q, K). */
export const MATERIAL_MG_VALUES: readonly number[] = [0, 80, 341, 325, 480, 991, 0];
export const MATERIAL_EG_VALUES: readonly number[] = [0, 102, 344, 307, 530, 981, 0];

/** Middlegame piece-square bonuses: one board diagram per piece type (rank 8 first, file a left, White's view). */
export const PST_MG_DIAGRAMS: readonly (readonly number[])[] = [
  [],
  [ // pawn
     0,   0,   0,   0,   0,   0,   0,   0,
    40,  45,  45,  50,  50,  45,  45,  40,
    14,  20,  25,  30,  30,  25,  20,  16,
     5,   6,  11,  20,  21,  12,   9,   4,
     0,   2,   8,  18,  19,   8,  -1,  -2,
     2,   1,   9,   8,   7,   2,   8,   0,
    -2,   5,   3, -11, -12,   7,   8,  -3,
     0,   0,   0,   0,   0,   0,   0,   0,
  ],
  [ // bishop
   -20, -10, -10, -10, -10, -10, -10, -20,
   -10,   0,   0,   0,   0,   0,   0, -10,
    -8,   4,   8,  10,  10,   8,   4,  -8,
    -6,   7,   6,  12,  12,   6,   6,  -7,
    -6,   4,  11,  12,  12,   8,   5,  -6,
    -5,   8,   9,   9,   6,   9,   8,  -4,
    -8,   9,   4,   4,   2,   4,  13,  -8,
   -20,  -8,  -9,  -8,  -8, -13,  -8, -20,
  ],
  [ // knight
   -60, -30, -20, -15, -15, -20, -30, -60,
   -25, -10,   5,  10,  10,   5, -10, -25,
   -15,  10,  20,  25,  25,  20,  10, -15,
   -10,   5,  18,  25,  25,  18,   6, -10,
   -11,   2,  14,  18,  18,  14,   3, -11,
   -19,   4,   5,  11,  10,  10,   2, -17,
   -25, -15,  -1,   4,   2,   3, -15, -25,
   -50, -21, -25, -14, -15, -25, -22, -50,
  ],
  [ // rook
     5,   8,   8,  10,  10,   8,   8,   5,
    18,  22,  22,  24,  24,  22,  22,  18,
    -4,   2,   4,   4,   4,   4,   2,  -4,
    -8,  -2,   0,   2,   2,   0,  -2,  -8,
   -10,  -4,  -2,   0,   0,  -2,  -4,  -9,
   -12,  -6,  -4,  -2,  -2,  -4,  -6, -12,
   -14,  -6,  -4,  -2,  -2,  -3,  -6, -14,
    -6,  -5,   1,   9,   7,   4,  -5,  -6,
  ],
  [ // queen
   -15,  -8,  -6,  -4,  -4,  -6,  -8, -15,
   -10, -12,  -4,   0,   0,  -4, -12, -10,
    -6,  -2,   2,   4,   4,   2,  -1,  -6,
    -6,  -2,   2,   4,   4,   2,  -2,  -5,
    -6,  -2,   1,   4,   4,   2,  -2,  -6,
    -8,   1,   2,   1,   2,   1,   3,  -8,
   -10,  -1,   4,   1,   2,  -2,  -2, -10,
   -15, -10,  -7,   3,  -4, -10, -10, -15,
  ],
  [ // king
   -50, -50, -50, -55, -55, -50, -50, -50,
   -45, -45, -45, -50, -50, -45, -45, -45,
   -40, -40, -40, -45, -45, -40, -40, -40,
   -35, -35, -40, -45, -45, -40, -35, -35,
   -25, -30, -30, -40, -40, -30, -30, -25,
   -10, -15, -20, -25, -25, -20, -15, -10,
    12,  10,  -5, -13, -13,  -7,  12,  14,
    14,  29,   9, -13,   3,  -9,  29,  20,
  ],
];

/** Endgame piece-square bonuses: one board diagram per piece type (rank 8 first, file a left, White's view). */
export const PST_EG_DIAGRAMS: readonly (readonly number[])[] = [
  [],
  [ // pawn
     0,   0,   0,   0,   0,   0,   0,   0,
    38,  38,  35,  32,  32,  35,  38,  38,
    21,  22,  17,  15,  16,  18,  22,  22,
     9,   8,   6,   3,   3,   6,   8,   8,
     5,   5,   2,   0,   0,   2,   4,   3,
     2,  -1,   1,   1,  -2,   2,   2,   0,
    -2,   2,  -1,   0,  -1,   2,   2,   0,
     0,   0,   0,   0,   0,   0,   0,   0,
  ],
  [ // bishop
   -14,  -8,  -6,  -4,  -4,  -6,  -8, -14,
    -8,  -2,   0,   2,   2,   0,  -2,  -8,
    -6,   0,   4,   6,   6,   4,   0,  -6,
    -4,   2,   6,   8,   8,   6,   2,  -4,
    -4,   2,   6,   7,   8,   6,   2,  -4,
    -6,   0,   4,   6,   6,   4,   0,  -6,
    -8,  -3,   0,   2,   2,   0,  -3,  -8,
   -14,  -8,  -6,  -4,  -4,  -6,  -8, -14,
  ],
  [ // knight
   -40, -25, -18, -12, -12, -18, -25, -40,
   -22, -10,  -2,   4,   4,  -2, -10, -22,
   -15,   0,   8,  12,  12,   8,   0, -15,
   -12,   4,  12,  16,  15,  12,   4, -12,
   -12,   2,  10,  14,  14,  10,   2, -12,
   -16,  -4,   1,   8,   8,   2,  -4, -16,
   -25, -12,  -6,  -2,  -2,  -5, -12, -25,
   -40, -28, -20, -14, -14, -20, -28, -40,
  ],
  [ // rook
     8,   8,   8,   8,   8,   8,   8,   8,
    10,  12,  12,  12,  12,  12,  12,  10,
     4,   4,   4,   4,   4,   4,   4,   4,
     2,   2,   2,   2,   2,   2,   2,   2,
     0,   0,   0,   0,   0,   0,   0,   0,
    -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
    -4,  -4,  -4,  -4,  -4,  -4,  -4,  -4,
    -3,  -2,   0,   0,  -1,  -1,  -2,  -5,
  ],
  [ // queen
   -10,  -4,   0,   4,   4,   0,  -4, -10,
    -4,   4,   8,  10,  10,   8,   4,  -4,
     0,   8,  12,  14,  14,  12,   8,   0,
     2,  10,  14,  18,  18,  14,  10,   2,
     0,   8,  14,  16,  16,  14,   8,   0,
    -4,   2,   8,  10,  10,   8,   2,  -4,
   -10,  -6,  -2,   0,   0,  -2,  -6, -10,
   -18, -14, -10,  -8,  -8, -10, -14, -18,
  ],
  [ // king
   -60, -35, -25, -20, -20, -25, -35, -60,
   -30, -10,   0,   4,   4,   0, -10, -30,
   -22,   0,  12,  18,  18,  12,   0, -22,
   -20,   4,  18,  23,  24,  18,   4, -20,
   -22,   0,  13,  20,  20,  13,   1, -22,
   -25,  -6,   6,   9,   9,   6,  -6, -25,
   -35, -15,  -6,  -2,  -2,  -6, -15, -34,
   -60, -39, -28, -22, -22, -28, -39, -60,
  ],
];

/** Evaluation terms (T in evaluate.ts): middlegame, endgame weight per term. */
export const TERM_WEIGHTS: readonly number[] = [
     0,    0, // PASSED+0
     4,   10, // PASSED+1
     4,   14, // PASSED+2
     9,   22, // PASSED+3
    24,   44, // PASSED+4
    45,   79, // PASSED+5
    70,  120, // PASSED+6
     0,    0, // PASSED+7
     0,    0, // PASSED_FREE+0
    -1,    2, // PASSED_FREE+1
    -1,    3, // PASSED_FREE+2
     0,    6, // PASSED_FREE+3
     4,   15, // PASSED_FREE+4
    10,   25, // PASSED_FREE+5
    15,   40, // PASSED_FREE+6
     0,    0, // PASSED_FREE+7
     0,    8, // PASSED_KING
   -14,  -14, // ISOLATED
   -11,  -21, // DOUBLED
    -9,   -9, // BACKWARD
     3,    4, // MOBILITY+0
     5,    5, // MOBILITY+1
     4,    2, // MOBILITY+2
     2,    9, // MOBILITY+3
    10,    1, // KING_ATTACK+0
     9,    1, // KING_ATTACK+1
    10,    1, // KING_ATTACK+2
    18,    4, // KING_ATTACK+3
    11,    0, // SHIELD_NEAR
     5,   -1, // SHIELD_FAR
   -20,    0, // KING_OPEN_FILE
    30,   50, // BISHOP_PAIR
    34,    8, // ROOK_OPEN
    16,    9, // ROOK_SEMIOPEN
    14,    1, // TEMPO
    49,   35, // PAWN_THREAT
    35,   30, // MINOR_THREAT
    25,   15, // OUTPOST
    28,   19, // HANGING
];
