/**
 * The one error type of the matrix model. Bad input (a malformed matrix, an off-board index, a
 * move from an empty square) is refused with a MatrixError before anything is written, so a
 * board is never left silently corrupted.
 */
export class MatrixError extends Error {
  /** A short machine-readable reason: 'shape', 'entry', 'index', 'empty-square', 'fen', ... */
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.name = 'MatrixError';
    this.reason = reason;
  }
}
