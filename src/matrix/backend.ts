/**
 * The matrix model as a move-generation backend. It keeps its own MatrixPosition in step with
 * the core Position it is asked about: the matrix stack mirrors the core's undo stack, so a
 * search node costs one affine update (the move that led to it), not a rebuild of M. The two
 * are matched by the Zobrist key at each ply; a position it has never followed is loaded once.
 */
import type { LegalMoveGenerator, MoveTree } from '../core/backend.js';
import { moveKind, movePromo, moveTo, KIND_EN_PASSANT } from '../core/move.js';
import { MAX_MOVES } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { MAX_PLY, MatrixPosition } from './matrix-position.js';
import { countLegal, generateLegal } from './matrix-movegen.js';

/** A MatrixPosition as perft walks it. */
class MatrixMoveTree implements MoveTree {
  readonly mp = new MatrixPosition();
  generate(out: Int32Array, start: number): number {
    return generateLegal(this.mp, out, start);
  }
  countLegal(): number {
    return countLegal(this.mp);
  }
  makeMove(move: number): void {
    this.mp.makeMove(move);
  }
  unmakeMove(): void {
    this.mp.unmakeMove();
  }
}

export class MatrixMoveGenerator implements LegalMoveGenerator {
  readonly name = 'matrix';
  /** The matrix position; its ply k is the followed core position's ply basePly + k. */
  readonly mp = new MatrixPosition();
  private followed: Position | null = null;
  private basePly = 0;
  /** Zobrist key halves of the core position at each matrix ply (the match test). */
  private readonly keyLo = new Int32Array(MAX_PLY + 1);
  private readonly keyHi = new Int32Array(MAX_PLY + 1);
  private readonly scratch = new Int32Array(MAX_MOVES);
  private readonly tree = new MatrixMoveTree();
  /** Full rebuilds of M from a core position so far (the rest were incremental). */
  loads = 0;

  generate(pos: Position, out: Int32Array, start: number): number {
    this.follow(pos);
    return generateLegal(this.mp, out, start);
  }

  /**
   * Perft walks a MatrixPosition of its own: make and unmake are the affine updates alone. One
   * tree per generator, reused (a walk ends before the next begins).
   */
  moveTree(pos: Position): MoveTree {
    this.tree.mp.load(pos);
    return this.tree;
  }

  /** The legal list filtered to captures (en passant included) and promotions. */
  generateNoisy(pos: Position, out: Int32Array, start: number): number {
    this.follow(pos);
    const moves = this.scratch,
      n = generateLegal(this.mp, moves, 0);
    let end = start;
    for (let i = 0; i < n; i++) {
      const m = moves[i];
      if (pos.board[moveTo(m)] !== 0 || movePromo(m) !== 0 || moveKind(m) === KIND_EN_PASSANT) out[end++] = m;
    }
    return end;
  }

  /**
   * Brings the matrix position to `pos`: back to the deepest ply both still share (same key),
   * then forward along the core's undo stack. Between two search nodes that is usually one
   * unmake and one make. Another Position, a position off the followed line, or one more than
   * MAX_PLY plies past where following began is loaded afresh.
   */
  private follow(pos: Position): void {
    const mp = this.mp;
    const ahead = pos.ply - this.basePly;
    if (pos !== this.followed || ahead < 0 || ahead > MAX_PLY) {
      this.load(pos);
      return;
    }
    let k = Math.min(mp.ply, ahead);
    while (k >= 0 && (this.keyLo[k] !== pos.hashLoAt(this.basePly + k) || this.keyHi[k] !== pos.hashHiAt(this.basePly + k))) k--;
    if (k < 0) {
      this.load(pos);
      return;
    }
    mp.ply = k;
    for (let p = this.basePly + k; p < pos.ply; p++) {
      const m = pos.moveAt(p);
      if (m === 0) mp.makeNullMove();
      else mp.makeMove(m);
      this.keyLo[mp.ply] = pos.hashLoAt(p + 1);
      this.keyHi[mp.ply] = pos.hashHiAt(p + 1);
    }
  }

  private load(pos: Position): void {
    this.mp.load(pos);
    this.loads++;
    this.followed = pos;
    this.basePly = pos.ply;
    this.keyLo[0] = pos.hashLo;
    this.keyHi[0] = pos.hashHi;
  }
}

/** The matrix backend (one MatrixPosition, reused). */
export const matrixGenerator = new MatrixMoveGenerator();
