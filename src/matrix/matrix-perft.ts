/**
 * Native matrix perft: make/unmake by the affine updates, targets by matrix products, and bulk
 * counting at depth 1 (the number of legal moves is the number of leaves below).
 */
import { countLegal, generateLegal } from './matrix-movegen.js';
import { MAX_PLY, type MatrixPosition } from './matrix-position.js';
import { MatrixError } from './errors.js';

const MOVES_PER_PLY = 256;
const moveStack = new Int32Array(MOVES_PER_PLY * (MAX_PLY + 1));

export function matrixPerft(mp: MatrixPosition, depth: number): number {
  if (!Number.isInteger(depth) || depth < 0) throw new MatrixError('depth', `perft depth ${depth} is not a non-negative integer`);
  if (depth === 0) return 1;
  if (mp.ply + depth > MAX_PLY) throw new MatrixError('depth', `perft depth ${depth} exceeds ${MAX_PLY} plies`);
  return perftRec(mp, depth);
}

function perftRec(mp: MatrixPosition, depth: number): number {
  if (depth === 1) return countLegal(mp);
  const start = MOVES_PER_PLY * mp.ply;
  const end = generateLegal(mp, moveStack, start);
  let nodes = 0;
  for (let i = start; i < end; i++) {
    mp.makeMove(moveStack[i]);
    nodes += perftRec(mp, depth - 1);
    mp.unmakeMove();
  }
  return nodes;
}

/** Leaf counts per root move (for locating a disagreement). */
export function matrixPerftDivide(mp: MatrixPosition, depth: number): Array<[number, number]> {
  const moves = new Int32Array(MOVES_PER_PLY);
  const n = generateLegal(mp, moves, 0);
  const res: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    mp.makeMove(moves[i]);
    res.push([moves[i], depth <= 1 ? 1 : matrixPerft(mp, depth - 1)]);
    mp.unmakeMove();
  }
  return res;
}
