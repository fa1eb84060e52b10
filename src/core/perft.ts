/**
 * Perft: the number of leaf nodes of the legal move tree, the standard proof of a move generator,
 * for any backend behind the LegalMoveGenerator seam. The last ply is bulk-counted (generators
 * only write legal moves). A backend with a position of its own is walked on that (moveTree).
 */
import type { LegalMoveGenerator, MoveTree } from './backend.js';
import { MAX_MOVES, defaultGenerator } from './movegen.js';
import type { Position } from './position.js';

const MAX_DEPTH = 64;
const buffer = new Int32Array(MAX_MOVES * (MAX_DEPTH + 1));
/** Where the last ply's moves are written (and only counted). */
const LEAF_AT = MAX_DEPTH * MAX_MOVES;

/** The core Position walked with any generator. */
class CoreMoveTree implements MoveTree {
  constructor(private readonly pos: Position, private readonly gen: LegalMoveGenerator) {}
  generate(out: Int32Array, start: number): number { return this.gen.generate(this.pos, out, start); }
  countLegal(): number { return this.gen.generate(this.pos, buffer, LEAF_AT) - LEAF_AT; }
  makeMove(move: number): void { this.pos.makeMove(move); }
  unmakeMove(): void { this.pos.unmakeMove(); }
}

function treeOf(pos: Position, depth: number, gen: LegalMoveGenerator): MoveTree {
  if (!Number.isInteger(depth) || depth < 0) throw new RangeError(`perft depth ${depth} is not a non-negative integer`);
  if (depth > MAX_DEPTH) throw new RangeError(`perft depth ${depth} is above the maximum ${MAX_DEPTH}`);
  return gen.moveTree ? gen.moveTree(pos) : new CoreMoveTree(pos, gen);
}

/** Leaf count of the legal move tree of `pos` to `depth` plies; `pos` is restored afterwards. */
export function perft(pos: Position, depth: number, gen: LegalMoveGenerator = defaultGenerator): number {
  const tree = treeOf(pos, depth, gen);
  return depth === 0 ? 1 : perftAt(tree, depth, 0);
}

function perftAt(tree: MoveTree, depth: number, level: number): number {
  if (depth === 1) return tree.countLegal();
  const start = level * MAX_MOVES;
  const end = tree.generate(buffer, start);
  let nodes = 0;
  for (let i = start; i < end; i++) {
    tree.makeMove(buffer[i]);
    nodes += perftAt(tree, depth - 1, level + 1);
    tree.unmakeMove();
  }
  return nodes;
}

/**
 * Perft split by root move: [move, nodes] pairs in generation order. `onRootMove` is called after
 * each root move (for a progress display).
 */
export function perftDivide(
  pos: Position,
  depth: number,
  gen: LegalMoveGenerator = defaultGenerator,
  onRootMove?: (done: number, total: number) => void,
): Array<[number, number]> {
  const tree = treeOf(pos, depth, gen);
  const moves = new Int32Array(MAX_MOVES);
  const n = tree.generate(moves, 0);
  const result: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    tree.makeMove(moves[i]);
    result.push([moves[i], depth <= 1 ? 1 : perftAt(tree, depth - 1, 1)]);
    tree.unmakeMove();
    onRootMove?.(i + 1, n);
  }
  return result;
}
