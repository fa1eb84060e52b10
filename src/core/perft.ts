/**
 * Perft: the number of leaf nodes of the legal move tree, the standard proof of a move generator,
 * for any backend behind the LegalMoveGenerator seam. The last ply is bulk-counted (generators
 * only write legal moves). A backend with a position of its own is walked on that (moveTree),
 * by a loop of its own so that neither walk slows the other down in V8 (one call shape each).
 * With a PerftTable, counts of (position, depth) pairs met before are looked up instead of
 * walked again (depth 2 and up; the core Position supplies the key, so a moveTree walk makes each
 * move on both).
 */
import type { LegalMoveGenerator, MoveTree } from './backend.js';
import { MAX_MOVES, defaultGenerator } from './movegen.js';
import type { PerftTable } from './perft-table.js';
import type { Position } from './position.js';

const MAX_DEPTH = 64;
const buffer = new Int32Array(MAX_MOVES * MAX_DEPTH);

function checkDepth(depth: number): void {
  if (!Number.isInteger(depth) || depth < 0) throw new RangeError(`perft depth ${depth} is not a non-negative integer`);
  if (depth > MAX_DEPTH) throw new RangeError(`perft depth ${depth} is above the maximum ${MAX_DEPTH}`);
}

/**
 * Leaf count of the legal move tree of `pos` to `depth` plies; `pos` is restored afterwards.
 * `table` (optional) remembers subtree counts across transpositions and across calls.
 */
export function perft(pos: Position, depth: number, gen: LegalMoveGenerator = defaultGenerator, table?: PerftTable): number {
  checkDepth(depth);
  if (depth === 0) return 1;
  const tree = gen.moveTree?.(pos);
  if (table) {
    table.setRoot();
    return tree ? perftTreeHashed(tree, pos, depth, 0, table) : perftPositionHashed(pos, gen, depth, 0, table);
  }
  return tree ? perftTree(tree, depth, 0) : perftPosition(pos, gen, depth, 0);
}

function perftPosition(pos: Position, gen: LegalMoveGenerator, depth: number, level: number): number {
  const start = level * MAX_MOVES;
  const end = gen.generate(pos, buffer, start);
  if (depth === 1) return end - start;
  let nodes = 0;
  for (let i = start; i < end; i++) {
    pos.makeMove(buffer[i]);
    nodes += perftPosition(pos, gen, depth - 1, level + 1);
    pos.unmakeMove();
  }
  return nodes;
}

function perftTree(tree: MoveTree, depth: number, level: number): number {
  if (depth === 1) return tree.countLegal();
  const start = level * MAX_MOVES;
  const end = tree.generate(buffer, start);
  let nodes = 0;
  for (let i = start; i < end; i++) {
    tree.makeMove(buffer[i]);
    nodes += perftTree(tree, depth - 1, level + 1);
    tree.unmakeMove();
  }
  return nodes;
}

function perftPositionHashed(pos: Position, gen: LegalMoveGenerator, depth: number, level: number, table: PerftTable): number {
  if (depth >= 2) {
    const known = table.probe(pos, depth);
    if (known >= 0) return known;
  }
  const start = level * MAX_MOVES;
  const end = gen.generate(pos, buffer, start);
  if (depth === 1) return end - start;
  let nodes = 0;
  for (let i = start; i < end; i++) {
    pos.makeMove(buffer[i]);
    nodes += perftPositionHashed(pos, gen, depth - 1, level + 1, table);
    pos.unmakeMove();
  }
  table.store(pos, depth, nodes);
  return nodes;
}

/** `pos` follows `tree` move for move, for the keys; below depth 2 nothing is looked up, so `tree` walks alone. */
function perftTreeHashed(tree: MoveTree, pos: Position, depth: number, level: number, table: PerftTable): number {
  if (depth === 1) return tree.countLegal();
  const known = table.probe(pos, depth);
  if (known >= 0) return known;
  const start = level * MAX_MOVES;
  const end = tree.generate(buffer, start);
  let nodes = 0;
  if (depth === 2) {
    for (let i = start; i < end; i++) {
      tree.makeMove(buffer[i]);
      nodes += tree.countLegal();
      tree.unmakeMove();
    }
  } else {
    for (let i = start; i < end; i++) {
      tree.makeMove(buffer[i]);
      pos.makeMove(buffer[i]);
      nodes += perftTreeHashed(tree, pos, depth - 1, level + 1, table);
      pos.unmakeMove();
      tree.unmakeMove();
    }
  }
  table.store(pos, depth, nodes);
  return nodes;
}

/**
 * Perft split by root move: [move, nodes] pairs in generation order. `onRootMove` is called after
 * each root move (for a progress display). `pos` is restored afterwards.
 */
export function perftDivide(
  pos: Position,
  depth: number,
  gen: LegalMoveGenerator = defaultGenerator,
  onRootMove?: (done: number, total: number) => void,
): Array<[number, number]> {
  checkDepth(depth);
  const moves = new Int32Array(MAX_MOVES);
  const n = gen.generate(pos, moves, 0);
  const result: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    pos.makeMove(moves[i]);
    result.push([moves[i], depth <= 1 ? 1 : perft(pos, depth - 1, gen)]);
    pos.unmakeMove();
    onRootMove?.(i + 1, n);
  }
  return result;
}
