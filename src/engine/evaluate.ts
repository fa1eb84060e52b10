/**
 * Static evaluation in centipawns from the side to move's view.
 *
 * evaluate = scale * taper(materialPst + sum_i weight_i * feature_i) / 64, where every term has a
 * middlegame and an endgame weight (EVAL_WEIGHTS[2i], EVAL_WEIGHTS[2i + 1]) and the feature is an
 * integer count computed from bitboards (White's count minus Black's). Keeping the evaluation a
 * weighted sum of features is what makes Texel tuning possible later: a tuner can read the
 * features through `evaluateFeatures` and write new weights into EVAL_WEIGHTS.
 * The scale (0..64) and the mop-up against a bare king are endgame knowledge (endgame.ts):
 * insufficient material, drawish material balances, opposite-coloured bishops, rook pawns held
 * in the corner.
 */
import { BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE } from '../core/types.js';
import type { Position } from '../core/position.js';
import { kingAttacksHi, kingAttacksLo, knightAttacksHi, knightAttacksLo } from '../core/attacks.js';
import { bishopIndex, bishopTable, rookIndex, rookTable } from '../core/magic.js';
import { PHASE_MAX, gamePhase, materialPstTerms } from './pst.js';
import { TERM_WEIGHTS } from './eval-params.js';
import { popcount32 } from '../core/bitboard.js';
import { FILE_A, FILE_H, squareDistance } from './geometry.js';
import { endgameScale, endgameWhite, mopUp } from './endgame.js';

// ---- weights: one [mg, eg] pair per term ----

/** Index of each evaluation term in EVAL_WEIGHTS (pairs). Arrays by relative rank take 8 slots. */
export const T = {
  PASSED: 0, // + relative rank 0..7
  PASSED_FREE: 8, // + relative rank: passed pawn whose stop square is empty
  PASSED_KING: 16, // (enemy king distance - own king distance to the stop square) * max(0, rank - 2)
  ISOLATED: 17,
  DOUBLED: 18,
  BACKWARD: 19,
  MOBILITY: 20, // + 0 knight, 1 bishop, 2 rook, 3 queen: per safe square minus a centre count
  KING_ATTACK: 24, // + 0 knight, 1 bishop, 2 rook, 3 queen: per attacked king-zone square (2+ attackers)
  SHIELD_NEAR: 28, // own pawn on the three squares in front of the king
  SHIELD_FAR: 29, // own pawn two ranks in front
  KING_OPEN_FILE: 30, // no own pawn on the king's file
  BISHOP_PAIR: 31,
  ROOK_OPEN: 32,
  ROOK_SEMIOPEN: 33,
  TEMPO: 34,
  PAWN_THREAT: 35, // enemy pieces (not pawns) attacked by our pawns
  MINOR_THREAT: 36, // enemy rooks and queens attacked by our knights and bishops
  OUTPOST: 37, // knight on ranks 4-6, defended by a pawn, out of reach of enemy pawns
  HANGING: 38, // enemy pieces (not pawns or king) we attack that nothing defends
} as const;
export const TERM_COUNT = 39;

/** [mg, eg] weight pairs, from eval-params.ts (written by the Texel tuner). */
export const EVAL_WEIGHTS = Int16Array.from(TERM_WEIGHTS);
if (EVAL_WEIGHTS.length !== TERM_COUNT * 2)
  throw new Error(`eval-params.ts has ${EVAL_WEIGHTS.length / 2} terms, evaluate.ts expects ${TERM_COUNT}`);

/** Mobility counts are centred so an average piece adds nothing (index 0 knight .. 3 queen). */
const MOBILITY_CENTRE = Int32Array.of(4, 6, 6, 12);

// ---- precomputed masks (lo/hi halves) ----

const fileLo = new Int32Array(8); // the file (same pattern in both halves)
const adjFiles = new Int32Array(8); // neighbouring files, one half's pattern
const passedLo = new Int32Array(128),
  passedHi = new Int32Array(128); // [color * 64 + sq]
const forwardLo = new Int32Array(128),
  forwardHi = new Int32Array(128); // same file, in front
const supportLo = new Int32Array(128),
  supportHi = new Int32Array(128); // adjacent files, same rank or behind
const shieldNearLo = new Int32Array(128),
  shieldNearHi = new Int32Array(128);
const shieldFarLo = new Int32Array(128),
  shieldFarHi = new Int32Array(128);

{
  const set = (lo: Int32Array, hi: Int32Array, i: number, sq: number) => {
    if (sq < 32) lo[i] |= 1 << sq;
    else hi[i] |= 1 << (sq - 32);
  };
  for (let f = 0; f < 8; f++) {
    fileLo[f] = FILE_A << f;
    adjFiles[f] = (f > 0 ? FILE_A << (f - 1) : 0) | (f < 7 ? FILE_A << (f + 1) : 0);
  }
  for (let c = 0; c < 2; c++) {
    for (let sq = 0; sq < 64; sq++) {
      const f = sq & 7,
        r = sq >> 3,
        i = c * 64 + sq;
      for (let s = 0; s < 64; s++) {
        const f2 = s & 7,
          r2 = s >> 3;
        const ahead = c === WHITE ? r2 > r : r2 < r;
        const behindOrLevel = c === WHITE ? r2 <= r : r2 >= r;
        if (ahead && Math.abs(f2 - f) <= 1) set(passedLo, passedHi, i, s);
        if (ahead && f2 === f) set(forwardLo, forwardHi, i, s);
        if (behindOrLevel && Math.abs(f2 - f) === 1) set(supportLo, supportHi, i, s);
        const dr = c === WHITE ? r2 - r : r - r2;
        if (Math.abs(f2 - f) <= 1 && dr === 1) set(shieldNearLo, shieldNearHi, i, s);
        if (Math.abs(f2 - f) <= 1 && dr === 2) set(shieldFarLo, shieldFarHi, i, s);
      }
    }
  }
}

// ---- the evaluation ----

/**
 * Feature accumulator: features[i] = White's count minus Black's count for term i. Filled by
 * every evaluation (cheap: plain int adds), read by tuners through evaluateFeatures.
 */
const features = new Int32Array(TERM_COUNT);
const pstTerms = new Int32Array(2);

function sideTerms(
  pos: Position,
  us: number,
  occLo: number,
  occHi: number,
  theirPawnAttLo: number,
  theirPawnAttHi: number,
  ownPawnAttLo: number,
  ownPawnAttHi: number,
  passedOwnLo: number,
  passedOwnHi: number,
  sign: number,
): void {
  const them = us ^ 1,
    o = us << 3,
    e = them << 3;
  const pl = pos.pieceLo,
    ph = pos.pieceHi,
    board = pos.board;
  const ownPawnLo = pl[o | PAWN],
    ownPawnHi = ph[o | PAWN];
  const theirPawnLo = pl[e | PAWN],
    theirPawnHi = ph[e | PAWN];
  const f = features;

  // Passed pawns (found by the pawn-structure cache): rank, free path, king proximity.
  let lo = passedOwnLo,
    hi = passedOwnHi;
  const ownKing = pos.kingSq[us],
    theirKing = pos.kingSq[them];
  while ((lo | hi) !== 0) {
    let sq: number;
    if (lo !== 0) {
      sq = 31 - Math.clz32(lo & -lo);
      lo &= lo - 1;
    } else {
      sq = 63 - Math.clz32(hi & -hi);
      hi &= hi - 1;
    }
    const relRank = us === WHITE ? sq >> 3 : 7 - (sq >> 3);
    f[T.PASSED + relRank] += sign;
    const stop = us === WHITE ? sq + 8 : sq - 8;
    if (board[stop] === 0) f[T.PASSED_FREE + relRank] += sign;
    if (relRank > 2)
      f[T.PASSED_KING] += sign * (squareDistance[theirKing * 64 + stop] - squareDistance[ownKing * 64 + stop]) * (relRank - 2);
  }

  // Pieces: mobility, attacks on the enemy king zone, rook files.
  const areaLo = ~(ownPawnLo | pl[o | KING] | theirPawnAttLo),
    areaHi = ~(ownPawnHi | ph[o | KING] | theirPawnAttHi);
  const zoneLo = kingAttacksLo[theirKing] | (theirKing < 32 ? 1 << theirKing : 0);
  const zoneHi = kingAttacksHi[theirKing] | (theirKing >= 32 ? 1 << (theirKing - 32) : 0);
  let attackers = 0,
    kn = 0,
    kb = 0,
    kr = 0,
    kq = 0;
  let minorLo = 0,
    minorHi = 0;
  let allLo = ownPawnAttLo | kingAttacksLo[ownKing],
    allHi = ownPawnAttHi | kingAttacksHi[ownKing];

  lo = pl[o | KNIGHT];
  hi = ph[o | KNIGHT];
  while ((lo | hi) !== 0) {
    let sq: number;
    if (lo !== 0) {
      sq = 31 - Math.clz32(lo & -lo);
      lo &= lo - 1;
    } else {
      sq = 63 - Math.clz32(hi & -hi);
      hi &= hi - 1;
    }
    const aLo = knightAttacksLo[sq],
      aHi = knightAttacksHi[sq];
    minorLo |= aLo;
    minorHi |= aHi;
    const relRank = us === WHITE ? sq >> 3 : 7 - (sq >> 3);
    if (relRank >= 3 && relRank <= 5 && (sq < 32 ? (ownPawnAttLo >>> sq) & 1 : (ownPawnAttHi >>> (sq - 32)) & 1) !== 0) {
      const i = (us << 6) | sq,
        nf = ~fileLo[sq & 7];
      if (((passedLo[i] & nf & theirPawnLo) | (passedHi[i] & nf & theirPawnHi)) === 0) f[T.OUTPOST] += sign;
    }
    f[T.MOBILITY + 0] += sign * (popcount32(aLo & areaLo) + popcount32(aHi & areaHi) - MOBILITY_CENTRE[0]);
    const z = popcount32(aLo & zoneLo) + popcount32(aHi & zoneHi);
    if (z !== 0) {
      attackers++;
      kn += z;
    }
  }
  lo = pl[o | BISHOP];
  hi = ph[o | BISHOP];
  while ((lo | hi) !== 0) {
    let sq: number;
    if (lo !== 0) {
      sq = 31 - Math.clz32(lo & -lo);
      lo &= lo - 1;
    } else {
      sq = 63 - Math.clz32(hi & -hi);
      hi &= hi - 1;
    }
    const bi = bishopIndex(sq, occLo, occHi);
    const aLo = bishopTable[bi],
      aHi = bishopTable[bi + 1];
    minorLo |= aLo;
    minorHi |= aHi;
    allLo |= aLo;
    allHi |= aHi;
    f[T.MOBILITY + 1] += sign * (popcount32(aLo & areaLo) + popcount32(aHi & areaHi) - MOBILITY_CENTRE[1]);
    const z = popcount32(aLo & zoneLo) + popcount32(aHi & zoneHi);
    if (z !== 0) {
      attackers++;
      kb += z;
    }
  }
  lo = pl[o | ROOK];
  hi = ph[o | ROOK];
  while ((lo | hi) !== 0) {
    let sq: number;
    if (lo !== 0) {
      sq = 31 - Math.clz32(lo & -lo);
      lo &= lo - 1;
    } else {
      sq = 63 - Math.clz32(hi & -hi);
      hi &= hi - 1;
    }
    const ri = rookIndex(sq, occLo, occHi);
    const aLo = rookTable[ri],
      aHi = rookTable[ri + 1];
    allLo |= aLo;
    allHi |= aHi;
    f[T.MOBILITY + 2] += sign * (popcount32(aLo & areaLo) + popcount32(aHi & areaHi) - MOBILITY_CENTRE[2]);
    const z = popcount32(aLo & zoneLo) + popcount32(aHi & zoneHi);
    if (z !== 0) {
      attackers++;
      kr += z;
    }
    const fm = fileLo[sq & 7];
    if (((fm & ownPawnLo) | (fm & ownPawnHi)) === 0) {
      if (((fm & theirPawnLo) | (fm & theirPawnHi)) === 0) f[T.ROOK_OPEN] += sign;
      else f[T.ROOK_SEMIOPEN] += sign;
    }
  }
  lo = pl[o | QUEEN];
  hi = ph[o | QUEEN];
  while ((lo | hi) !== 0) {
    let sq: number;
    if (lo !== 0) {
      sq = 31 - Math.clz32(lo & -lo);
      lo &= lo - 1;
    } else {
      sq = 63 - Math.clz32(hi & -hi);
      hi &= hi - 1;
    }
    const bi = bishopIndex(sq, occLo, occHi),
      ri = rookIndex(sq, occLo, occHi);
    const aLo = bishopTable[bi] | rookTable[ri],
      aHi = bishopTable[bi + 1] | rookTable[ri + 1];
    allLo |= aLo;
    allHi |= aHi;
    f[T.MOBILITY + 3] += sign * (popcount32(aLo & areaLo) + popcount32(aHi & areaHi) - MOBILITY_CENTRE[3]);
    const z = popcount32(aLo & zoneLo) + popcount32(aHi & zoneHi);
    if (z !== 0) {
      attackers++;
      kq += z;
    }
  }
  // One lone attacker is rarely dangerous; two or more coordinate.
  if (attackers >= 2) {
    f[T.KING_ATTACK + 0] += sign * kn;
    f[T.KING_ATTACK + 1] += sign * kb;
    f[T.KING_ATTACK + 2] += sign * kr;
    f[T.KING_ATTACK + 3] += sign * kq;
  }

  attacksLo[us] = allLo | minorLo;
  attacksHi[us] = allHi | minorHi;

  // Threats: pieces attacked by something cheaper.
  const theirPiecesLo = pos.colorLo[them] & ~theirPawnLo & ~pl[e | KING],
    theirPiecesHi = pos.colorHi[them] & ~theirPawnHi & ~ph[e | KING];
  f[T.PAWN_THREAT] += sign * (popcount32(ownPawnAttLo & theirPiecesLo) + popcount32(ownPawnAttHi & theirPiecesHi));
  f[T.MINOR_THREAT] += sign * (popcount32(minorLo & (pl[e | ROOK] | pl[e | QUEEN])) + popcount32(minorHi & (ph[e | ROOK] | ph[e | QUEEN])));

  // Own king shelter.
  const ki = (us << 6) | ownKing;
  f[T.SHIELD_NEAR] += sign * (popcount32(shieldNearLo[ki] & ownPawnLo) + popcount32(shieldNearHi[ki] & ownPawnHi));
  f[T.SHIELD_FAR] += sign * (popcount32(shieldFarLo[ki] & ownPawnLo) + popcount32(shieldFarHi[ki] & ownPawnHi));
  const kf = fileLo[ownKing & 7];
  if (((kf & ownPawnLo) | (kf & ownPawnHi)) === 0) f[T.KING_OPEN_FILE] += sign;

  // Bishop pair.
  if ((pl[o | BISHOP] | ph[o | BISHOP]) !== 0 && popcount32(pl[o | BISHOP]) + popcount32(ph[o | BISHOP]) >= 2) f[T.BISHOP_PAIR] += sign;
}

/**
 * Pawn-structure cache: 2^14 entries of [wpLo, wpHi, bpLo, bpHi, doubled, isolated, backward,
 * passed white lo/hi, passed black lo/hi, -] keyed by the exact pawn bitboards.
 */
const PAWN_ENTRY = 12;
const pawnTable = new Int32Array((1 << 14) * PAWN_ENTRY);

/** Doubled/isolated/backward counts (added with the side's sign) and the passed-pawn set of `us`. */
function pawnStructure(
  us: number,
  ownPawnLo: number,
  ownPawnHi: number,
  theirPawnLo: number,
  theirPawnHi: number,
  theirPawnAttLo: number,
  theirPawnAttHi: number,
  pt: Int32Array,
  e: number,
): void {
  let doubled = 0,
    isolated = 0,
    backward = 0,
    passedLoBits = 0,
    passedHiBits = 0;
  let lo = ownPawnLo,
    hi = ownPawnHi;
  while ((lo | hi) !== 0) {
    let sq: number;
    if (lo !== 0) {
      sq = 31 - Math.clz32(lo & -lo);
      lo &= lo - 1;
    } else {
      sq = 63 - Math.clz32(hi & -hi);
      hi &= hi - 1;
    }
    const i = (us << 6) | sq,
      file = sq & 7;
    const ownAhead = ((forwardLo[i] & ownPawnLo) | (forwardHi[i] & ownPawnHi)) !== 0;
    if (ownAhead) doubled++;
    if (((adjFiles[file] & ownPawnLo) | (adjFiles[file] & ownPawnHi)) === 0) isolated++;
    else if (((supportLo[i] & ownPawnLo) | (supportHi[i] & ownPawnHi)) === 0) {
      const stop = us === WHITE ? sq + 8 : sq - 8;
      if (stop < 32 ? (theirPawnAttLo >>> stop) & 1 : (theirPawnAttHi >>> (stop - 32)) & 1) backward++;
    }
    if (!ownAhead && ((passedLo[i] & theirPawnLo) | (passedHi[i] & theirPawnHi)) === 0) {
      if (sq < 32) passedLoBits |= 1 << sq;
      else passedHiBits |= 1 << (sq - 32);
    }
  }
  if (us === WHITE) {
    pt[e + 4] = doubled;
    pt[e + 5] = isolated;
    pt[e + 6] = backward;
    pt[e + 7] = passedLoBits;
    pt[e + 8] = passedHiBits;
  } else {
    pt[e + 4] -= doubled;
    pt[e + 5] -= isolated;
    pt[e + 6] -= backward;
    pt[e + 9] = passedLoBits;
    pt[e + 10] = passedHiBits;
  }
}

/** Squares attacked by each side (all pieces, pawns and king), filled by sideTerms. */
const attacksLo = new Int32Array(2),
  attacksHi = new Int32Array(2);

/** Fills `features` (White minus Black) and returns the phase. */
function computeFeatures(pos: Position): number {
  features.fill(0);
  const pl = pos.pieceLo,
    ph = pos.pieceHi;
  const occLo = pos.colorLo[0] | pos.colorLo[1],
    occHi = pos.colorHi[0] | pos.colorHi[1];
  const wpLo = pl[(WHITE << 3) | PAWN],
    wpHi = ph[(WHITE << 3) | PAWN];
  const bpLo = pl[(BLACK << 3) | PAWN],
    bpHi = ph[(BLACK << 3) | PAWN];
  // Pawn attack sets: white pawns attack up-left (<<7, not from file a) and up-right (<<9, not from file h).
  const wlL = wpLo & ~FILE_A,
    wlH = wpHi & ~FILE_A,
    wrL = wpLo & ~FILE_H,
    wrH = wpHi & ~FILE_H;
  const wAttLo = (wlL << 7) | (wrL << 9);
  const wAttHi = (wlH << 7) | (wlL >>> 25) | (wrH << 9) | (wrL >>> 23);
  const blL = bpLo & ~FILE_A,
    blH = bpHi & ~FILE_A,
    brL = bpLo & ~FILE_H,
    brH = bpHi & ~FILE_H;
  const bAttLo = (blL >>> 9) | (blH << 23) | (brL >>> 7) | (brH << 25);
  const bAttHi = (blH >>> 9) | (brH >>> 7);
  // Pawn-only terms come from the cache; zeroed entries are correct for pawnless boards.
  const pk =
    ((Math.imul(wpLo ^ Math.imul(wpHi, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(bpLo ^ Math.imul(bpHi, 0xc2b2ae35), 0x27d4eb2f)) >>> 18) *
    PAWN_ENTRY;
  const pt = pawnTable;
  if (pt[pk] !== wpLo || pt[pk + 1] !== wpHi || pt[pk + 2] !== bpLo || pt[pk + 3] !== bpHi) {
    pt[pk] = wpLo;
    pt[pk + 1] = wpHi;
    pt[pk + 2] = bpLo;
    pt[pk + 3] = bpHi;
    pawnStructure(WHITE, wpLo, wpHi, bpLo, bpHi, bAttLo, bAttHi, pt, pk);
    pawnStructure(BLACK, bpLo, bpHi, wpLo, wpHi, wAttLo, wAttHi, pt, pk);
  }
  features[T.DOUBLED] = pt[pk + 4];
  features[T.ISOLATED] = pt[pk + 5];
  features[T.BACKWARD] = pt[pk + 6];
  sideTerms(pos, WHITE, occLo, occHi, bAttLo, bAttHi, wAttLo, wAttHi, pt[pk + 7], pt[pk + 8], 1);
  sideTerms(pos, BLACK, occLo, occHi, wAttLo, wAttHi, bAttLo, bAttHi, pt[pk + 9], pt[pk + 10], -1);
  // Undefended pieces under attack (both attack maps are complete only now).
  const bPiecesLo = pos.colorLo[BLACK] & ~bpLo & ~pl[(BLACK << 3) | KING],
    bPiecesHi = pos.colorHi[BLACK] & ~bpHi & ~ph[(BLACK << 3) | KING];
  const wPiecesLo = pos.colorLo[WHITE] & ~wpLo & ~pl[(WHITE << 3) | KING],
    wPiecesHi = pos.colorHi[WHITE] & ~wpHi & ~ph[(WHITE << 3) | KING];
  features[T.HANGING] =
    popcount32(bPiecesLo & attacksLo[WHITE] & ~attacksLo[BLACK]) +
    popcount32(bPiecesHi & attacksHi[WHITE] & ~attacksHi[BLACK]) -
    popcount32(wPiecesLo & attacksLo[BLACK] & ~attacksLo[WHITE]) -
    popcount32(wPiecesHi & attacksHi[BLACK] & ~attacksHi[WHITE]);
  features[T.TEMPO] = pos.side === WHITE ? 1 : -1;
  return gamePhase(pos);
}

/** Full static evaluation in centipawns, side to move's view. */
export function evaluate(pos: Position): number {
  const phase = computeFeatures(pos);
  materialPstTerms(pos, pstTerms);
  let mg = pstTerms[0],
    eg = pstTerms[1];
  const f = features,
    wts = EVAL_WEIGHTS;
  for (let i = 0; i < TERM_COUNT; i++) {
    const x = f[i];
    if (x !== 0) {
      mg += wts[2 * i] * x;
      eg += wts[2 * i + 1] * x;
    }
  }
  const white = endgameWhite(pos, ((mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX) | 0);
  return (pos.side === WHITE ? white : -white) | 0; // | 0: never -0
}

/**
 * For tuners: the feature vector (White minus Black, length TERM_COUNT) written into `out`,
 * and the phase and endgame scale. evaluate(pos) equals, from White's view,
 * trunc(trunc(((mgPst + sum w_mg x) * phase + (egPst + sum w_eg x) * (24 - phase)) / 24) * scale / 64) + mopUp
 * (mopUp, a bare-king mating aid, is only non-zero when scale is 64).
 */
export function evaluateFeatures(
  pos: Position,
  out: Int32Array,
): { phase: number; scale: number; mgPst: number; egPst: number; mopUp: number } {
  const phase = computeFeatures(pos);
  out.set(features);
  materialPstTerms(pos, pstTerms);
  let mg = pstTerms[0],
    eg = pstTerms[1];
  for (let i = 0; i < TERM_COUNT; i++) {
    mg += EVAL_WEIGHTS[2 * i] * features[i];
    eg += EVAL_WEIGHTS[2 * i + 1] * features[i];
  }
  const white = ((mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX) | 0;
  const strong = white >= 0 ? WHITE : BLACK,
    scale = endgameScale(pos, strong);
  return { phase, scale, mgPst: pstTerms[0], egPst: pstTerms[1], mopUp: scale === 64 ? mopUp(pos, strong) : 0 };
}
