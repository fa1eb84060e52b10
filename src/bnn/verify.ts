/**
 * Exhaustive verification: every square, every relevant occupancy, against the ray-walking
 * reference. Squares outside the relevant mask get deterministic junk (and the slider's own
 * square is sometimes occupied) so the gather's masking is checked too: those bits must not
 * change the answer.
 */
import { rayWalkAttacks, type SliderAttacks } from '../core/slider-attacks.js';
import { SQUARE_LAYOUTS, enumerateInputs, inputToOccupancy } from './layout.js';
import { mix32 } from '../core/rng.js';

export interface VerifyResult {
  checked: number;
  errors: number;
  /** Up to 5 failing cases, for the report. */
  examples: string[];
}

export interface Coverage {
  pieces: number;
  squaresLo: number;
  squaresHi: number;
}

export const FULL_COVERAGE: Coverage = { pieces: 3, squaresLo: -1, squaresHi: -1 };

/** Compares `sliders` with `reference` (default the ray-walking attacks) on every relevant occupancy of the covered squares. */
export function verifySliders(
  sliders: SliderAttacks,
  cover: Coverage = FULL_COVERAGE,
  reference: SliderAttacks = rayWalkAttacks,
): VerifyResult {
  const res: VerifyResult = { checked: 0, errors: 0, examples: [] };
  const occ = new Int32Array(2),
    want = new Int32Array(2),
    got = new Int32Array(2);
  for (let p = 0; p < 2; p++) {
    if (!((cover.pieces >> p) & 1)) continue;
    const ref = p === 0 ? reference.rook.bind(reference) : reference.bishop.bind(reference);
    const bnn = p === 0 ? sliders.rook.bind(sliders) : sliders.bishop.bind(sliders);
    for (let sq = 0; sq < 64; sq++) {
      if (!(((sq < 32 ? cover.squaresLo : cover.squaresHi) >>> (sq & 31)) & 1)) continue;
      const lay = SQUARE_LAYOUTS[p][sq];
      const own = sq < 32 ? [1 << sq, 0] : [0, 1 << (sq - 32)];
      for (const word of enumerateInputs(lay)) {
        inputToOccupancy(lay, word, occ);
        const h = mix32(word ^ (sq << 16) ^ (p << 24));
        const jLo = mix32(h) & ~lay.maskLo,
          jHi = mix32(h ^ 0x5bd1e995) & ~lay.maskHi;
        const ownOn = h & 1;
        const lo = ((occ[0] | jLo) & ~own[0]) | (ownOn ? own[0] : 0);
        const hi = ((occ[1] | jHi) & ~own[1]) | (ownOn ? own[1] : 0);
        ref(sq, lo, hi, want);
        bnn(sq, lo, hi, got);
        res.checked++;
        if (want[0] !== got[0] || want[1] !== got[1]) {
          res.errors++;
          if (res.examples.length < 5) {
            res.examples.push(
              `${p === 0 ? 'rook' : 'bishop'} sq ${sq} occ ${hex(hi)}${hex(lo).slice(2)}: got ${hex(got[1])}${hex(got[0]).slice(2)} want ${hex(want[1])}${hex(want[0]).slice(2)}`,
            );
          }
        }
      }
    }
  }
  return res;
}

const hex = (x: number): string => '0x' + (x >>> 0).toString(16).padStart(8, '0');
