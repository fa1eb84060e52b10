/**
 * The network as the search sees it: an accumulator per ply, kept in step with make/unmake.
 * A move is the affine update a' = a + W·(e_to − e_from) − W·e_captured (two columns in and two
 * out for castling); unmake costs nothing because the slot is the position's ply, and the
 * parent's accumulators are still there. The update is lazy: make() writes down the move's
 * columns, and the arithmetic runs only when a position is evaluated, walking up from the
 * nearest computed ancestor; a move that is made and unmade unevaluated (a futile move, a
 * child that returns from the hash table, a draw) costs no update at all. With a feature set
 * that depends on the king (king-mirrored, king-buckets: features.ts), a king move that changes
 * its side's king transform (across the d/e boundary; into another bucket) changes every column
 * of that side's perspective: that accumulator is marked stale and recomputed from the position
 * when it is next needed (evaluated, or the parent of a further move: a stale slot could no
 * longer be recomputed once the position has moved on, so it is brought up to date then).
 * Plain networks never compute a king transform.
 */
import type { Position } from '../../core/position.js';
import { popcount } from '../../core/bitboard.js';
import { KING } from '../../core/types.js';
import { castleRookTo, moveFrom, moveTo, movePromo, moveKind, KIND_CASTLE, KIND_EN_PASSANT } from '../../core/move.js';
import { featureIndex, kingTransform, outputBucket } from './features.js';
import type { NnueKernel } from './kernel.js';
import { NNUE_SLOTS } from './kernel.js';
import { networkInputs, type NnueNetwork } from './network.js';
import { evaluate as classicalEvaluate } from '../evaluate.js';
import { endgameKnowledge } from '../endgame.js';

export class NnueEvaluator {
  private basePly = 0;
  private readonly residual: boolean;
  /** The feature set depends on the kings' squares (king-mirrored, king-buckets): not plain. */
  private readonly kingDependent: boolean;
  /** Per slot, bit p set: perspective p's accumulator is stale (its king's move changed its king transform). */
  private readonly stale = new Uint8Array(NNUE_SLOTS);
  /** Per slot, 1 when its accumulators hold the position (else its pending update is due). */
  private readonly computed = new Uint8Array(NNUE_SLOTS);
  /** Per slot, the pending update from the slot below: the kernel's eight delta indices. */
  private readonly pending = new Int32Array(NNUE_SLOTS * 8);
  /** Per slot, the pending update's columns in and out (0 and 0: a null move, a copy). */
  private readonly pendingAdd = new Uint8Array(NNUE_SLOTS);
  private readonly pendingSub = new Uint8Array(NNUE_SLOTS);

  constructor(
    readonly network: NnueNetwork,
    readonly kernel: NnueKernel,
    readonly source = 'network',
  ) {
    this.residual = network.kind === 'residual';
    this.kingDependent = network.features !== 'plain';
  }

  /** Slot 0 from scratch: call at the root of a search (or whenever the position was set). */
  reset(pos: Position): void {
    this.basePly = pos.ply;
    this.refresh(pos, 0);
    this.computed[0] = 1;
  }

  /** Brings `slot` up to date: the pending updates from its nearest computed ancestor, in order. */
  private ensure(slot: number): void {
    if (slot === 0 || this.computed[slot] === 1) return;
    let k = slot;
    while (k > 1 && this.computed[k - 1] === 0) k--;
    const d = this.kernel.delta,
      pending = this.pending,
      kernel = this.kernel;
    for (; k <= slot; k++) {
      const nAdd = this.pendingAdd[k];
      if (nAdd === 0) kernel.copy(k, k - 1);
      else {
        const o = k * 8;
        for (let j = 0; j < 8; j++) d[j] = pending[o + j];
        kernel.update(k, k - 1, nAdd, this.pendingSub[k]);
      }
      this.computed[k] = 1;
    }
  }

  private refresh(pos: Position, slot: number): void {
    this.refreshPerspective(pos, slot, 0);
    this.refreshPerspective(pos, slot, 1);
  }

  private refreshPerspective(pos: Position, slot: number, persp: number): void {
    const list = this.kernel.list,
      king = kingTransform(this.network.features, persp, pos.kingSq[persp]);
    let n = 0;
    for (let sq = 0; sq < 64; sq++) {
      const p = pos.board[sq];
      if (p !== 0) list[n++] = featureIndex(persp, p, sq, king);
    }
    this.kernel.refresh(slot, persp, n);
    this.stale[slot] &= ~(1 << persp);
  }

  /** Recomputes the stale accumulators of `slot`, which holds `pos`. */
  private freshen(pos: Position, slot: number): void {
    const s = this.stale[slot];
    if (s === 0) return;
    if (s & 1) this.refreshPerspective(pos, slot, 0);
    if (s & 2) this.refreshPerspective(pos, slot, 1);
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
    const d = this.pending,
      o = (slot + 1) * 8,
      kingDependent = this.kingDependent,
      features = this.network.features,
      // Each perspective's king transform (0 for plain networks, which skip the call).
      f0 = kingDependent ? kingTransform(features, 0, pos.kingSq[0]) : 0,
      f1 = kingDependent ? kingTransform(features, 1, pos.kingSq[1]) : 0;
    let nAdd = 1,
      nSub = 1;
    d[o] = featureIndex(0, placed, to, f0);
    d[o + 2] = featureIndex(0, piece, from, f0);
    d[o + 4] = featureIndex(1, placed, to, f1);
    d[o + 6] = featureIndex(1, piece, from, f1);
    if (kind === KIND_CASTLE) {
      const rFrom = pos.castleRookFrom(m),
        rTo = castleRookTo(m),
        rook = pos.board[rFrom];
      d[o + 1] = featureIndex(0, rook, rTo, f0);
      d[o + 3] = featureIndex(0, rook, rFrom, f0);
      d[o + 5] = featureIndex(1, rook, rTo, f1);
      d[o + 7] = featureIndex(1, rook, rFrom, f1);
      nAdd = 2;
      nSub = 2;
    } else {
      const capSq = kind === KIND_EN_PASSANT ? to ^ 8 : to,
        captured = pos.board[capSq];
      if (captured !== 0) {
        d[o + 3] = featureIndex(0, captured, capSq, f0);
        d[o + 7] = featureIndex(1, captured, capSq, f1);
        nSub = 2;
      }
    }
    this.pendingAdd[slot + 1] = nAdd;
    this.pendingSub[slot + 1] = nSub;
    this.computed[slot + 1] = 0;
    // The mover's own perspective changes its king transform when its king crosses the d/e
    // boundary (king-mirrored) or into another bucket (king-buckets): the update above used the
    // old transform, so that accumulator is recomputed from the board when needed. A castle is the
    // king's move to `to` (its target square, in Chess960 too; core/move.ts), where make() puts it.
    if (kingDependent)
      this.markStale(pos, slot, (piece & 7) === KING && kingTransform(features, us, to) !== (us === 0 ? f0 : f1) ? 1 << us : 0);
  }

  /**
   * King-dependent networks: slot + 1's perspectives in `stale` are to be recomputed from its
   * board. Its update stays lazy; but a stale slot can be recomputed only while `pos` holds its
   * position, so before a move is made from it, it is brought up to date and recomputed now.
   * Hence every slot below a stale one is up to date or reachable by valid updates.
   */
  private markStale(pos: Position, slot: number, stale: number): void {
    if (this.stale[slot] !== 0) {
      this.ensure(slot);
      this.freshen(pos, slot);
    }
    this.stale[slot + 1] = stale;
  }

  /** Call before pos.makeNullMove(): the pieces stay, so do the accumulators. */
  makeNull(pos: Position): void {
    const slot = pos.ply - this.basePly;
    this.pendingAdd[slot + 1] = 0;
    this.computed[slot + 1] = 0;
    if (this.kingDependent) this.markStale(pos, slot, 0);
  }

  /**
   * Centipawns from the side to move's view, from the current ply's accumulators. An evaluation
   * network's output goes through the classical evaluation's endgame rules (insufficient
   * material, drawish balances, mop-up); a residual's is added to the classical evaluation, which
   * has them already.
   */
  evaluate(pos: Position): number {
    const slot = pos.ply - this.basePly;
    this.ensure(slot);
    this.freshen(pos, slot);
    return this.combine(pos, this.networkOutput(pos, slot));
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
        const king = kingTransform(this.network.features, persp, pos.kingSq[persp]);
        for (let sq = 0; sq < 64; sq++) if (sq !== skip && pos.board[sq] !== 0) list[n++] = featureIndex(persp, pos.board[sq], sq, king);
        this.kernel.refresh(slot, persp, n);
      }
      out[skip] = full - white(this.kernel.evaluate(slot, pos.side, bucket));
    }
    return out;
  }

  /** The current ply's accumulator for `persp` (tests, the web panel). */
  accumulator(pos: Position, persp: number): Int16Array {
    this.ensure(pos.ply - this.basePly);
    this.freshen(pos, pos.ply - this.basePly);
    return this.kernel.accumulator(pos.ply - this.basePly, persp);
  }
}

/** One line describing an evaluator, for `info string` and logs. */
export function describeNnue(e: NnueEvaluator): string {
  const n = e.network;
  const kind = n.kind === 'residual' ? ', a residual added to the classical evaluation' : '';
  const act = n.activation === 'screlu' ? ', squared clipped ReLU' : '';
  return `NNUE ${e.source}: ${networkInputs(n)}x2-${n.hidden}-${n.buckets} buckets, ${e.kernel.name} kernel${act}${kind}${n.description ? ` (${n.description})` : ''}`;
}
