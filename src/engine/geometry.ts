/**
 * Board geometry the evaluation terms and the endgame rules share: file masks in one 32-bit
 * half (the pattern is the same in both), the king-step distance between squares, a square's
 * colour.
 */

/** The a-file and the h-file in one half (ranks 1–4 of `lo`, or 5–8 of `hi`). */
export const FILE_A = 0x01010101,
  FILE_H = 0x80808080 | 0;

/** King steps from a to b at [a * 64 + b]: the larger of the file and rank distances. */
export const squareDistance = new Uint8Array(64 * 64);
for (let a = 0; a < 64; a++) {
  for (let b = 0; b < 64; b++) squareDistance[a * 64 + b] = Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3)));
}

/** A square's colour: 1 for light (h1's), 0 for dark (a1's). */
export function squareColour(sq: number): number {
  return ((sq >> 3) + sq) & 1;
}
