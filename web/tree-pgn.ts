/**
 * PGN of a game tree with its variations in parentheses: the one function the page exports its
 * games with. It stands in for the core's PGN model (src/core/pgn/, being built separately); when
 * that lands, this function's body is the only thing to swap.
 */
import type { GameTree, TreeNode } from './game-tree.js';

export type TreePgnResult = '1-0' | '0-1' | '1/2-1/2' | '*';

/** A tag value with the PGN standard's escapes (backslash and quote). */
const escapeTag = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/**
 * `tags` in order (the caller puts the seven-tag roster first), then the movetext of the whole
 * tree: the main line, each variation in parentheses after the move it replaces, move numbers
 * repeated (`5...`) where Black's move follows a variation. `startFen` gives the first move's
 * number and side. Lines are wrapped at 80 characters.
 */
export function writeTreePgn(tags: Array<[string, string]>, tree: GameTree, startFen: string, result: TreePgnResult): string {
  const fields = startFen.split(/\s+/);
  const blackFirst = fields[1] === 'b';
  const firstNumber = Math.max(1, Number(fields[5]) || 1);
  const tokens: string[] = [];
  const moveToken = (ply: number, node: TreeNode, forceNumber: boolean): string => {
    const p = ply + (blackFirst ? 1 : 0);
    const num = firstNumber + Math.floor(p / 2);
    if (p % 2 === 0) return `${num}. ${node.san}`;
    return forceNumber ? `${num}... ${node.san}` : node.san;
  };
  // `from`'s continuation: its main child, that child's alternatives as variations, and on.
  const line = (from: TreeNode, ply: number, forceNumber: boolean): void => {
    let node = from,
      force = forceNumber;
    while (node.children.length > 0) {
      const [main, ...alternatives] = node.children;
      tokens.push(moveToken(ply, main, force));
      force = false;
      for (const alt of alternatives) {
        tokens.push('(' + moveToken(ply, alt, true));
        line(alt, ply + 1, false);
        tokens[tokens.length - 1] += ')';
        force = true;
      }
      node = main;
      ply++;
    }
  };
  line(tree.root, 0, true);
  tokens.push(result);

  const out = tags.map(([k, v]) => `[${k} "${escapeTag(v)}"]`);
  out.push('');
  let row = '';
  for (const t of tokens) {
    if (row && row.length + 1 + t.length > 80) {
      out.push(row);
      row = t;
    } else row = row ? `${row} ${t}` : t;
  }
  out.push(row);
  return out.join('\n') + '\n';
}
