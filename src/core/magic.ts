/**
 * Magic-bitboard sliding attacks on 32-bit halves: the default (classical) provider.
 * index = (imul(occLo & maskLo, magicLo) ^ imul(occHi & maskHi, magicHi)) >>> (32 - bits);
 * one table holds the attack sets of all squares, interleaved lo/hi.
 */
import { relevantMask } from './magic-masks.js';
import { ROOK_MAGICS, BISHOP_MAGICS } from './magic-numbers.js';
import { rayWalkAttacks, type SliderAttacks } from './slider-attacks.js';

interface MagicTables {
  maskLo: Int32Array;
  maskHi: Int32Array;
  magicLo: Int32Array;
  magicHi: Int32Array;
  shift: Int32Array;
  offset: Int32Array;
  table: Int32Array; // interleaved [lo, hi] per index
}

function build(kind: 'rook' | 'bishop', magics: Int32Array): MagicTables {
  const t: MagicTables = {
    maskLo: new Int32Array(64),
    maskHi: new Int32Array(64),
    magicLo: new Int32Array(64),
    magicHi: new Int32Array(64),
    shift: new Int32Array(64),
    offset: new Int32Array(64),
    table: new Int32Array(0),
  };
  let total = 0;
  for (let sq = 0; sq < 64; sq++) {
    t.offset[sq] = total;
    total += 1 << magics[sq * 3 + 2];
  }
  t.table = new Int32Array(total * 2);
  const mask = new Int32Array(2),
    out = new Int32Array(2);
  for (let sq = 0; sq < 64; sq++) {
    relevantMask(kind, sq, mask);
    const mLo = mask[0],
      mHi = mask[1];
    const a = magics[sq * 3],
      b = magics[sq * 3 + 1],
      bits = magics[sq * 3 + 2];
    t.maskLo[sq] = mLo;
    t.maskHi[sq] = mHi;
    t.magicLo[sq] = a;
    t.magicHi[sq] = b;
    t.shift[sq] = 32 - bits;
    let lo = 0,
      hi = 0;
    do {
      rayWalkAttacks[kind](sq, lo, hi, out);
      const idx = t.offset[sq] + ((Math.imul(lo, a) ^ Math.imul(hi, b)) >>> (32 - bits));
      t.table[idx * 2] = out[0];
      t.table[idx * 2 + 1] = out[1];
      lo = (lo - mLo) & mLo;
      if (lo === 0) hi = (hi - mHi) & mHi;
    } while (lo !== 0 || hi !== 0);
  }
  return t;
}

const R = build('rook', ROOK_MAGICS);
const B = build('bishop', BISHOP_MAGICS);
const rMaskLo = R.maskLo,
  rMaskHi = R.maskHi,
  rMagLo = R.magicLo,
  rMagHi = R.magicHi,
  rShift = R.shift,
  rOff = R.offset,
  rTab = R.table;
const bMaskLo = B.maskLo,
  bMaskHi = B.maskHi,
  bMagLo = B.magicLo,
  bMagHi = B.magicHi,
  bShift = B.shift,
  bOff = B.offset,
  bTab = B.table;

/** Index into the interleaved rook table (times two); hot paths read table[i] and table[i + 1]. */
export function rookIndex(sq: number, occLo: number, occHi: number): number {
  return (rOff[sq] + ((Math.imul(occLo & rMaskLo[sq], rMagLo[sq]) ^ Math.imul(occHi & rMaskHi[sq], rMagHi[sq])) >>> rShift[sq])) << 1;
}
export function bishopIndex(sq: number, occLo: number, occHi: number): number {
  return (bOff[sq] + ((Math.imul(occLo & bMaskLo[sq], bMagLo[sq]) ^ Math.imul(occHi & bMaskHi[sq], bMagHi[sq])) >>> bShift[sq])) << 1;
}
export const rookTable = rTab;
export const bishopTable = bTab;

export const magicAttacks: SliderAttacks = {
  name: 'magic',
  rook(sq, occLo, occHi, out) {
    const i = rookIndex(sq, occLo, occHi);
    out[0] = rTab[i];
    out[1] = rTab[i + 1];
  },
  bishop(sq, occLo, occHi, out) {
    const i = bishopIndex(sq, occLo, occHi);
    out[0] = bTab[i];
    out[1] = bTab[i + 1];
  },
};
