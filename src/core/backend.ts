/**
 * The move-generator seam: one way of producing the legal moves of a core Position. The bitboard
 * core is the reference; the matrix model and the binary neural networks are others. The search,
 * perft and every interface use only this; all backends agree move for move, which perft proves.
 */
import type { Position } from './position.js';

export interface LegalMoveGenerator {
  /** Short name used on the command line and in UCI: 'bitboard', 'matrix', 'bnn'. */
  readonly name: string;
  /** What was loaded, when a backend has variants (bnn: "WebAssembly kernel, 16x32x1"). */
  readonly detail?: string;
  /** Writes the legal moves of `pos` into out[start..]; returns the end index. `pos` is not changed. */
  generate(pos: Position, out: Int32Array, start: number): number;
  /** Only the legal captures (en passant included) and promotions, for quiescence search. */
  generateNoisy(pos: Position, out: Int32Array, start: number): number;
  /**
   * A backend that keeps a position of its own (the matrix model) may hand perft that position to
   * walk, set to `pos`, so perft does not make every move twice. `pos` is not changed.
   */
  moveTree?(pos: Position): MoveTree;
}

/** A position perft can walk: its legal moves (listed or counted), make and unmake. */
export interface MoveTree {
  generate(out: Int32Array, start: number): number;
  countLegal(): number;
  makeMove(move: number): void;
  unmakeMove(): void;
}
