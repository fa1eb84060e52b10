/**
 * Legal move generation on the matrix position. Targets come from matrix products
 * (matrix-attacks.ts); everything chess adds on top — whose turn it is, not leaving the own
 * king attacked (checks and pins), castling conditions, en passant, promotion choice — is
 * explicit control flow here. docs/the-line.md lists each rule and its side of the line.
 *
 * Moves are core move ints (src/core/move.ts), identical to the bitboard core's.
 */
import { mulRows } from './bitmat.js';
import { ALL_ONES } from './basis.js';
import {
  kingTargets, knightTargets, pawnCaptureTargets, pawnForward, rayAttacks, slidingAttacks,
} from './matrix-attacks.js';
import { COLOR_OFF, MatrixPosition, OCC_OFF, STRIDE } from './matrix-position.js';
import { BISHOP, KING, KNIGHT, NO_SQUARE, PAWN, QUEEN, ROOK, BLACK_OO, BLACK_OOO, WHITE_OO, WHITE_OOO } from '../core/types.js';
import { KIND_CASTLE, KIND_EN_PASSANT } from '../core/move.js';

const T = new Int32Array(8);
/** Squares a pinned piece may still move to (the line king–pinner), by square. */
const PIN_RAY = new Int32Array(128);
/** Row masks e_r 1ᵀ packed: the row a double push must land on (row 4 white, row 3 black). */
const DOUBLE_ROW = new Int32Array(4);
{
  // E(r, 0) · J is the whole row r.
  const rowMask = (r: number, o: number): void => {
    const b = (7 - r) << 3;
    mulRows(DOUBLE_ROW, o, b < 32 ? 1 << b : 0, b < 32 ? 0 : 1 << (b - 32), ALL_ONES[0], ALL_ONES[1]);
  };
  rowMask(4, 0); rowMask(3, 2);
}

const PROMOS = [QUEEN, ROOK, BISHOP, KNIGHT];

/** Emits one move per target square; from is fixed. Promotes when the target is on the last row. */
function emit(out: Int32Array, n: number, from: number, lo: number, hi: number, promoting: boolean): number {
  while (lo !== 0) {
    const to = 31 - Math.clz32(lo & -lo);
    lo &= lo - 1;
    n = push(out, n, from, to, promoting && (to < 8 || to >= 56));
  }
  while (hi !== 0) {
    const to = 63 - Math.clz32(hi & -hi);
    hi &= hi - 1;
    n = push(out, n, from, to, promoting && (to < 8 || to >= 56));
  }
  return n;
}

function push(out: Int32Array, n: number, from: number, to: number, promote: boolean): number {
  const m = from | (to << 6);
  if (!promote) { out[n++] = m; return n; }
  for (let i = 0; i < 4; i++) out[n++] = m | (PROMOS[i] << 12);
  return n;
}

/** Writes the legal moves of the current position into out from index n; returns the end index. */
export function generateLegal(mp: MatrixPosition, out: Int32Array, n: number): number {
  const bits = mp.bits, b = STRIDE * mp.ply;
  const us = mp.sideAt[mp.ply], them = us ^ 1;
  const uo = b + 2 * (us << 3), to_ = b + 2 * (them << 3);
  const ownLo = bits[b + COLOR_OFF + 2 * us], ownHi = bits[b + COLOR_OFF + 2 * us + 1];
  const oppLo = bits[b + COLOR_OFF + 2 * them], oppHi = bits[b + COLOR_OFF + 2 * them + 1];
  const occLo = bits[b + OCC_OFF], occHi = bits[b + OCC_OFF + 1];
  const kLo = bits[uo + 2 * KING], kHi = bits[uo + 2 * KING + 1];
  const ksq = kLo !== 0 ? 31 - Math.clz32(kLo) : 63 - Math.clz32(kHi);

  const rqLo = bits[to_ + 2 * ROOK] | bits[to_ + 2 * QUEEN], rqHi = bits[to_ + 2 * ROOK + 1] | bits[to_ + 2 * QUEEN + 1];
  const bqLo = bits[to_ + 2 * BISHOP] | bits[to_ + 2 * QUEEN], bqHi = bits[to_ + 2 * BISHOP + 1] | bits[to_ + 2 * QUEEN + 1];
  const tnLo = bits[to_ + 2 * KNIGHT], tnHi = bits[to_ + 2 * KNIGHT + 1];
  const tpLo = bits[to_ + 2 * PAWN], tpHi = bits[to_ + 2 * PAWN + 1];

  // Squares the opponent attacks, with our king lifted off the board so it cannot hide behind itself.
  const xLo = occLo & ~kLo, xHi = occHi & ~kHi;
  pawnCaptureTargets(T, 0, them, tpLo, tpHi);
  let dLo = T[0], dHi = T[1];
  knightTargets(T, 0, tnLo, tnHi);
  dLo |= T[0]; dHi |= T[1];
  kingTargets(T, 0, bits[to_ + 2 * KING], bits[to_ + 2 * KING + 1]);
  dLo |= T[0]; dHi |= T[1];
  for (let d0 = 0; d0 <= 4; d0 += 4) {
    let sLo = d0 === 0 ? rqLo : bqLo, sHi = d0 === 0 ? rqHi : bqHi;
    while (sLo !== 0) {
      const s = 31 - Math.clz32(sLo & -sLo); sLo &= sLo - 1;
      slidingAttacks(T, 0, d0, s, xLo, xHi); dLo |= T[0]; dHi |= T[1];
    }
    while (sHi !== 0) {
      const s = 63 - Math.clz32(sHi & -sHi); sHi &= sHi - 1;
      slidingAttacks(T, 0, d0, s, xLo, xHi); dLo |= T[0]; dHi |= T[1];
    }
  }

  // Checkers, the squares that resolve a check, and pins — all seen from the king.
  let nCheck = 0, resolveLo = 0, resolveHi = 0, pinLo = 0, pinHi = 0;
  knightTargets(T, 0, kLo, kHi);
  const knLo = T[0] & tnLo, knHi = T[1] & tnHi;
  pawnCaptureTargets(T, 0, us, kLo, kHi);
  const pcLo = T[0] & tpLo, pcHi = T[1] & tpHi;
  if ((knLo | knHi | pcLo | pcHi) !== 0) {
    nCheck += popcount(knLo | pcLo) + popcount(knHi | pcHi);
    resolveLo = knLo | pcLo; resolveHi = knHi | pcHi;
  }
  for (let d = 0; d < 8; d++) {
    const slLo = d < 4 ? rqLo : bqLo, slHi = d < 4 ? rqHi : bqHi;
    rayAttacks(T, 0, d, ksq, occLo, occHi);
    const aLo = T[0], aHi = T[1];
    if (((aLo & slLo) | (aHi & slHi)) !== 0) {
      nCheck++;
      resolveLo |= aLo; resolveHi |= aHi; // the checker and every square between
    } else if (((aLo & ownLo) | (aHi & ownHi)) !== 0) {
      const pLo = aLo & ownLo, pHi = aHi & ownHi;
      rayAttacks(T, 2, d, ksq, occLo & ~pLo, occHi & ~pHi);
      if (((T[2] & slLo) | (T[3] & slHi)) !== 0) {
        const ps = pLo !== 0 ? 31 - Math.clz32(pLo) : 63 - Math.clz32(pHi);
        pinLo |= pLo; pinHi |= pHi;
        PIN_RAY[2 * ps] = T[2]; PIN_RAY[2 * ps + 1] = T[3];
      }
    }
  }

  // King moves: to squares neither own nor attacked.
  kingTargets(T, 0, kLo, kHi);
  n = emit(out, n, ksq, T[0] & ~ownLo & ~dLo, T[1] & ~ownHi & ~dHi, false);
  if (nCheck > 1) return n;

  const tgtLo = (nCheck === 0 ? -1 : resolveLo) & ~ownLo, tgtHi = (nCheck === 0 ? -1 : resolveHi) & ~ownHi;
  const emptyLo = ~occLo, emptyHi = ~occHi;

  // Knights (a pinned knight can never move), bishops, rooks, queens.
  for (let type = BISHOP; type <= QUEEN; type++) {
    let pLo = bits[uo + 2 * type], pHi = bits[uo + 2 * type + 1];
    if (type === KNIGHT) { pLo &= ~pinLo; pHi &= ~pinHi; }
    for (let half = 0; half < 2; half++) {
      let x = half === 0 ? pLo : pHi;
      while (x !== 0) {
        const s = (31 - Math.clz32(x & -x)) + 32 * half;
        x &= x - 1;
        const eLo = s < 32 ? 1 << s : 0, eHi = s < 32 ? 0 : 1 << (s - 32);
        if (type === KNIGHT) knightTargets(T, 0, eLo, eHi);
        else if (type === BISHOP) slidingAttacks(T, 0, 4, s, occLo, occHi);
        else if (type === ROOK) slidingAttacks(T, 0, 0, s, occLo, occHi);
        else {
          slidingAttacks(T, 0, 0, s, occLo, occHi);
          slidingAttacks(T, 2, 4, s, occLo, occHi);
          T[0] |= T[2]; T[1] |= T[3];
        }
        let mLo = T[0] & tgtLo, mHi = T[1] & tgtHi;
        if (((eLo & pinLo) | (eHi & pinHi)) !== 0) { mLo &= PIN_RAY[2 * s]; mHi &= PIN_RAY[2 * s + 1]; }
        n = emit(out, n, s, mLo, mHi, false);
      }
    }
  }

  // Pawns: forward squares by the shift product, the rest is the pawn's own rules.
  const ep = mp.epAt[mp.ply];
  const epLo = ep !== NO_SQUARE && ep < 32 ? 1 << ep : 0, epHi = ep !== NO_SQUARE && ep >= 32 ? 1 << (ep - 32) : 0;
  const dblLo = DOUBLE_ROW[2 * us], dblHi = DOUBLE_ROW[2 * us + 1];
  for (let half = 0; half < 2; half++) {
    let x = half === 0 ? bits[uo + 2 * PAWN] : bits[uo + 2 * PAWN + 1];
    while (x !== 0) {
      const s = (31 - Math.clz32(x & -x)) + 32 * half;
      x &= x - 1;
      const eLo = s < 32 ? 1 << s : 0, eHi = s < 32 ? 0 : 1 << (s - 32);
      let aLo = tgtLo, aHi = tgtHi;
      if (((eLo & pinLo) | (eHi & pinHi)) !== 0) { aLo &= PIN_RAY[2 * s]; aHi &= PIN_RAY[2 * s + 1]; }
      pawnForward(T, 0, us, eLo, eHi);
      const sLo = T[0] & emptyLo, sHi = T[1] & emptyHi;          // single step onto an empty square
      if ((sLo | sHi) !== 0) {
        pawnForward(T, 2, us, sLo, sHi);                           // and once more, if it lands on the double-push row
        n = emit(out, n, s, (sLo | (T[2] & emptyLo & dblLo)) & aLo, (sHi | (T[3] & emptyHi & dblHi)) & aHi, true);
      }
      pawnCaptureTargets(T, 0, us, eLo, eHi);
      n = emit(out, n, s, T[0] & oppLo & aLo, T[1] & oppHi & aHi, true);
      if (((T[0] & epLo) | (T[1] & epHi)) !== 0 && epLegal(mp, s, ep, ksq, us, occLo, occHi, rqLo, rqHi, bqLo, bqHi, knLo | knHi, tpLo, tpHi)) {
        out[n++] = s | (ep << 6) | (KIND_EN_PASSANT << 15);
      }
    }
  }

  // Castling: rights, empty path, king not in check, not passing or landing on an attacked square.
  const rights = mp.castlingAt[mp.ply];
  if (nCheck === 0 && rights !== 0) {
    const base = us === 0 ? 0 : 56;
    const oo = us === 0 ? WHITE_OO : BLACK_OO, ooo = us === 0 ? WHITE_OOO : BLACK_OOO;
    if ((rights & oo) !== 0 && squaresFree(occLo, occHi, base + 5, base + 6) && squaresFree(dLo, dHi, base + 5, base + 6)) {
      out[n++] = (base + 4) | ((base + 6) << 6) | (KIND_CASTLE << 15);
    }
    if ((rights & ooo) !== 0 && squaresFree(occLo, occHi, base + 1, base + 3) && squaresFree(dLo, dHi, base + 2, base + 3)) {
      out[n++] = (base + 4) | ((base + 2) << 6) | (KIND_CASTLE << 15);
    }
  }
  return n;
}

/** True when squares a..b (inclusive, same rank) are all 0 in (lo, hi). */
function squaresFree(lo: number, hi: number, a: number, b: number): boolean {
  for (let s = a; s <= b; s++) if ((s < 32 ? (lo >>> s) & 1 : (hi >>> (s - 32)) & 1) !== 0) return false;
  return true;
}

/**
 * En passant removes two pieces from a line at once, which pins cannot describe: test the
 * position after the capture directly (sliders by ray products on the new occupancy, knights
 * unchanged, pawns minus the captured one).
 */
function epLegal(mp: MatrixPosition, from: number, ep: number, ksq: number, us: number, occLo: number, occHi: number,
  rqLo: number, rqHi: number, bqLo: number, bqHi: number, knightCheck: number, tpLo: number, tpHi: number): boolean {
  void mp;
  if (knightCheck !== 0) return false;
  const cap = us === 0 ? ep - 8 : ep + 8;
  const cLo = cap < 32 ? 1 << cap : 0, cHi = cap < 32 ? 0 : 1 << (cap - 32);
  const fLo = from < 32 ? 1 << from : 0, fHi = from < 32 ? 0 : 1 << (from - 32);
  const tLo = ep < 32 ? 1 << ep : 0, tHi = ep < 32 ? 0 : 1 << (ep - 32);
  const oLo = (occLo & ~cLo & ~fLo) | tLo, oHi = (occHi & ~cHi & ~fHi) | tHi;
  const kLo = ksq < 32 ? 1 << ksq : 0, kHi = ksq < 32 ? 0 : 1 << (ksq - 32);
  pawnCaptureTargets(T, 4, us, kLo, kHi);
  if (((T[4] & tpLo & ~cLo) | (T[5] & tpHi & ~cHi)) !== 0) return false;
  slidingAttacks(T, 4, 0, ksq, oLo, oHi);
  if (((T[4] & rqLo) | (T[5] & rqHi)) !== 0) return false;
  slidingAttacks(T, 4, 4, ksq, oLo, oHi);
  return ((T[4] & bqLo) | (T[5] & bqHi)) === 0;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
