/**
 * Legal move generation with check masks and pin rays: every move written is legal, so perft
 * can count the last ply without making moves. Sliding attacks come from a pluggable
 * SliderAttacks provider (magic bitboards by default); everything else is table lookups.
 */
import { BISHOP, KING, KNIGHT, NO_SQUARE, PAWN, QUEEN, ROOK, WHITE } from './types.js';
import { KIND_CASTLE, KIND_EN_PASSANT, castleKingTo } from './move.js';
import {
  betweenHi,
  betweenLo,
  bishopRaysHi,
  bishopRaysLo,
  kingAttacksHi,
  kingAttacksLo,
  knightAttacksHi,
  knightAttacksLo,
  pawnAttacksHi,
  pawnAttacksLo,
  rookRaysHi,
  rookRaysLo,
} from './attacks.js';
import type { SliderAttacks } from './slider-attacks.js';
import { magicAttacks } from './magic.js';
import type { Position } from './position.js';
import type { LegalMoveGenerator } from './backend.js';

/** Enough for any legal position (the maximum known is 218). */
export const MAX_MOVES = 256;

const PROMO_SHIFTED = [QUEEN << 12, ROOK << 12, BISHOP << 12, KNIGHT << 12];

/** The core's legal move generator: bitboards, with sliders from any SliderAttacks provider. */
export class MoveGenerator implements LegalMoveGenerator {
  private readonly t = new Int32Array(2);
  private readonly pinLo = new Int32Array(64);
  private readonly pinHi = new Int32Array(64);

  /** `name` is the backend's ('bitboard' with magic sliders, 'bnn' with the networks'). */
  constructor(
    readonly sliders: SliderAttacks = magicAttacks,
    readonly name = 'bitboard',
    readonly detail?: string,
  ) {}

  /** True when `sq` is attacked by side `by` given the occupancy (sliders via the provider). */
  attacked(pos: Position, sq: number, by: number, occLo: number, occHi: number): boolean {
    const pl = pos.pieceLo,
      ph = pos.pieceHi,
      o = by << 3,
      t = this.t;
    const pi = ((by ^ 1) << 6) | sq;
    if (((pawnAttacksLo[pi] & pl[o | PAWN]) | (pawnAttacksHi[pi] & ph[o | PAWN])) !== 0) return true;
    if (((knightAttacksLo[sq] & pl[o | KNIGHT]) | (knightAttacksHi[sq] & ph[o | KNIGHT])) !== 0) return true;
    if (((kingAttacksLo[sq] & pl[o | KING]) | (kingAttacksHi[sq] & ph[o | KING])) !== 0) return true;
    const dLo = pl[o | BISHOP] | pl[o | QUEEN],
      dHi = ph[o | BISHOP] | ph[o | QUEEN];
    if (((bishopRaysLo[sq] & dLo) | (bishopRaysHi[sq] & dHi)) !== 0) {
      this.sliders.bishop(sq, occLo, occHi, t);
      if (((t[0] & dLo) | (t[1] & dHi)) !== 0) return true;
    }
    const sLo = pl[o | ROOK] | pl[o | QUEEN],
      sHi = ph[o | ROOK] | ph[o | QUEEN];
    if (((rookRaysLo[sq] & sLo) | (rookRaysHi[sq] & sHi)) !== 0) {
      this.sliders.rook(sq, occLo, occHi, t);
      if (((t[0] & sLo) | (t[1] & sHi)) !== 0) return true;
    }
    return false;
  }

  /** Writes the legal moves of `pos` into out[start..]; returns the end index. */
  generate(pos: Position, out: Int32Array, start: number): number {
    return this.generateInto(pos, out, start, false);
  }

  /** Only captures (en passant included) and promotions: the moves quiescence search looks at. */
  generateNoisy(pos: Position, out: Int32Array, start: number): number {
    return this.generateInto(pos, out, start, true);
  }

  private generateInto(pos: Position, out: Int32Array, start: number, noisyOnly: boolean): number {
    const us = pos.side,
      them = us ^ 1,
      o = us << 3,
      e = them << 3;
    const pl = pos.pieceLo,
      ph = pos.pieceHi,
      t = this.t,
      sliders = this.sliders;
    const usLo = pos.colorLo[us],
      usHi = pos.colorHi[us];
    const themLo = pos.colorLo[them],
      themHi = pos.colorHi[them];
    const occLo = usLo | themLo,
      occHi = usHi | themHi;
    const ksq = pos.kingSq[us];
    let n = start;

    // Checkers.
    const eDiagLo = pl[e | BISHOP] | pl[e | QUEEN],
      eDiagHi = ph[e | BISHOP] | ph[e | QUEEN];
    const eOrthLo = pl[e | ROOK] | pl[e | QUEEN],
      eOrthHi = ph[e | ROOK] | ph[e | QUEEN];
    let chkLo = (pawnAttacksLo[(us << 6) | ksq] & pl[e | PAWN]) | (knightAttacksLo[ksq] & pl[e | KNIGHT]);
    let chkHi = (pawnAttacksHi[(us << 6) | ksq] & ph[e | PAWN]) | (knightAttacksHi[ksq] & ph[e | KNIGHT]);
    if (((bishopRaysLo[ksq] & eDiagLo) | (bishopRaysHi[ksq] & eDiagHi)) !== 0) {
      sliders.bishop(ksq, occLo, occHi, t);
      chkLo |= t[0] & eDiagLo;
      chkHi |= t[1] & eDiagHi;
    }
    if (((rookRaysLo[ksq] & eOrthLo) | (rookRaysHi[ksq] & eOrthHi)) !== 0) {
      sliders.rook(ksq, occLo, occHi, t);
      chkLo |= t[0] & eOrthLo;
      chkHi |= t[1] & eOrthHi;
    }

    // King moves: a target is safe if not attacked once the king has left its square.
    const kOccLo = ksq < 32 ? occLo & ~(1 << ksq) : occLo,
      kOccHi = ksq < 32 ? occHi : occHi & ~(1 << (ksq - 32));
    let bLo = kingAttacksLo[ksq] & (noisyOnly ? themLo : ~usLo),
      bHi = kingAttacksHi[ksq] & (noisyOnly ? themHi : ~usHi);
    while (bLo !== 0) {
      const to = 31 - Math.clz32(bLo & -bLo);
      bLo &= bLo - 1;
      if (!this.attacked(pos, to, them, kOccLo, kOccHi)) out[n++] = ksq | (to << 6);
    }
    while (bHi !== 0) {
      const to = 63 - Math.clz32(bHi & -bHi);
      bHi &= bHi - 1;
      if (!this.attacked(pos, to, them, kOccLo, kOccHi)) out[n++] = ksq | (to << 6);
    }

    let maskLo = -1,
      maskHi = -1;
    if ((chkLo | chkHi) !== 0) {
      if ((chkLo & (chkLo - 1)) !== 0 || (chkHi & (chkHi - 1)) !== 0 || (chkLo !== 0 && chkHi !== 0)) return n; // double check
      const c = chkLo !== 0 ? 31 - Math.clz32(chkLo) : 63 - Math.clz32(chkHi);
      maskLo = betweenLo[(ksq << 6) | c] | chkLo;
      maskHi = betweenHi[(ksq << 6) | c] | chkHi;
    } else if (pos.castling !== 0 && !noisyOnly) {
      n = this.castles(pos, out, n, us, occLo, occHi);
    }

    // Pins: enemy sliders that would see the king through exactly one of our pieces.
    let pinnedLo = 0,
      pinnedHi = 0;
    let sLo = (rookRaysLo[ksq] & eOrthLo) | (bishopRaysLo[ksq] & eDiagLo);
    let sHi = (rookRaysHi[ksq] & eOrthHi) | (bishopRaysHi[ksq] & eDiagHi);
    while ((sLo | sHi) !== 0) {
      let s: number;
      if (sLo !== 0) {
        s = 31 - Math.clz32(sLo & -sLo);
        sLo &= sLo - 1;
      } else {
        s = 63 - Math.clz32(sHi & -sHi);
        sHi &= sHi - 1;
      }
      const i = (ksq << 6) | s;
      const btLo = betweenLo[i] & occLo,
        btHi = betweenHi[i] & occHi;
      if ((btLo | btHi) === 0) continue;
      if (btLo !== 0 ? (btLo & (btLo - 1)) !== 0 || btHi !== 0 : (btHi & (btHi - 1)) !== 0) continue; // two or more blockers
      if (((btLo & usLo) | (btHi & usHi)) === 0) continue; // the single blocker is theirs
      const p = btLo !== 0 ? 31 - Math.clz32(btLo) : 63 - Math.clz32(btHi);
      pinnedLo |= btLo;
      pinnedHi |= btHi;
      this.pinLo[p] = betweenLo[i] | (s < 32 ? 1 << s : 0);
      this.pinHi[p] = betweenHi[i] | (s < 32 ? 0 : 1 << (s - 32));
    }

    const tgtLo = (noisyOnly ? themLo : ~usLo) & maskLo,
      tgtHi = (noisyOnly ? themHi : ~usHi) & maskHi;

    // Knights (a pinned knight can never move).
    let pLo = pl[o | KNIGHT] & ~pinnedLo,
      pHi = ph[o | KNIGHT] & ~pinnedHi;
    while ((pLo | pHi) !== 0) {
      let from: number;
      if (pLo !== 0) {
        from = 31 - Math.clz32(pLo & -pLo);
        pLo &= pLo - 1;
      } else {
        from = 63 - Math.clz32(pHi & -pHi);
        pHi &= pHi - 1;
      }
      n = emit(out, n, from, knightAttacksLo[from] & tgtLo, knightAttacksHi[from] & tgtHi);
    }

    // Diagonal sliders (bishops, queens).
    pLo = pl[o | BISHOP] | pl[o | QUEEN];
    pHi = ph[o | BISHOP] | ph[o | QUEEN];
    while ((pLo | pHi) !== 0) {
      let from: number;
      if (pLo !== 0) {
        from = 31 - Math.clz32(pLo & -pLo);
        pLo &= pLo - 1;
      } else {
        from = 63 - Math.clz32(pHi & -pHi);
        pHi &= pHi - 1;
      }
      sliders.bishop(from, occLo, occHi, t);
      let aLo = t[0] & tgtLo,
        aHi = t[1] & tgtHi;
      if (from < 32 ? (pinnedLo >>> from) & 1 : (pinnedHi >>> (from - 32)) & 1) {
        aLo &= this.pinLo[from];
        aHi &= this.pinHi[from];
      }
      n = emit(out, n, from, aLo, aHi);
    }

    // Orthogonal sliders (rooks, queens).
    pLo = pl[o | ROOK] | pl[o | QUEEN];
    pHi = ph[o | ROOK] | ph[o | QUEEN];
    while ((pLo | pHi) !== 0) {
      let from: number;
      if (pLo !== 0) {
        from = 31 - Math.clz32(pLo & -pLo);
        pLo &= pLo - 1;
      } else {
        from = 63 - Math.clz32(pHi & -pHi);
        pHi &= pHi - 1;
      }
      sliders.rook(from, occLo, occHi, t);
      let aLo = t[0] & tgtLo,
        aHi = t[1] & tgtHi;
      if (from < 32 ? (pinnedLo >>> from) & 1 : (pinnedHi >>> (from - 32)) & 1) {
        aLo &= this.pinLo[from];
        aHi &= this.pinHi[from];
      }
      n = emit(out, n, from, aLo, aHi);
    }

    // Pawns: pushes and captures square by square; promotions expand to four moves.
    const board = pos.board;
    const up = us === WHITE ? 8 : -8;
    const startRank = us === WHITE ? 1 : 6,
      lastRank = us === WHITE ? 7 : 0;
    pLo = pl[o | PAWN];
    pHi = ph[o | PAWN];
    while ((pLo | pHi) !== 0) {
      let from: number;
      if (pLo !== 0) {
        from = 31 - Math.clz32(pLo & -pLo);
        pLo &= pLo - 1;
      } else {
        from = 63 - Math.clz32(pHi & -pHi);
        pHi &= pHi - 1;
      }
      let rLo = maskLo,
        rHi = maskHi;
      if (from < 32 ? (pinnedLo >>> from) & 1 : (pinnedHi >>> (from - 32)) & 1) {
        rLo &= this.pinLo[from];
        rHi &= this.pinHi[from];
      }
      const one = from + up;
      if (board[one] === 0) {
        if (one < 32 ? (rLo >>> one) & 1 : (rHi >>> (one - 32)) & 1) {
          if (one >> 3 === lastRank) n = emitPromotions(out, n, from, one);
          else if (!noisyOnly) out[n++] = from | (one << 6);
        }
        if (from >> 3 === startRank && !noisyOnly) {
          const two = one + up;
          if (board[two] === 0 && (two < 32 ? (rLo >>> two) & 1 : (rHi >>> (two - 32)) & 1)) out[n++] = from | (two << 6);
        }
      }
      let cLo = pawnAttacksLo[(us << 6) | from] & themLo & rLo,
        cHi = pawnAttacksHi[(us << 6) | from] & themHi & rHi;
      while ((cLo | cHi) !== 0) {
        let to: number;
        if (cLo !== 0) {
          to = 31 - Math.clz32(cLo & -cLo);
          cLo &= cLo - 1;
        } else {
          to = 63 - Math.clz32(cHi & -cHi);
          cHi &= cHi - 1;
        }
        if (to >> 3 === lastRank) n = emitPromotions(out, n, from, to);
        else out[n++] = from | (to << 6);
      }
    }

    // En passant: rare, so legality is settled by looking at the board after the capture.
    const ep = pos.ep;
    if (ep !== NO_SQUARE) {
      let cLo = pawnAttacksLo[(them << 6) | ep] & pl[o | PAWN],
        cHi = pawnAttacksHi[(them << 6) | ep] & ph[o | PAWN];
      const capSq = ep - up;
      while ((cLo | cHi) !== 0) {
        let from: number;
        if (cLo !== 0) {
          from = 31 - Math.clz32(cLo & -cLo);
          cLo &= cLo - 1;
        } else {
          from = 63 - Math.clz32(cHi & -cHi);
          cHi &= cHi - 1;
        }
        if (this.epLegal(pos, from, ep, capSq, ksq, them)) out[n++] = from | (ep << 6) | (KIND_EN_PASSANT << 15);
      }
    }
    return n;
  }

  private epLegal(pos: Position, from: number, ep: number, capSq: number, ksq: number, them: number): boolean {
    let oLo = pos.colorLo[0] | pos.colorLo[1],
      oHi = pos.colorHi[0] | pos.colorHi[1];
    if (from < 32) oLo &= ~(1 << from);
    else oHi &= ~(1 << (from - 32));
    if (capSq < 32) oLo &= ~(1 << capSq);
    else oHi &= ~(1 << (capSq - 32));
    if (ep < 32) oLo |= 1 << ep;
    else oHi |= 1 << (ep - 32);
    const pl = pos.pieceLo,
      ph = pos.pieceHi,
      e = them << 3,
      t = this.t;
    const capLo = capSq < 32 ? 1 << capSq : 0,
      capHi = capSq < 32 ? 0 : 1 << (capSq - 32);
    const us = them ^ 1;
    if (((pawnAttacksLo[(us << 6) | ksq] & pl[e | PAWN] & ~capLo) | (pawnAttacksHi[(us << 6) | ksq] & ph[e | PAWN] & ~capHi)) !== 0)
      return false;
    if (((knightAttacksLo[ksq] & pl[e | KNIGHT]) | (knightAttacksHi[ksq] & ph[e | KNIGHT])) !== 0) return false;
    this.sliders.bishop(ksq, oLo, oHi, t);
    if (((t[0] & (pl[e | BISHOP] | pl[e | QUEEN])) | (t[1] & (ph[e | BISHOP] | ph[e | QUEEN]))) !== 0) return false;
    this.sliders.rook(ksq, oLo, oHi, t);
    return ((t[0] & (pl[e | ROOK] | pl[e | QUEEN])) | (t[1] & (ph[e | ROOK] | ph[e | QUEEN]))) === 0;
  }

  /**
   * Castles, Chess960 included: every square on the king's and the rook's paths empty (the king
   * and the castling rook excepted), the squares the king passes not attacked, and its target not
   * attacked once both pieces have moved (the castling rook may have been shielding it).
   */
  private castles(pos: Position, out: Int32Array, n: number, us: number, occLo: number, occHi: number): number {
    const them = us ^ 1,
      ksq = pos.kingSq[us];
    const kOccLo = ksq < 32 ? occLo & ~(1 << ksq) : occLo,
      kOccHi = ksq < 32 ? occHi : occHi & ~(1 << (ksq - 32));
    for (let right = us << 1; right < (us << 1) + 2; right++) {
      if ((pos.castling & (1 << right)) === 0) continue;
      if (((pos.castlePathLo[right] & occLo) | (pos.castlePathHi[right] & occHi)) !== 0) continue;
      const kTo = castleKingTo(right),
        rsq = pos.castleRook[right],
        rTo = (right & 1) === 0 ? kTo - 1 : kTo + 1;
      let lo = betweenLo[(ksq << 6) | kTo],
        hi = betweenHi[(ksq << 6) | kTo],
        safe = true;
      while (safe && (lo | hi) !== 0) {
        let sq: number;
        if (lo !== 0) {
          sq = 31 - Math.clz32(lo & -lo);
          lo &= lo - 1;
        } else {
          sq = 63 - Math.clz32(hi & -hi);
          hi &= hi - 1;
        }
        if (this.attacked(pos, sq, them, kOccLo, kOccHi)) safe = false;
      }
      if (!safe) continue;
      let aLo = kOccLo,
        aHi = kOccHi;
      if (rsq < 32) aLo &= ~(1 << rsq);
      else aHi &= ~(1 << (rsq - 32));
      if (rTo < 32) aLo |= 1 << rTo;
      else aHi |= 1 << (rTo - 32);
      if (!this.attacked(pos, kTo, them, aLo, aHi)) out[n++] = ksq | (kTo << 6) | (KIND_CASTLE << 15);
    }
    return n;
  }
}

function emit(out: Int32Array, n: number, from: number, lo: number, hi: number): number {
  while (lo !== 0) {
    out[n++] = from | ((31 - Math.clz32(lo & -lo)) << 6);
    lo &= lo - 1;
  }
  while (hi !== 0) {
    out[n++] = from | ((63 - Math.clz32(hi & -hi)) << 6);
    hi &= hi - 1;
  }
  return n;
}

function emitPromotions(out: Int32Array, n: number, from: number, to: number): number {
  const base = from | (to << 6);
  out[n] = base | PROMO_SHIFTED[0];
  out[n + 1] = base | PROMO_SHIFTED[1];
  out[n + 2] = base | PROMO_SHIFTED[2];
  out[n + 3] = base | PROMO_SHIFTED[3];
  return n + 4;
}

/** The default generator (magic bitboards). */
export const defaultGenerator = new MoveGenerator();

const generators = new WeakMap<SliderAttacks, MoveGenerator>([[magicAttacks, defaultGenerator]]);

/** Legal moves with any slider provider (one generator per provider, made on first use). */
export function generateLegalMoves(pos: Position, out: Int32Array, start: number, sliders: SliderAttacks = magicAttacks): number {
  let gen = generators.get(sliders);
  if (gen === undefined) {
    gen = new MoveGenerator(sliders);
    generators.set(sliders, gen);
  }
  return gen.generate(pos, out, start);
}
