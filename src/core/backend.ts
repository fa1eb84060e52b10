/**
 * A move-generation backend: one way of producing the legal moves of a position. The bitboard
 * core is the reference; the matrix model and the binary neural networks are others. All must
 * agree move for move, which perft proves.
 */
import type { Position } from './position.js';
import { KIND_EN_PASSANT } from './move.js';
import { MAX_MOVES } from './movegen.js';

/** What a search needs from a move generator: all legal moves, and the noisy ones for quiescence. */
export interface MoveSource {
  /** Writes the legal moves into out[start..]; returns the end index. */
  generate(pos: Position, out: Int32Array, start: number): number;
  /** Only legal captures (en passant included) and promotions. */
  generateNoisy(pos: Position, out: Int32Array, start: number): number;
}

export interface MoveGenBackend {
  /** Short name used on the command line and in UCI: 'bitboard', 'matrix', 'bnn'. */
  readonly name: string;
  /** Writes the legal moves of `pos` into `out` from index `start`; returns the end index. */
  legalMoves(pos: Position, out: Int32Array, start: number): number;
  /** Leaf count of the legal move tree of `pos` to `depth` plies; `pos` is restored after. */
  perft(pos: Position, depth: number): number;
}

/**
 * A MoveGenBackend only lists legal moves; search also wants the noisy subset (captures,
 * en passant, promotions), which is the legal list filtered by the board.
 */
export function legalMovesAsMoveSource(impl: Pick<MoveGenBackend, 'legalMoves'>): MoveSource {
  const scratch = new Int32Array(MAX_MOVES);
  return {
    generate: (pos, out, start) => impl.legalMoves(pos, out, start),
    generateNoisy(pos, out, start) {
      const n = impl.legalMoves(pos, scratch, 0);
      let end = start;
      for (let i = 0; i < n; i++) {
        const m = scratch[i];
        const noisy = pos.board[(m >> 6) & 63] !== 0 || ((m >> 12) & 7) !== 0 || ((m >> 15) & 3) === KIND_EN_PASSANT;
        if (noisy) out[end++] = m;
      }
      return end;
    },
  };
}
