/**
 * The matrix model as a move-generation backend: the core Position is converted into a matrix
 * position once per call, then everything runs on matrices.
 */
import type { MoveGenBackend } from '../core/backend.js';
import type { Position } from '../core/position.js';
import { MatrixPosition } from './matrix-position.js';
import { generateLegal } from './matrix-movegen.js';
import { matrixPerft } from './matrix-perft.js';

const shared = new MatrixPosition();

export const matrixBackend: MoveGenBackend = {
  name: 'matrix',
  legalMoves(pos: Position, out: Int32Array, start: number): number {
    shared.load(pos);
    return generateLegal(shared, out, start);
  },
  perft(pos: Position, depth: number): number {
    shared.load(pos);
    return matrixPerft(shared, depth);
  },
};
