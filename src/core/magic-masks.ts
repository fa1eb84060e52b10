/**
 * Relevant occupancy masks for sliders: the squares whose occupancy can change the attack set,
 * i.e. the empty-board rays without their final edge square and without the slider's own square.
 */
import { rayWalkAttacks } from './slider-attacks.js';

const RANK_1_LO = 0xff,
  FILE_A_LO = 0x01010101,
  FILE_H_LO = 0x80808080 | 0;
export function relevantMask(kind: 'rook' | 'bishop', sq: number, out: Int32Array): Int32Array {
  rayWalkAttacks[kind](sq, 0, 0, out);
  let lo = out[0],
    hi = out[1];
  const f = sq & 7,
    r = sq >> 3;
  // Edge squares are never blockers that matter, unless the slider stands on that edge line.
  if (kind === 'bishop' || r !== 0) lo &= ~RANK_1_LO;
  if (kind === 'bishop' || r !== 7) hi &= ~(RANK_1_LO << 24);
  if (kind === 'bishop' || f !== 0) {
    lo &= ~FILE_A_LO;
    hi &= ~FILE_A_LO;
  }
  if (kind === 'bishop' || f !== 7) {
    lo &= ~FILE_H_LO;
    hi &= ~FILE_H_LO;
  }
  out[0] = lo;
  out[1] = hi;
  return out;
}
