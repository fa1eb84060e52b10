/**
 * Correction history: how far searches of positions like this one fell from their static
 * evaluation, added to the next static evaluation of such a position. "Like this one" is the
 * same pawn structure. Entries are in 1/CORR_GRAIN centipawns, one half of the table per side to
 * move; the search decides when a node's result is worth learning from, this module how much and
 * where.
 */
import { PAWN } from '../core/types.js';
import type { Position } from '../core/position.js';
import { MATE_BOUND } from './score.js';

const CORR_SIZE = 16384;
const CORR_GRAIN = 256;
const CORR_MAX = 64 * CORR_GRAIN;

/** A hash of both sides' pawns, the index of a position's pawn structure in the correction table. */
function pawnStructureIndex(pos: Position): number {
  const pl = pos.pieceLo,
    ph = pos.pieceHi;
  let h = Math.imul(pl[PAWN] ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ ph[PAWN], 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ pl[8 | PAWN], 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ ph[8 | PAWN], 0xc2b2ae35);
  return (h ^ (h >>> 16)) & (CORR_SIZE - 1);
}

/** A position's entry in the correction table: one half per side to move. */
export function correctionIndex(pos: Position): number {
  return (pos.side * CORR_SIZE) | pawnStructureIndex(pos);
}

/** A correction table's entry kept within ±CORR_MAX. */
function clampCorrection(e: number): number {
  return e > CORR_MAX ? CORR_MAX : e < -CORR_MAX ? -CORR_MAX : e;
}

export class CorrectionHistory {
  /** Corrections by [side * CORR_SIZE + pawn-structure index]. */
  private readonly pawn = new Int32Array(2 * CORR_SIZE);

  clear(): void {
    this.pawn.fill(0);
  }

  /** A static evaluation plus the correction history's entry, kept off the mate scores. */
  corrected(rawEval: number, corrIndex: number): number {
    const e = rawEval + ((this.pawn[corrIndex] / CORR_GRAIN) | 0);
    return e >= MATE_BOUND ? MATE_BOUND - 1 : e <= -MATE_BOUND ? -MATE_BOUND + 1 : e;
  }

  /**
   * Learns that a search to `depth` found `score` where the static evaluation said `rawEval`:
   * the entry moves towards the difference, by more the deeper the search (at most 16/256).
   */
  update(corrIndex: number, rawEval: number, score: number, depth: number): void {
    const w = Math.min(depth + 1, 16),
      c = this.pawn;
    c[corrIndex] = clampCorrection(((c[corrIndex] * (256 - w) + (score - rawEval) * CORR_GRAIN * w) / 256) | 0);
  }
}
