/**
 * The game as a tree, as on lichess's analysis board: each node is a position reached by one
 * move; its first child is the main continuation and the others are variations. The page shows
 * one node at a time (web/game.ts keeps it); a move played from a node that already has children
 * starts a variation instead of overwriting the line. Pure data (no DOM, no rules beyond what
 * the caller passes in), so it is also what the page stores across a reload. Each node keeps the
 * annotations a loaded PGN gave its move (NAGs, comments, [%eval], [%clk]), so they are shown,
 * stored and exported again; a move played on the page has none.
 */
import type { PgnEval, PgnMove } from '../src/core/pgn/index.js';

/**
 * What the PGN model holds about a move besides the move itself (src/core/pgn/model.ts). At the
 * root, `commentsAfter` is the game comment (the comments before the first move) and the other
 * fields are unused.
 */
export type Annotations = Pick<PgnMove, 'nags' | 'commentsBefore' | 'commentsAfter' | 'eval' | 'clock'>;

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
  /** The move's NAGs, comments and commands, as read from a PGN (empty for a move played here). */
  annotations: Annotations;
}

/** A node's subtree in plain JSON: its UCI move, its children (the root has uci '') and its annotations, if any. */
export interface StoredNode {
  u: string;
  c: StoredNode[];
  a?: Annotations;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function isEval(v: unknown): v is PgnEval {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as { cp?: unknown; mate?: unknown; depth?: unknown };
  const score = 'cp' in e ? Number.isFinite(e.cp) && !('mate' in e) : Number.isInteger(e.mate);
  return score && (e.depth === undefined || isCount(e.depth));
}

/** True when `v` is annotations as a stored tree holds them (every field optional, each of its type). */
export function isAnnotations(v: unknown): v is Annotations {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const a = v as Record<string, unknown>;
  for (const [k, x] of Object.entries(a)) {
    const ok =
      k === 'nags'
        ? Array.isArray(x) && x.every(isCount)
        : k === 'commentsBefore' || k === 'commentsAfter'
          ? isStrings(x)
          : k === 'eval'
            ? isEval(x)
            : k === 'clock'
              ? typeof x === 'number' && Number.isFinite(x) && x >= 0
              : false;
    if (!ok) return false;
  }
  return true;
}

/** The annotations `m` has (a PGN move, or stored ones), copied; empty arrays left out. */
export function annotationsOf(m: Annotations): Annotations {
  const a: Annotations = {};
  if (m.nags && m.nags.length > 0) a.nags = [...m.nags];
  if (m.commentsBefore && m.commentsBefore.length > 0) a.commentsBefore = [...m.commentsBefore];
  if (m.commentsAfter && m.commentsAfter.length > 0) a.commentsAfter = [...m.commentsAfter];
  if (m.eval !== undefined) a.eval = { ...m.eval };
  if (m.clock !== undefined) a.clock = m.clock;
  return a;
}

const isEmpty = (a: Annotations): boolean => Object.keys(a).length === 0;

export class GameTree {
  readonly root: TreeNode;
  private nextId = 1;

  constructor(startFen: string) {
    this.root = { id: 0, parent: null, uci: '', san: '', fen: startFen, children: [], annotations: {} };
  }

  /**
   * The child of `parent` reached by `uci`: the existing one if that move was already played
   * there, else a new node appended (the main continuation if `parent` had none, else a variation).
   */
  add(parent: TreeNode, uci: string, san: string, fen: string): TreeNode {
    const existing = parent.children.find((c) => c.uci === uci);
    if (existing) return existing;
    const node: TreeNode = { id: this.nextId++, parent, uci, san, fen, children: [], annotations: {} };
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

  /** The whole tree as plain JSON (moves and annotations: replaying the moves rebuilds SAN and FEN). */
  toStored(node: TreeNode = this.root): StoredNode {
    const out: StoredNode = { u: node.uci, c: node.children.map((c) => this.toStored(c)) };
    if (!isEmpty(node.annotations)) out.a = annotationsOf(node.annotations);
    return out;
  }
}
