/**
 * A move-generation backend: one way of producing the legal moves of a position. The bitboard
 * core is the reference; the matrix model and the binary neural networks are others. All must
 * agree move for move, which perft proves.
 */
import type { Position } from './position.js';

export interface MoveGenBackend {
  /** Short name used on the command line and in UCI: 'bitboard', 'matrix', 'bnn'. */
  readonly name: string;
  /** Writes the legal moves of `pos` into `out` from index `start`; returns the end index. */
  legalMoves(pos: Position, out: Int32Array, start: number): number;
  /** Leaf count of the legal move tree of `pos` to `depth` plies; `pos` is restored after. */
  perft(pos: Position, depth: number): number;
}
