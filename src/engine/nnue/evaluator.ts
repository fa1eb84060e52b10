/**
 * The network as the search sees it: an accumulator per ply, kept in step with make/unmake.
 * A move is the affine update a' = a + W·(e_to − e_from) − W·e_captured (two columns in and two
 * out for castling); unmake costs nothing because the slot is the position's ply, and the
 * parent's accumulators are still there.
 */
import type { Position } from '../../core/position.js';
import { popcount } from '../../core/bitboard.js';
import { castleRookTo, moveFrom, moveTo, movePromo, moveKind, KIND_CASTLE, KIND_EN_PASSANT } from '../../core/move.js';
import { featureIndex, outputBucket } from './features.js';
import type { NnueKernel } from './kernel.js';
import { NNUE_SLOTS } from './kernel.js';
import type { NnueNetwork } from './network.js';
import { endgameKnowledge, evaluate as classicalEvaluate } from '../evaluate.js';

export class NnueEvaluator {
  private basePly = 0;
  private readonly residual: boolean;

  constructor(
    readonly network: NnueNetwork,
    readonly kernel: NnueKernel,
    readonly source = 'network',
  ) {
    this.residual = network.kind === 'residual';
  }

  /** Slot 0 from scratch: call at the root of a search (or whenever the position was set). */
  reset(pos: Position): void {
    this.basePly = pos.ply;
    this.refresh(pos, 0);
  }

  private refresh(pos: Position, slot: number): void {
    const list = this.kernel.list;
    for (let persp = 0; persp < 2; persp++) {
      let n = 0;
      for (let sq = 0; sq < 64; sq++) {
        const p = pos.board[sq];
        if (p !== 0) list[n++] = featureIndex(persp, p, sq);
      }
      this.kernel.refresh(slot, persp, n);
    }
  }

  /** Call before pos.makeMove(m): fills the next ply's accumulators. */
  make(pos: Position, m: number): void {
    const slot = pos.ply - this.basePly;
    if (slot + 2 >= NNUE_SLOTS) throw new RangeError(`NNUE accumulator stack exhausted at ply ${slot}`);
    const from = moveFrom(m),
      to = moveTo(m),
      promo = movePromo(m),
      kind = moveKind(m);
    const piece = pos.board[from],
      us = piece >> 3;
    const placed = promo !== 0 ? (us << 3) | promo : piece;
    const d = this.kernel.delta;
    let nAdd = 1,
      nSub = 1;
    for (let p = 0; p < 2; p++) {
      d[p * 4] = featureIndex(p, placed, to);
      d[p * 4 + 2] = featureIndex(p, piece, from);
    }
    if (kind === KIND_CASTLE) {
      const rFrom = pos.castleRookFrom(m),
        rTo = castleRookTo(m),
        rook = pos.board[rFrom];
      for (let p = 0; p < 2; p++) {
        d[p * 4 + 1] = featureIndex(p, rook, rTo);
        d[p * 4 + 3] = featureIndex(p, rook, rFrom);
      }
      nAdd = 2;
      nSub = 2;
    } else {
      const capSq = kind === KIND_EN_PASSANT ? to ^ 8 : to,
        captured = pos.board[capSq];
      if (captured !== 0) {
        for (let p = 0; p < 2; p++) d[p * 4 + 3] = featureIndex(p, captured, capSq);
        nSub = 2;
      }
    }
    this.kernel.update(slot + 1, slot, nAdd, nSub);
  }

  /** Call before pos.makeNullMove(): the pieces stay, so do the accumulators. */
  makeNull(pos: Position): void {
    const slot = pos.ply - this.basePly;
    this.kernel.copy(slot + 1, slot);
  }

  /**
   * Centipawns from the side to move's view, from the current ply's accumulators. An evaluation
   * network's output goes through the classical evaluation's endgame rules (insufficient
   * material, drawish balances, mop-up); a residual's is added to the classical evaluation, which
   * has them already.
   */
  evaluate(pos: Position): number {
    return this.combine(pos, this.networkOutput(pos, pos.ply - this.basePly));
  }

  private combine(pos: Position, output: number): number {
    return this.residual ? classicalEvaluate(pos) + output : endgameKnowledge(pos, output);
  }

  /** The network's own output for the accumulators in `slot` (no endgame rules). */
  private networkOutput(pos: Position, slot: number): number {
    const pieces = popcount(pos.colorLo[0] | pos.colorLo[1], pos.colorHi[0] | pos.colorHi[1]);
    return this.kernel.evaluate(slot, pos.side, outputBucket(pieces, this.network.buckets));
  }

  /** Full evaluation of `pos` in a spare slot, without touching the search's stack (tests, tools). */
  evaluateFresh(pos: Position): number {
    const slot = NNUE_SLOTS - 1;
    this.refresh(pos, slot);
    return this.combine(pos, this.networkOutput(pos, slot));
  }

  /** The network's own output for `pos` computed from scratch: no endgame rules, no classical part (tests, the web panel). */
  networkOutputFresh(pos: Position): number {
    const slot = NNUE_SLOTS - 1;
    this.refresh(pos, slot);
    return this.networkOutput(pos, slot);
  }

  /**
   * What each piece adds to the evaluation (White's view, centipawns): the network's output for
   * the position minus its output with that piece's columns left out of both accumulators, in the
   * same output bucket. Index by square; 0 on empty squares. For the web panel and tools.
   */
  pieceContributions(pos: Position): Int32Array {
    const out = new Int32Array(64),
      slot = NNUE_SLOTS - 1,
      list = this.kernel.list;
    const bucket = outputBucket(popcount(pos.colorLo[0] | pos.colorLo[1], pos.colorHi[0] | pos.colorHi[1]), this.network.buckets);
    const white = (v: number): number => (pos.side === 0 ? v : -v);
    this.refresh(pos, slot);
    const full = white(this.kernel.evaluate(slot, pos.side, bucket));
    for (let skip = 0; skip < 64; skip++) {
      if (pos.board[skip] === 0) continue;
      for (let persp = 0; persp < 2; persp++) {
        let n = 0;
        for (let sq = 0; sq < 64; sq++) if (sq !== skip && pos.board[sq] !== 0) list[n++] = featureIndex(persp, pos.board[sq], sq);
        this.kernel.refresh(slot, persp, n);
      }
      out[skip] = full - white(this.kernel.evaluate(slot, pos.side, bucket));
    }
    return out;
  }

  /** The current ply's accumulator for `persp` (tests, the web panel). */
  accumulator(pos: Position, persp: number): Int16Array {
    return this.kernel.accumulator(pos.ply - this.basePly, persp);
  }
}
