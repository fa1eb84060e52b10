/**
 * Geometry of the BNN slider networks: which occupancy bits a square's networks read, which
 * target squares they answer for, and how bits are gathered and scattered without pext/pdep.
 *
 * Every slider square has two lines through it: a rook's rank ("line A") and file ("line B"),
 * a bishop's diagonal a1-h8 direction (A) and anti-diagonal (B). The 16-bit network input is
 * `A | B << 8`, each byte the relevant occupancy of one line (edges and the square itself
 * excluded) at the bit of the square's file (rank for a rook's file). Keeping each line in its
 * own byte means every target's answer depends on one byte only, and both gather and scatter
 * are a shift or a multiply instead of a bit-by-bit pext/pdep.
 *
 * The 16x32x1 and 64x64x1 layouts share the targets and their order; they differ in input.
 */
export const ROOK = 0;
import { popcount32 } from '../core/bitboard.js';
export const BISHOP = 1;
export type SliderPiece = 0 | 1;
export const PIECE_NAMES = ['rook', 'bishop'] as const;

/** One target network: the square it answers for and its bit in the 16-bit output word. */
export interface Target {
  readonly square: number;
  /** 0..7 on line A (indexed like the input byte), 8..15 on line B. */
  readonly bit: number;
  /** Input-word bits that must all be empty for the target to be attacked (between squares). */
  readonly between: number;
  /** The same between squares as a 64-bit mask (lo, hi halves). */
  readonly betweenLo: number;
  readonly betweenHi: number;
}

export interface SquareLayout {
  readonly piece: SliderPiece;
  readonly square: number;
  /** Relevant occupancy as a 64-bit mask (halves). */
  readonly maskLo: number;
  readonly maskHi: number;
  /** Relevant bits of the 16-bit input word (subset of A | B << 8). */
  readonly inputMask: number;
  /** Full line masks including edges, without the square: where output bytes scatter to. */
  readonly lineALo: number;
  readonly lineAHi: number;
  readonly lineBLo: number;
  readonly lineBHi: number;
  /** Target networks in canonical order (ascending output bit). */
  readonly targets: readonly Target[];
}

const onBoard = (f: number, r: number): boolean => f >= 0 && f < 8 && r >= 0 && r < 8;
const interior = (f: number, r: number): boolean => f >= 1 && f <= 6 && r >= 1 && r <= 6;

function setBit(m: Int32Array, sq: number): void {
  if (sq < 32) m[0] |= 1 << sq;
  else m[1] |= 1 << (sq - 32);
}

function buildSquare(piece: SliderPiece, sq: number): SquareLayout {
  const f0 = sq & 7,
    r0 = sq >> 3;
  // Directions of line A and line B; the input bit index along a line is the file, except for a
  // rook's file where it is the rank.
  const lines: Array<{ dirs: Array<[number, number]>; byRank: boolean }> =
    piece === ROOK
      ? [
          {
            dirs: [
              [1, 0],
              [-1, 0],
            ],
            byRank: false,
          },
          {
            dirs: [
              [0, 1],
              [0, -1],
            ],
            byRank: true,
          },
        ]
      : [
          {
            dirs: [
              [1, 1],
              [-1, -1],
            ],
            byRank: false,
          },
          {
            dirs: [
              [1, -1],
              [-1, 1],
            ],
            byRank: false,
          },
        ];
  const mask = new Int32Array(2);
  const lineMasks = [new Int32Array(2), new Int32Array(2)];
  let inputMask = 0;
  const targets: Target[] = [];
  lines.forEach((line, li) => {
    for (const [df, dr] of line.dirs) {
      let between = 0;
      const betweenBB = new Int32Array(2);
      for (let f = f0 + df, r = r0 + dr; onBoard(f, r); f += df, r += dr) {
        const s = (r << 3) | f;
        const bit = (line.byRank ? r : f) + 8 * li;
        setBit(lineMasks[li], s);
        targets.push({ square: s, bit, between, betweenLo: betweenBB[0], betweenHi: betweenBB[1] });
        const relevant = piece === ROOK ? (line.byRank ? r >= 1 && r <= 6 : f >= 1 && f <= 6) : interior(f, r);
        if (relevant) {
          setBit(mask, s);
          inputMask |= 1 << bit;
          between |= 1 << bit;
          setBit(betweenBB, s);
        } else if (onBoard(f + df, r + dr)) {
          throw new Error('internal: non-relevant square inside a ray');
        }
      }
    }
  });
  targets.sort((a, b) => a.bit - b.bit);
  return {
    piece,
    square: sq,
    maskLo: mask[0],
    maskHi: mask[1],
    inputMask,
    lineALo: lineMasks[0][0],
    lineAHi: lineMasks[0][1],
    lineBLo: lineMasks[1][0],
    lineBHi: lineMasks[1][1],
    targets,
  };
}

/** LAYOUTS[piece][square]. */
export const SQUARE_LAYOUTS: ReadonlyArray<ReadonlyArray<SquareLayout>> = [ROOK, BISHOP].map((p) =>
  Array.from({ length: 64 }, (_, sq) => buildSquare(p as SliderPiece, sq)),
);

/** First network index of (piece, square) in the canonical network order; NETWORK_BASE[2][0] = total. */
export const NETWORK_BASE: ReadonlyArray<Int32Array> = (() => {
  const bases = [new Int32Array(65), new Int32Array(65)];
  let n = 0;
  for (let p = 0; p < 2; p++) {
    for (let sq = 0; sq < 64; sq++) {
      bases[p][sq] = n;
      n += SQUARE_LAYOUTS[p][sq].targets.length;
    }
    bases[p][64] = n;
  }
  return bases;
})();
export const NETWORK_COUNT = NETWORK_BASE[1][64];

/**
 * Gathers the 16-bit input word from a 64-bit occupancy. Line bytes of ranks and diagonals are
 * folded into one byte by a multiply (each line has at most one square per rank, on distinct
 * files, so the bytes never carry into each other); a file is rotated into a byte by a multiply
 * that moves bit 8k to bit 24+k.
 */
export function gatherInput(lay: SquareLayout, occLo: number, occHi: number): number {
  const lo = occLo & lay.maskLo,
    hi = occHi & lay.maskHi;
  if (lay.piece === ROOK) {
    const f = lay.square & 7;
    const a = foldLine(lo & lay.lineALo, hi & lay.lineAHi);
    const fileLo = (lo >>> f) & 0x01010101,
      fileHi = (hi >>> f) & 0x01010101;
    const b = (Math.imul(fileLo, 0x01020408) >>> 24) | ((Math.imul(fileHi, 0x01020408) >>> 24) << 4);
    return a | (b << 8);
  }
  return foldLine(lo & lay.lineALo, hi & lay.lineAHi) | (foldLine(lo & lay.lineBLo, hi & lay.lineBHi) << 8);
}

function foldLine(lo: number, hi: number): number {
  return ((Math.imul(lo, 0x01010101) >>> 24) | (Math.imul(hi, 0x01010101) >>> 24)) & 0xff;
}

/** a-file squares of a nibble indexed by rank (bit r -> square 8r): one half-board's worth. */
const FILE_SPREAD = new Int32Array(16);
for (let b = 0; b < 16; b++) {
  for (let r = 0; r < 4; r++) if ((b >> r) & 1) FILE_SPREAD[b] |= 1 << (8 * r);
}

/** Scatters a 16-bit output word onto its target squares; writes out[0], out[1]. */
export function scatterOutput(lay: SquareLayout, word: number, out: Int32Array): void {
  const a = word & 0xff,
    b = (word >>> 8) & 0xff;
  if (lay.piece === ROOK) {
    const f = lay.square & 7;
    const spreadA = Math.imul(a, 0x01010101);
    out[0] = (spreadA & lay.lineALo) | (FILE_SPREAD[b & 15] << f);
    out[1] = (spreadA & lay.lineAHi) | (FILE_SPREAD[b >>> 4] << f);
    return;
  }
  const spreadA = Math.imul(a, 0x01010101),
    spreadB = Math.imul(b, 0x01010101);
  out[0] = (spreadA & lay.lineALo) | (spreadB & lay.lineBLo);
  out[1] = (spreadA & lay.lineAHi) | (spreadB & lay.lineBHi);
}

/** Every relevant input word of a square, ascending (carry-rippler over inputMask). */
export function enumerateInputs(lay: SquareLayout): Uint16Array {
  const m = lay.inputMask;
  const out = new Uint16Array(1 << popcount32(m));
  let x = 0,
    i = 0;
  do {
    out[i++] = x;
    x = (x - m) & m;
  } while (x !== 0);
  return out;
}

/** Expands an input word back to its 64-bit occupancy (for tests and verification). */
export function inputToOccupancy(lay: SquareLayout, word: number, out: Int32Array): Int32Array {
  scatterOutput(lay, word & lay.inputMask, out);
  out[0] &= lay.maskLo;
  out[1] &= lay.maskHi;
  return out;
}
