/**
 * PGN of a game tree with its variations in parentheses: the one function the page exports its
 * games with, on the core's PGN model and writer (src/core/pgn). Each move's annotations (NAGs,
 * comments before and after, [%eval], [%clk]) and the game comment are written back as read.
 */
import { makePgn, type PgnMove, type PgnResult } from '../src/core/pgn/index.js';
import { annotationsOf, type GameTree, type TreeNode } from './game-tree.js';

export type TreePgnResult = PgnResult;

/**
 * `tags` in order (the caller puts the seven-tag roster first, and SetUp/FEN for a custom start:
 * the move numbers follow the FEN tag), then the movetext of the whole tree: the game comment,
 * the main line, each variation in parentheses after the move it replaces. Lines are shorter
 * than 80 characters.
 */
export function writeTreePgn(tags: Array<[string, string]>, tree: GameTree, result: TreePgnResult): string {
  return makePgn({ tags: new Map(tags), comments: gameComments(tree), moves: lineFrom(tree.root), result });
}

/** The comments before the first move (kept at the root). */
export function gameComments(tree: GameTree): string[] {
  return [...(tree.root.annotations.commentsAfter ?? [])];
}

/** A node's move for the PGN model: its SAN and annotations. */
export function pgnMoveOf(node: TreeNode): PgnMove {
  return { san: node.san, ...annotationsOf(node.annotations) };
}

/** `from`'s continuation as a line: its main child, then that child's main child…, each move with its alternatives as variations. */
function lineFrom(from: TreeNode): PgnMove[] {
  const line: PgnMove[] = [];
  for (let node = from; node.children.length > 0; node = node.children[0]) {
    const [main, ...alternatives] = node.children;
    const move = pgnMoveOf(main);
    if (alternatives.length > 0) move.variations = alternatives.map((alt) => [pgnMoveOf(alt), ...lineFrom(alt)]);
    line.push(move);
  }
  return line;
}
