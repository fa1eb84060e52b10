/**
 * The game as a tree, as on lichess's analysis board: each node is a position reached by one
 * move; its first child is the main continuation and the others are variations. The page shows
 * one node at a time (web/game.ts keeps it); a move played from a node that already has children
 * starts a variation instead of overwriting the line. Pure data (no DOM, no rules beyond what
 * the caller passes in), so it is also what the page stores across a reload.
 */

export interface TreeNode {
  /** Unique within the tree; the move list and the storage refer to nodes by it. */
  readonly id: number;
  readonly parent: TreeNode | null;
  /** The move that led here as UCI (king-takes-own-rook castles in Chess960); '' at the root. */
  readonly uci: string;
  /** The same move in SAN; '' at the root. */
  readonly san: string;
  /** The position after the move (the start position at the root). */
  readonly fen: string;
  /** Children in order: [0] is the main continuation, the rest are variations. */
  readonly children: TreeNode[];
}

/** A node's subtree in plain JSON: its UCI move and its children (the root has uci ''). */
export interface StoredNode {
  u: string;
  c: StoredNode[];
}

export class GameTree {
  readonly root: TreeNode;
  private nextId = 1;

  constructor(startFen: string) {
    this.root = { id: 0, parent: null, uci: '', san: '', fen: startFen, children: [] };
  }

  /**
   * The child of `parent` reached by `uci`: the existing one if that move was already played
   * there, else a new node appended (the main continuation if `parent` had none, else a variation).
   */
  add(parent: TreeNode, uci: string, san: string, fen: string): TreeNode {
    const existing = parent.children.find((c) => c.uci === uci);
    if (existing) return existing;
    const node: TreeNode = { id: this.nextId++, parent, uci, san, fen, children: [] };
    parent.children.push(node);
    return node;
  }

  /** Takes `node` and its subtree out of the tree (not the root); a later sibling moves up in its place. */
  remove(node: TreeNode): void {
    if (!node.parent) return;
    const siblings = node.parent.children;
    const i = siblings.indexOf(node);
    if (i >= 0) siblings.splice(i, 1);
  }

  /** Makes `node`'s line the main line at every branching point above it. */
  promote(node: TreeNode): void {
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      const i = siblings.indexOf(n);
      if (i > 0) {
        siblings.splice(i, 1);
        siblings.unshift(n);
      }
    }
  }

  /** The nodes from the first move to `node` (empty for the root). */
  path(node: TreeNode): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n: TreeNode | null = node; n && n.parent; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** The main line: first children from the root. */
  mainline(): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n = this.root; n.children.length > 0; n = n.children[0]) out.push(n.children[0]);
    return out;
  }

  /** The last node of the main line (the root when no move was played). */
  mainEnd(): TreeNode {
    let n = this.root;
    while (n.children.length > 0) n = n.children[0];
    return n;
  }

  /** True when `node` is on the main line (the root is). */
  isMainline(node: TreeNode): boolean {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  /** The end of `node`'s own line: first children from it. */
  lineEnd(node: TreeNode): TreeNode {
    let n = node;
    while (n.children.length > 0) n = n.children[0];
    return n;
  }

  /** Every node, depth first in move-list order (root first). */
  *nodes(from: TreeNode = this.root): Generator<TreeNode> {
    yield from;
    for (const c of from.children) yield* this.nodes(c);
  }

  find(id: number): TreeNode | null {
    for (const n of this.nodes()) if (n.id === id) return n;
    return null;
  }

  /** The whole tree as plain JSON (moves only: replaying them rebuilds SAN and FEN). */
  toStored(node: TreeNode = this.root): StoredNode {
    return { u: node.uci, c: node.children.map((c) => this.toStored(c)) };
  }
}
