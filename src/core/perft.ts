/**
 * Perft: the number of leaf nodes of the legal move tree, the standard proof of a move generator.
 * The last ply is bulk-counted (the generator only writes legal moves).
 */
import { MAX_MOVES, MoveGenerator, defaultGenerator } from './movegen.js';
import type { Position } from './position.js';

const MAX_DEPTH = 64;
const buffer = new Int32Array(MAX_MOVES * MAX_DEPTH);

export function perft(pos: Position, depth: number, gen: MoveGenerator = defaultGenerator): number {
  if (depth <= 0) return 1;
  if (depth > MAX_DEPTH) throw new RangeError(`perft depth ${depth} is above the maximum ${MAX_DEPTH}`);
  return perftAt(pos, depth, gen, 0);
}

function perftAt(pos: Position, depth: number, gen: MoveGenerator, level: number): number {
  const start = level * MAX_MOVES;
  const end = gen.generate(pos, buffer, start);
  if (depth === 1) return end - start;
  let nodes = 0;
  for (let i = start; i < end; i++) {
    pos.makeMove(buffer[i]);
    nodes += perftAt(pos, depth - 1, gen, level + 1);
    pos.unmakeMove();
  }
  return nodes;
}

/** Perft split by root move: [move, nodes] pairs in generation order. */
export function perftDivide(pos: Position, depth: number, gen: MoveGenerator = defaultGenerator): Array<[number, number]> {
  const moves = new Int32Array(MAX_MOVES);
  const n = gen.generate(pos, moves, 0);
  const result: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    pos.makeMove(moves[i]);
    result.push([moves[i], depth <= 1 ? 1 : perft(pos, depth - 1, gen)]);
    pos.unmakeMove();
  }
  return result;
}
