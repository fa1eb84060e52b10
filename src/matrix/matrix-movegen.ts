/**
 * Legal move generation on the matrix position. Targets come from matrix products
 * (matrix-attacks.ts); everything chess adds on top — whose turn it is, not leaving the own
 * king attacked (checks and pins), castling conditions, en passant, promotion choice — is
 * explicit control flow here. docs/the-line.md lists each rule and its side of the line.
 *
 * Moves are core move ints (src/core/move.ts), identical to the bitboard core's.
 */
import { mulRows } from './bitmat.js';
import { ALL_ONES, RAY_OPS, SHIFT, shiftAt } from './basis.js';
import { kingTargets, knightTargets, pawnCaptureTargets, pawnForward, rayAttacks, slidingAttacks } from './matrix-attacks.js';
import { COLOR_OFF, MatrixPosition, OCC_OFF, STRIDE } from './matrix-position.js';
import { BISHOP, KING, KNIGHT, NO_SQUARE, PAWN, QUEEN, ROOK, BLACK_OO, BLACK_OOO, WHITE_OO, WHITE_OOO } from '../core/types.js';
import { betweenHi, betweenLo } from '../core/attacks.js';
import { KIND_CASTLE, KIND_EN_PASSANT, castleKingTo } from '../core/move.js';
import { popcount32 } from '../core/bitboard.js';

const T = new Int32Array(8);
/** Squares a pinned piece may still move to (the line king–pinner), by square. */
const PIN_RAY = new Int32Array(128);
/** Row masks packed: the row a double push lands on (row 4 white, row 3 black); the last rows. */
const DOUBLE_ROW = new Int32Array(4);
const LAST_ROWS = new Int32Array(2);
{
  // E(r, 0) · J is the whole row r.
  const rowMask = (out: Int32Array, r: number, o: number): void => {
    const b = (7 - r) << 3;
    mulRows(out, o, b < 32 ? 1 << b : 0, b < 32 ? 0 : 1 << (b - 32), ALL_ONES[0], ALL_ONES[1]);
  };
  rowMask(DOUBLE_ROW, 4, 0);
  rowMask(DOUBLE_ROW, 3, 2);
  const t = new Int32Array(4);
  rowMask(t, 0, 0);
  rowMask(t, 7, 2);
  LAST_ROWS[0] = t[0] | t[2];
  LAST_ROWS[1] = t[1] | t[3];
}

const SHIFT_WEST_LO = SHIFT[shiftAt(1)],
  SHIFT_WEST_HI = SHIFT[shiftAt(1) + 1];
const SHIFT_EAST_LO = SHIFT[shiftAt(-1)],
  SHIFT_EAST_HI = SHIFT[shiftAt(-1) + 1];
const PROMOS = [QUEEN, ROOK, BISHOP, KNIGHT];
/** Promotion squares: rows 0 and 7. */
const LAST_LO = LAST_ROWS[0],
  LAST_HI = LAST_ROWS[1];

/** When set, emitters only count (perft's bulk count at depth 1); writes to `out` are then scratch. */
let countOnly = false;
const SCRATCH = new Int32Array(256);

/** Emits from → every target; promotes when the target is on a last row and `promoting`. */
function emit(out: Int32Array, n: number, from: number, lo: number, hi: number, promoting: boolean): number {
  if (countOnly) {
    n += popcount32(lo) + popcount32(hi);
    return promoting ? n + 3 * (popcount32(lo & LAST_LO) + popcount32(hi & LAST_HI)) : n;
  }
  while (lo !== 0) {
    const to = 31 - Math.clz32(lo & -lo);
    lo &= lo - 1;
    n = push(out, n, from, to, promoting && to < 8);
  }
  while (hi !== 0) {
    const to = 63 - Math.clz32(hi & -hi);
    hi &= hi - 1;
    n = push(out, n, from, to, promoting && to >= 56);
  }
  return n;
}

/** Emits pawn moves of a whole set of targets; each came from `to − delta` (the shift it was made by). */
function emitPawns(out: Int32Array, n: number, delta: number, lo: number, hi: number): number {
  if (countOnly) return n + popcount32(lo) + popcount32(hi) + 3 * (popcount32(lo & LAST_LO) + popcount32(hi & LAST_HI));
  while (lo !== 0) {
    const to = 31 - Math.clz32(lo & -lo);
    lo &= lo - 1;
    n = push(out, n, to - delta, to, to < 8);
  }
  while (hi !== 0) {
    const to = 63 - Math.clz32(hi & -hi);
    hi &= hi - 1;
    n = push(out, n, to - delta, to, to >= 56);
  }
  return n;
}

function push(out: Int32Array, n: number, from: number, to: number, promote: boolean): number {
  const m = from | (to << 6);
  if (!promote) {
    out[n++] = m;
    return n;
  }
  for (let i = 0; i < 4; i++) out[n++] = m | (PROMOS[i] << 12);
  return n;
}

/** The number of legal moves (no list is written). */
export function countLegal(mp: MatrixPosition): number {
  countOnly = true;
  try {
    return generateLegal(mp, SCRATCH, 0);
  } finally {
    countOnly = false;
  }
}

/** Writes the legal moves of the current position into out from index n; returns the end index. */
export function generateLegal(mp: MatrixPosition, out: Int32Array, n: number): number {
  const bits = mp.bits,
    b = STRIDE * mp.ply;
  const us = mp.sideAt[mp.ply],
    them = us ^ 1;
  const uo = b + 2 * (us << 3),
    to_ = b + 2 * (them << 3);
  const ownLo = bits[b + COLOR_OFF + 2 * us],
    ownHi = bits[b + COLOR_OFF + 2 * us + 1];
  const oppLo = bits[b + COLOR_OFF + 2 * them],
    oppHi = bits[b + COLOR_OFF + 2 * them + 1];
  const occLo = bits[b + OCC_OFF],
    occHi = bits[b + OCC_OFF + 1];
  const kLo = bits[uo + 2 * KING],
    kHi = bits[uo + 2 * KING + 1];
  const ksq = kLo !== 0 ? 31 - Math.clz32(kLo) : 63 - Math.clz32(kHi);
  const rights = mp.castlingAt[mp.ply] & (us === 0 ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO);

  const rqLo = bits[to_ + 2 * ROOK] | bits[to_ + 2 * QUEEN],
    rqHi = bits[to_ + 2 * ROOK + 1] | bits[to_ + 2 * QUEEN + 1];
  const bqLo = bits[to_ + 2 * BISHOP] | bits[to_ + 2 * QUEEN],
    bqHi = bits[to_ + 2 * BISHOP + 1] | bits[to_ + 2 * QUEEN + 1];
  const tnLo = bits[to_ + 2 * KNIGHT],
    tnHi = bits[to_ + 2 * KNIGHT + 1];
  const tpLo = bits[to_ + 2 * PAWN],
    tpHi = bits[to_ + 2 * PAWN + 1];

  // The king's candidate squares; attacks only matter there and, with a castling right, on the
  // back rank (the king's path; Chess960 puts it anywhere on the rank).
  kingTargets(T, 0, kLo, kHi);
  const kmLo = T[0] & ~ownLo,
    kmHi = T[1] & ~ownHi;
  const zoneLo = kmLo | (rights !== 0 && us === 0 ? 0xff : 0),
    zoneHi = kmHi | (rights !== 0 && us === 1 ? 0xff000000 | 0 : 0);

  // Squares the opponent attacks, with our king lifted off the board so it cannot hide behind itself.
  // Only the zone matters; with no candidate square for the king there is nothing to compute.
  let dLo = 0,
    dHi = 0;
  if ((zoneLo | zoneHi) !== 0) {
    const xLo = occLo & ~kLo,
      xHi = occHi & ~kHi;
    pawnCaptureTargets(T, 0, them, tpLo, tpHi);
    dLo = T[0];
    dHi = T[1];
    knightTargets(T, 0, tnLo, tnHi);
    dLo |= T[0];
    dHi |= T[1];
    kingTargets(T, 0, bits[to_ + 2 * KING], bits[to_ + 2 * KING + 1]);
    dLo |= T[0];
    dHi |= T[1];
    for (let d = 0; d < 8; d++) {
      const sLo = d < 4 ? rqLo : bqLo,
        sHi = d < 4 ? rqHi : bqHi;
      const base = 128 * d;
      for (let half = 0; half < 2; half++) {
        let x = half === 0 ? sLo : sHi;
        while (x !== 0) {
          const s = 31 - Math.clz32(x & -x) + 32 * half;
          x &= x - 1;
          // Skip rays that never reach the zone (their product could only add squares outside it).
          if (((RAY_OPS[base + 2 * s] & zoneLo) | (RAY_OPS[base + 2 * s + 1] & zoneHi)) === 0) continue;
          rayAttacks(T, 0, d, s, xLo, xHi);
          dLo |= T[0];
          dHi |= T[1];
        }
      }
    }
  }

  // Checkers, the squares that resolve a check, and pins — all seen from the king.
  let nCheck = 0,
    resolveLo = 0,
    resolveHi = 0,
    pinLo = 0,
    pinHi = 0;
  knightTargets(T, 0, kLo, kHi);
  const knLo = T[0] & tnLo,
    knHi = T[1] & tnHi;
  pawnCaptureTargets(T, 0, us, kLo, kHi);
  const pcLo = T[0] & tpLo,
    pcHi = T[1] & tpHi;
  if ((knLo | knHi | pcLo | pcHi) !== 0) {
    nCheck += popcount32(knLo | pcLo) + popcount32(knHi | pcHi);
    resolveLo = knLo | pcLo;
    resolveHi = knHi | pcHi;
  }
  for (let d = 0; d < 8; d++) {
    const slLo = d < 4 ? rqLo : bqLo,
      slHi = d < 4 ? rqHi : bqHi;
    // No slider of the right kind anywhere on the empty-board ray: neither check nor pin this way.
    if (((RAY_OPS[128 * d + 2 * ksq] & slLo) | (RAY_OPS[128 * d + 2 * ksq + 1] & slHi)) === 0) continue;
    rayAttacks(T, 0, d, ksq, occLo, occHi);
    const aLo = T[0],
      aHi = T[1];
    if (((aLo & slLo) | (aHi & slHi)) !== 0) {
      nCheck++;
      resolveLo |= aLo;
      resolveHi |= aHi; // the checker and every square between
    } else if (((aLo & ownLo) | (aHi & ownHi)) !== 0) {
      const pLo = aLo & ownLo,
        pHi = aHi & ownHi;
      rayAttacks(T, 2, d, ksq, occLo & ~pLo, occHi & ~pHi);
      if (((T[2] & slLo) | (T[3] & slHi)) !== 0) {
        const ps = pLo !== 0 ? 31 - Math.clz32(pLo) : 63 - Math.clz32(pHi);
        pinLo |= pLo;
        pinHi |= pHi;
        PIN_RAY[2 * ps] = T[2];
        PIN_RAY[2 * ps + 1] = T[3];
      }
    }
  }

  // King moves: to squares neither own nor attacked.
  n = emit(out, n, ksq, kmLo & ~dLo, kmHi & ~dHi, false);
  if (nCheck > 1) return n;

  const tgtLo = (nCheck === 0 ? -1 : resolveLo) & ~ownLo,
    tgtHi = (nCheck === 0 ? -1 : resolveHi) & ~ownHi;
  const emptyLo = ~occLo,
    emptyHi = ~occHi;

  // Knights (a pinned knight can never move), bishops, rooks, queens.
  for (let type = BISHOP; type <= QUEEN; type++) {
    let pLo = bits[uo + 2 * type],
      pHi = bits[uo + 2 * type + 1];
    if (type === KNIGHT) {
      pLo &= ~pinLo;
      pHi &= ~pinHi;
    }
    for (let half = 0; half < 2; half++) {
      let x = half === 0 ? pLo : pHi;
      while (x !== 0) {
        const s = 31 - Math.clz32(x & -x) + 32 * half;
        x &= x - 1;
        const eLo = s < 32 ? 1 << s : 0,
          eHi = s < 32 ? 0 : 1 << (s - 32);
        if (type === KNIGHT) knightTargets(T, 0, eLo, eHi);
        else if (type === BISHOP) slidingAttacks(T, 0, 4, s, occLo, occHi);
        else if (type === ROOK) slidingAttacks(T, 0, 0, s, occLo, occHi);
        else {
          slidingAttacks(T, 0, 0, s, occLo, occHi);
          slidingAttacks(T, 2, 4, s, occLo, occHi);
          T[0] |= T[2];
          T[1] |= T[3];
        }
        let mLo = T[0] & tgtLo,
          mHi = T[1] & tgtHi;
        if (((eLo & pinLo) | (eHi & pinHi)) !== 0) {
          mLo &= PIN_RAY[2 * s];
          mHi &= PIN_RAY[2 * s + 1];
        }
        n = emit(out, n, s, mLo, mHi, false);
      }
    }
  }

  // Pawns. Unpinned pawns move as one matrix: F = S_∓1 · P, pushes F ∧ empty, captures F · S_±1.
  // A target made by a shift came from `to − delta`; that offset is the shift's, read back.
  const pawnsLo = bits[uo + 2 * PAWN],
    pawnsHi = bits[uo + 2 * PAWN + 1];
  const fwd = us === 0 ? 8 : -8;
  {
    const pLo = pawnsLo & ~pinLo,
      pHi = pawnsHi & ~pinHi;
    pawnForward(T, 0, us, pLo, pHi);
    const fLo = T[0],
      fHi = T[1];
    const sLo = fLo & emptyLo,
      sHi = fHi & emptyHi;
    n = emitPawns(out, n, fwd, sLo & tgtLo, sHi & tgtHi);
    pawnForward(T, 2, us, sLo, sHi);
    n = emitPawns(out, n, 2 * fwd, T[2] & emptyLo & DOUBLE_ROW[2 * us] & tgtLo, T[3] & emptyHi & DOUBLE_ROW[2 * us + 1] & tgtHi);
    mulRows(T, 0, fLo, fHi, SHIFT_WEST_LO, SHIFT_WEST_HI); // F · S_1: one column towards file a
    n = emitPawns(out, n, fwd - 1, T[0] & oppLo & tgtLo, T[1] & oppHi & tgtHi);
    mulRows(T, 0, fLo, fHi, SHIFT_EAST_LO, SHIFT_EAST_HI); // F · S_−1: one column towards file h
    n = emitPawns(out, n, fwd + 1, T[0] & oppLo & tgtLo, T[1] & oppHi & tgtHi);
  }
  // Pinned pawns one at a time, each limited to its pin line.
  for (let half = 0; half < 2; half++) {
    let x = half === 0 ? pawnsLo & pinLo : pawnsHi & pinHi;
    while (x !== 0) {
      const s = 31 - Math.clz32(x & -x) + 32 * half;
      x &= x - 1;
      const eLo = s < 32 ? 1 << s : 0,
        eHi = s < 32 ? 0 : 1 << (s - 32);
      const aLo = tgtLo & PIN_RAY[2 * s],
        aHi = tgtHi & PIN_RAY[2 * s + 1];
      pawnForward(T, 0, us, eLo, eHi);
      const sLo = T[0] & emptyLo,
        sHi = T[1] & emptyHi;
      pawnForward(T, 2, us, sLo, sHi);
      n = emit(
        out,
        n,
        s,
        (sLo | (T[2] & emptyLo & DOUBLE_ROW[2 * us])) & aLo,
        (sHi | (T[3] & emptyHi & DOUBLE_ROW[2 * us + 1])) & aHi,
        true,
      );
      pawnCaptureTargets(T, 0, us, eLo, eHi);
      n = emit(out, n, s, T[0] & oppLo & aLo, T[1] & oppHi & aHi, true);
    }
  }
  // En passant: the capturers are the pawns the ep square "attacks" as an enemy pawn would.
  const ep = mp.epAt[mp.ply];
  if (ep !== NO_SQUARE) {
    pawnCaptureTargets(T, 0, them, ep < 32 ? 1 << ep : 0, ep < 32 ? 0 : 1 << (ep - 32));
    for (let half = 0; half < 2; half++) {
      let x = half === 0 ? T[0] & pawnsLo : T[1] & pawnsHi;
      while (x !== 0) {
        const s = 31 - Math.clz32(x & -x) + 32 * half;
        x &= x - 1;
        if (epLegal(s, ep, ksq, us, occLo, occHi, rqLo, rqHi, bqLo, bqHi, knLo | knHi, tpLo, tpHi)) {
          out[n++] = s | (ep << 6) | (KIND_EN_PASSANT << 15);
        }
      }
    }
  }

  // Castling (Chess960 included): rights, both paths empty but for king and rook, king not in
  // check, the squares it passes not attacked, and its target not attacked along the rank once
  // the castling rook has moved (the rook may have been shielding it).
  if (nCheck === 0 && rights !== 0) {
    for (let right = us << 1; right < (us << 1) + 2; right++) {
      if ((rights & (1 << right)) === 0) continue;
      if (((mp.castlePathLo[right] & occLo) | (mp.castlePathHi[right] & occHi)) !== 0) continue;
      const kTo = castleKingTo(right),
        rsq = mp.castleRook[right],
        rTo = (right & 1) === 0 ? kTo - 1 : kTo + 1;
      const pLo = betweenLo[(ksq << 6) | kTo] | (kTo < 32 ? 1 << kTo : 0),
        pHi = betweenHi[(ksq << 6) | kTo] | (kTo < 32 ? 0 : 1 << (kTo - 32));
      if (((pLo & dLo) | (pHi & dHi)) !== 0) continue;
      const aLo = (occLo & ~kLo & ~(rsq < 32 ? 1 << rsq : 0)) | (rTo < 32 ? 1 << rTo : 0) | 0,
        aHi = (occHi & ~kHi & ~(rsq < 32 ? 0 : 1 << (rsq - 32))) | (rTo < 32 ? 0 : 1 << (rTo - 32)) | 0;
      let exposed = false;
      for (let d = 0; d < 4 && !exposed; d++) {
        rayAttacks(T, 0, d, kTo, aLo, aHi);
        exposed = ((T[0] & rqLo) | (T[1] & rqHi)) !== 0;
      }
      if (!exposed) out[n++] = ksq | (kTo << 6) | (KIND_CASTLE << 15);
    }
  }
  return n;
}

/**
 * En passant removes two pieces from a line at once, which pins cannot describe: test the
 * position after the capture directly (sliders by ray products on the new occupancy, knights
 * unchanged, pawns minus the captured one).
 */
function epLegal(
  from: number,
  ep: number,
  ksq: number,
  us: number,
  occLo: number,
  occHi: number,
  rqLo: number,
  rqHi: number,
  bqLo: number,
  bqHi: number,
  knightCheck: number,
  tpLo: number,
  tpHi: number,
): boolean {
  if (knightCheck !== 0) return false;
  const cap = us === 0 ? ep - 8 : ep + 8;
  const cLo = cap < 32 ? 1 << cap : 0,
    cHi = cap < 32 ? 0 : 1 << (cap - 32);
  const fLo = from < 32 ? 1 << from : 0,
    fHi = from < 32 ? 0 : 1 << (from - 32);
  const tLo = ep < 32 ? 1 << ep : 0,
    tHi = ep < 32 ? 0 : 1 << (ep - 32);
  const oLo = (occLo & ~cLo & ~fLo) | tLo,
    oHi = (occHi & ~cHi & ~fHi) | tHi;
  const kLo = ksq < 32 ? 1 << ksq : 0,
    kHi = ksq < 32 ? 0 : 1 << (ksq - 32);
  pawnCaptureTargets(T, 4, us, kLo, kHi);
  if (((T[4] & tpLo & ~cLo) | (T[5] & tpHi & ~cHi)) !== 0) return false;
  slidingAttacks(T, 4, 0, ksq, oLo, oHi);
  if (((T[4] & rqLo) | (T[5] & rqHi)) !== 0) return false;
  slidingAttacks(T, 4, 4, ksq, oLo, oHi);
  return ((T[4] & bqLo) | (T[5] & bqHi)) === 0;
}
