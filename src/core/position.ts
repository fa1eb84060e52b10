/**
 * The position: mailbox plus bitboards (int32 halves), side, castling, en passant, clocks and an
 * incrementally updated Zobrist key, with make/unmake that restore the exact previous state.
 * The FEN text itself is fen.ts's: a Position is set up from its parsed record (setup) and
 * printed through it (toFen).
 */
import {
  BISHOP,
  BLACK,
  BLACK_OO,
  BLACK_OOO,
  KING,
  KNIGHT,
  NO_SQUARE,
  PAWN,
  QUEEN,
  ROOK,
  WHITE,
  WHITE_OO,
  WHITE_OOO,
  makePiece,
} from './types.js';
import { KIND_CASTLE, KIND_EN_PASSANT, castleKingTo, castleRight, castleRookTo, moveFrom, moveKind, movePromo, moveTo } from './move.js';
import { betweenHi, betweenLo } from './attacks.js';
import {
  CORNER_ROOKS,
  castlingKeyHi,
  castlingKeyLo,
  castlingKeysFor,
  epKeyHi,
  epKeyLo,
  pieceKeyHi,
  pieceKeyLo,
  sideKeyHi,
  sideKeyLo,
} from './zobrist.js';
import { kingAttacksHi, kingAttacksLo, knightAttacksHi, knightAttacksLo, pawnAttacksHi, pawnAttacksLo } from './attacks.js';
import { bishopIndex, bishopTable, rookIndex, rookTable } from './magic.js';
import { FenError, START_FEN, castlingField, makeFen, parseFen, type FenSetup } from './fen.js';

const INITIAL_HISTORY = 256;

/** setup's scratch position. */
let setupScratch: Position | undefined;

export class Position {
  readonly board = new Uint8Array(64);
  readonly pieceLo = new Int32Array(16);
  readonly pieceHi = new Int32Array(16);
  readonly colorLo = new Int32Array(2);
  readonly colorHi = new Int32Array(2);
  readonly kingSq = new Int32Array(2);
  side = WHITE;
  castling = 0;
  /** The rook square of each castling right (by bit number, see castleRight); fixed for a game, valid while the right is held. */
  readonly castleRook = Uint8Array.from(CORNER_ROOKS);
  /** Rights kept when a piece moves from or to a square: the king's square clears its side's, a castling rook's square its own. */
  readonly castleKeep = new Uint8Array(64).fill(15);
  /** Squares that must be empty for each castle: both paths, king and castling rook excepted (bitboard halves). */
  readonly castlePathLo = new Int32Array(4);
  readonly castlePathHi = new Int32Array(4);
  /** Zobrist keys of the castling rights with this game's rooks (zobrist.ts), by rights. */
  readonly castleKeyLo = castlingKeyLo.slice();
  readonly castleKeyHi = castlingKeyHi.slice();
  ep = NO_SQUARE;
  halfmove = 0;
  fullmove = 1;
  hashLo = 0;
  hashHi = 0;
  /** Number of moves made since the position was set up (the undo stack depth). */
  ply = 0;

  // Undo stack: one slot per made move. Grown by doubling; never shrunk.
  private hMove = new Int32Array(INITIAL_HISTORY);
  private hCaptured = new Uint8Array(INITIAL_HISTORY);
  private hCastling = new Uint8Array(INITIAL_HISTORY);
  private hEp = new Uint8Array(INITIAL_HISTORY);
  private hHalfmove = new Int32Array(INITIAL_HISTORY);
  /** Keys of every position since setup, index ply (so hashLo/Hi at ply p live at [p]). */
  private hHashLo = new Int32Array(INITIAL_HISTORY + 1);
  private hHashHi = new Int32Array(INITIAL_HISTORY + 1);
  /** Whether the side to move is in check at ply p: 1, 0, or −1 until inCheck() is first asked. */
  private hCheck = new Int8Array(INITIAL_HISTORY + 1).fill(-1);

  static fromFen(fen: string): Position {
    const pos = new Position();
    pos.setFen(fen);
    return pos;
  }

  /** A Position from a FEN's record (parseFen); throws FenError when the side not to move is in check. */
  static fromSetup(s: Readonly<FenSetup>): Position {
    const pos = new Position();
    pos.setup(s);
    return pos;
  }

  static startpos(): Position {
    return Position.fromFen(START_FEN);
  }

  /** An independent copy, with the move history (so undo and repetitions work on it too). */
  clone(): Position {
    const p = new Position();
    p.board.set(this.board);
    p.pieceLo.set(this.pieceLo);
    p.pieceHi.set(this.pieceHi);
    p.colorLo.set(this.colorLo);
    p.colorHi.set(this.colorHi);
    p.kingSq.set(this.kingSq);
    p.side = this.side;
    p.castling = this.castling;
    p.copyCastleGeometry(this);
    p.ep = this.ep;
    p.halfmove = this.halfmove;
    p.fullmove = this.fullmove;
    p.hashLo = this.hashLo;
    p.hashHi = this.hashHi;
    p.ply = this.ply;
    p.hMove = this.hMove.slice();
    p.hCaptured = this.hCaptured.slice();
    p.hCastling = this.hCastling.slice();
    p.hEp = this.hEp.slice();
    p.hHalfmove = this.hHalfmove.slice();
    p.hHashLo = this.hHashLo.slice();
    p.hHashHi = this.hHashHi.slice();
    p.hCheck = this.hCheck.slice();
    return p;
  }

  private copyCastleGeometry(from: Position): void {
    this.castleRook.set(from.castleRook);
    this.castleKeep.set(from.castleKeep);
    this.castlePathLo.set(from.castlePathLo);
    this.castlePathHi.set(from.castlePathHi);
    this.castleKeyLo.set(from.castleKeyLo);
    this.castleKeyHi.set(from.castleKeyHi);
  }

  /** The castling rook's square of a castle move in this position (before it is made). */
  castleRookFrom(m: number): number {
    return this.castleRook[castleRight(m)];
  }

  /** Records castling right `right` with its rook on `rook` (king on kingSq): rook square, keep masks, path. */
  private addCastle(right: number, rook: number): void {
    const king = this.kingSq[right >> 1],
      kTo = castleKingTo(right),
      rTo = (kTo & 7) === 6 ? kTo - 1 : kTo + 1;
    this.castling |= 1 << right;
    this.castleRook[right] = rook;
    castlingKeysFor(this.castleKeyLo, this.castleKeyHi, this.castleRook);
    this.castleKeep[king] &= right >= 2 ? ~(BLACK_OO | BLACK_OOO) : ~(WHITE_OO | WHITE_OOO);
    this.castleKeep[rook] &= ~(1 << right);
    let lo = betweenLo[(king << 6) | kTo] | betweenLo[(rook << 6) | rTo],
      hi = betweenHi[(king << 6) | kTo] | betweenHi[(rook << 6) | rTo];
    for (const sq of [kTo, rTo]) {
      if (sq < 32) lo |= 1 << sq;
      else hi |= 1 << (sq - 32);
    }
    for (const sq of [king, rook]) {
      if (sq < 32) lo &= ~(1 << sq);
      else hi &= ~(1 << (sq - 32));
    }
    this.castlePathLo[right] = lo;
    this.castlePathHi[right] = hi;
  }

  // ---- piece placement primitives (board, bitboards and hash together) ----

  private put(piece: number, sq: number): void {
    this.board[sq] = piece;
    const c = piece >> 3;
    if (sq < 32) {
      const b = 1 << sq;
      this.pieceLo[piece] |= b;
      this.colorLo[c] |= b;
    } else {
      const b = 1 << (sq - 32);
      this.pieceHi[piece] |= b;
      this.colorHi[c] |= b;
    }
    this.hashLo ^= pieceKeyLo[(piece << 6) | sq];
    this.hashHi ^= pieceKeyHi[(piece << 6) | sq];
  }

  private remove(sq: number): void {
    const piece = this.board[sq];
    this.board[sq] = 0;
    const c = piece >> 3;
    if (sq < 32) {
      const b = ~(1 << sq);
      this.pieceLo[piece] &= b;
      this.colorLo[c] &= b;
    } else {
      const b = ~(1 << (sq - 32));
      this.pieceHi[piece] &= b;
      this.colorHi[c] &= b;
    }
    this.hashLo ^= pieceKeyLo[(piece << 6) | sq];
    this.hashHi ^= pieceKeyHi[(piece << 6) | sq];
  }

  /**
   * True when the side to move can legally capture en passant. Only then does the en-passant
   * square change the position in the FIDE sense (9.2.3), so only then is it hashed.
   */
  private epCapturable(): boolean {
    const ep = this.ep;
    if (ep === NO_SQUARE) return false;
    const us = this.side,
      pawns = makePiece(us, PAWN);
    const i = ((us ^ 1) << 6) | ep; // squares from which a pawn of `us` attacks ep
    let lo = pawnAttacksLo[i] & this.pieceLo[pawns],
      hi = pawnAttacksHi[i] & this.pieceHi[pawns];
    while ((lo | hi) !== 0) {
      let from: number;
      if (lo !== 0) {
        from = 31 - Math.clz32(lo & -lo);
        lo &= lo - 1;
      } else {
        from = 63 - Math.clz32(hi & -hi);
        hi &= hi - 1;
      }
      if (this.epCaptureLegal(from, ep, us)) return true;
    }
    return false;
  }

  /** Whether the en-passant capture from `from` leaves the mover's king safe. */
  private epCaptureLegal(from: number, ep: number, us: number): boolean {
    const capSq = ep ^ 8,
      them = us ^ 1,
      e = them << 3,
      ksq = this.kingSq[us];
    const capLo = capSq < 32 ? 1 << capSq : 0,
      capHi = capSq < 32 ? 0 : 1 << (capSq - 32);
    let oLo = (this.colorLo[0] | this.colorLo[1]) & ~capLo,
      oHi = (this.colorHi[0] | this.colorHi[1]) & ~capHi;
    if (from < 32) oLo &= ~(1 << from);
    else oHi &= ~(1 << (from - 32));
    if (ep < 32) oLo |= 1 << ep;
    else oHi |= 1 << (ep - 32);
    const pl = this.pieceLo,
      ph = this.pieceHi,
      pi = (us << 6) | ksq;
    if (((pawnAttacksLo[pi] & pl[e | PAWN] & ~capLo) | (pawnAttacksHi[pi] & ph[e | PAWN] & ~capHi)) !== 0) return false;
    if (((knightAttacksLo[ksq] & pl[e | KNIGHT]) | (knightAttacksHi[ksq] & ph[e | KNIGHT])) !== 0) return false;
    let j = bishopIndex(ksq, oLo, oHi);
    if (((bishopTable[j] & (pl[e | BISHOP] | pl[e | QUEEN])) | (bishopTable[j + 1] & (ph[e | BISHOP] | ph[e | QUEEN]))) !== 0) return false;
    j = rookIndex(ksq, oLo, oHi);
    return ((rookTable[j] & (pl[e | ROOK] | pl[e | QUEEN])) | (rookTable[j + 1] & (ph[e | ROOK] | ph[e | QUEEN]))) === 0;
  }

  private hashEp(): void {
    if (this.epCapturable()) {
      this.hashLo ^= epKeyLo[this.ep & 7];
      this.hashHi ^= epKeyHi[this.ep & 7];
    }
  }

  private grow(): void {
    const n = this.hMove.length * 2;
    const g32 = (a: Int32Array, extra = 0) => {
      const b = new Int32Array(n + extra);
      b.set(a);
      return b;
    };
    const g8 = (a: Uint8Array) => {
      const b = new Uint8Array(n);
      b.set(a);
      return b;
    };
    this.hMove = g32(this.hMove);
    this.hHalfmove = g32(this.hHalfmove);
    this.hCaptured = g8(this.hCaptured);
    this.hCastling = g8(this.hCastling);
    this.hEp = g8(this.hEp);
    this.hHashLo = g32(this.hHashLo, 1);
    this.hHashHi = g32(this.hHashHi, 1);
    const check = new Int8Array(n + 1);
    check.set(this.hCheck);
    this.hCheck = check;
  }

  /** Plays a legal move (as produced by the move generator). */
  makeMove(m: number): void {
    const ply = this.ply;
    if (ply + 1 >= this.hMove.length) this.grow();
    const from = moveFrom(m),
      to = moveTo(m),
      promo = movePromo(m),
      kind = moveKind(m);
    const us = this.side;
    const piece = this.board[from];
    const capSq = kind === KIND_EN_PASSANT ? to ^ 8 : to;
    const captured = this.board[capSq];

    this.hMove[ply] = m;
    this.hCaptured[ply] = captured;
    this.hCastling[ply] = this.castling;
    this.hEp[ply] = this.ep;
    this.hHalfmove[ply] = this.halfmove;

    this.hashEp();
    this.halfmove++;
    if (kind === KIND_CASTLE) {
      // Both pieces leave before either lands: in Chess960 the king may land on the rook's square or stay put.
      const rFrom = this.castleRook[castleRight(m)],
        rook = this.board[rFrom];
      this.hCaptured[ply] = 0;
      this.remove(from);
      this.remove(rFrom);
      this.put(piece, to);
      this.put(rook, castleRookTo(m));
      this.kingSq[us] = to;
    } else {
      if (captured !== 0) {
        this.remove(capSq);
        this.halfmove = 0;
      }
      this.remove(from);
      this.put(promo !== 0 ? makePiece(us, promo) : piece, to);
      if ((piece & 7) === PAWN) this.halfmove = 0;
      else if ((piece & 7) === KING) this.kingSq[us] = to;
    }
    const keep = this.castleKeep,
      rights = this.castling & keep[from] & keep[to];
    if (rights !== this.castling) {
      this.hashLo ^= this.castleKeyLo[this.castling ^ rights];
      this.hashHi ^= this.castleKeyHi[this.castling ^ rights];
      this.castling = rights;
    }
    this.ep = (piece & 7) === PAWN && (to ^ from) === 16 ? (from + to) >> 1 : NO_SQUARE;
    this.side = us ^ 1;
    if (us === BLACK) this.fullmove++;
    this.hashLo ^= sideKeyLo;
    this.hashHi ^= sideKeyHi;
    this.hashEp();
    this.ply = ply + 1;
    this.hCheck[ply + 1] = -1;
    this.hHashLo[ply + 1] = this.hashLo;
    this.hHashHi[ply + 1] = this.hashHi;
  }

  /** Takes back the last move made with makeMove (or makeNullMove with unmakeNullMove). */
  unmakeMove(): void {
    const ply = --this.ply;
    const m = this.hMove[ply];
    const from = moveFrom(m),
      to = moveTo(m),
      promo = movePromo(m),
      kind = moveKind(m);
    const them = this.side,
      us = them ^ 1;
    this.side = us;
    if (us === BLACK) this.fullmove--;
    const moved = this.board[to];
    if (kind === KIND_CASTLE) {
      const rTo = castleRookTo(m),
        rook = this.board[rTo];
      this.remove(to);
      this.remove(rTo);
      this.put(moved, from);
      this.put(rook, this.castleRook[castleRight(m)]);
      this.kingSq[us] = from;
    } else {
      this.remove(to);
      this.put(promo !== 0 ? makePiece(us, PAWN) : moved, from);
      if ((moved & 7) === KING) this.kingSq[us] = from;
      const captured = this.hCaptured[ply];
      if (captured !== 0) this.put(captured, kind === KIND_EN_PASSANT ? to ^ 8 : to);
    }
    this.castling = this.hCastling[ply];
    this.ep = this.hEp[ply];
    this.halfmove = this.hHalfmove[ply];
    this.hashLo = this.hHashLo[ply];
    this.hashHi = this.hHashHi[ply];
  }

  /** Passes the turn (for null-move pruning). Must not be used while in check. */
  makeNullMove(): void {
    const ply = this.ply;
    if (ply + 1 >= this.hMove.length) this.grow();
    this.hMove[ply] = 0;
    this.hCaptured[ply] = 0;
    this.hCastling[ply] = this.castling;
    this.hEp[ply] = this.ep;
    this.hHalfmove[ply] = this.halfmove;
    this.hashEp();
    this.ep = NO_SQUARE;
    this.halfmove++;
    this.side ^= 1;
    this.hashLo ^= sideKeyLo;
    this.hashHi ^= sideKeyHi;
    this.ply = ply + 1;
    this.hCheck[ply + 1] = -1;
    this.hHashLo[ply + 1] = this.hashLo;
    this.hHashHi[ply + 1] = this.hashHi;
  }

  unmakeNullMove(): void {
    const ply = --this.ply;
    this.side ^= 1;
    this.ep = this.hEp[ply];
    this.halfmove = this.hHalfmove[ply];
    this.hashLo = this.hHashLo[ply];
    this.hashHi = this.hHashHi[ply];
  }

  /** The move played at undo-stack index i (0 = first move since setup; 0 for a null move). */
  moveAt(i: number): number {
    return this.hMove[i];
  }
  /** The Zobrist key halves of the position at ply p (0 = setup, this.ply = now). */
  hashLoAt(p: number): number {
    return this.hHashLo[p];
  }
  hashHiAt(p: number): number {
    return this.hHashHi[p];
  }
  /** The piece captured by the last move, 0 if none. */
  lastCaptured(): number {
    return this.ply > 0 ? this.hCaptured[this.ply - 1] : 0;
  }

  /**
   * How many earlier positions since the last irreversible move have the current key
   * (positions with the same side to move only, so the step is two plies).
   */
  repetitions(): number {
    let count = 0;
    const lo = this.hashLo,
      hi = this.hashHi;
    const stop = Math.max(0, this.ply - this.halfmove);
    for (let p = this.ply - 2; p >= stop; p -= 2) {
      if (this.hHashLo[p] === lo && this.hHashHi[p] === hi) count++;
    }
    return count;
  }

  // ---- attacks ----

  /** True when `sq` is attacked by a piece of `by`, with the given occupancy. */
  attackedWithOcc(sq: number, by: number, occLo: number, occHi: number): boolean {
    const pl = this.pieceLo,
      ph = this.pieceHi,
      o = by << 3;
    const pi = ((by ^ 1) << 6) | sq;
    if (((pawnAttacksLo[pi] & pl[o | PAWN]) | (pawnAttacksHi[pi] & ph[o | PAWN])) !== 0) return true;
    if (((knightAttacksLo[sq] & pl[o | KNIGHT]) | (knightAttacksHi[sq] & ph[o | KNIGHT])) !== 0) return true;
    if (((kingAttacksLo[sq] & pl[o | KING]) | (kingAttacksHi[sq] & ph[o | KING])) !== 0) return true;
    let i = bishopIndex(sq, occLo, occHi);
    if (((bishopTable[i] & (pl[o | BISHOP] | pl[o | QUEEN])) | (bishopTable[i + 1] & (ph[o | BISHOP] | ph[o | QUEEN]))) !== 0) return true;
    i = rookIndex(sq, occLo, occHi);
    return ((rookTable[i] & (pl[o | ROOK] | pl[o | QUEEN])) | (rookTable[i + 1] & (ph[o | ROOK] | ph[o | QUEEN]))) !== 0;
  }

  isAttacked(sq: number, by: number): boolean {
    return this.attackedWithOcc(sq, by, this.colorLo[0] | this.colorLo[1], this.colorHi[0] | this.colorHi[1]);
  }

  /** Whether the side to move is in check; asked several times a node, so kept per ply. */
  inCheck(): boolean {
    const known = this.hCheck[this.ply];
    if (known >= 0) return known === 1;
    const check = this.isAttacked(this.kingSq[this.side], this.side ^ 1);
    this.hCheck[this.ply] = check ? 1 : 0;
    return check;
  }

  /** Full recomputation of the Zobrist key (the incremental one must always equal it). */
  computeHash(): [number, number] {
    let lo = 0,
      hi = 0;
    for (let sq = 0; sq < 64; sq++) {
      const p = this.board[sq];
      if (p !== 0) {
        lo ^= pieceKeyLo[(p << 6) | sq];
        hi ^= pieceKeyHi[(p << 6) | sq];
      }
    }
    lo ^= this.castleKeyLo[this.castling];
    hi ^= this.castleKeyHi[this.castling];
    if (this.side === BLACK) {
      lo ^= sideKeyLo;
      hi ^= sideKeyHi;
    }
    if (this.epCapturable()) {
      lo ^= epKeyLo[this.ep & 7];
      hi ^= epKeyHi[this.ep & 7];
    }
    return [lo, hi];
  }

  // ---- FEN ----

  private clear(): void {
    this.board.fill(0);
    this.pieceLo.fill(0);
    this.pieceHi.fill(0);
    this.colorLo.fill(0);
    this.colorHi.fill(0);
    this.kingSq.fill(NO_SQUARE);
    this.side = WHITE;
    this.castling = 0;
    this.castleRook.set(CORNER_ROOKS);
    this.castleKeyLo.set(castlingKeyLo);
    this.castleKeyHi.set(castlingKeyHi);
    this.castleKeep.fill(15);
    this.castlePathLo.fill(0);
    this.castlePathHi.fill(0);
    this.ep = NO_SQUARE;
    this.halfmove = 0;
    this.fullmove = 1;
    this.hashLo = 0;
    this.hashHi = 0;
    this.ply = 0;
    this.hCheck[0] = -1;
  }

  /** Replaces the whole state by a FEN; throws FenError naming the field, leaving the position unchanged. */
  setFen(fen: string): void {
    this.setup(parseFen(fen));
  }

  /**
   * Replaces the whole state by a FEN's record (parseFen); throws FenError when the side not to
   * move is in check, the one check that needs the position built, and then changes nothing.
   */
  setup(s: Readonly<FenSetup>): void {
    // Built in a scratch position first, so an error changes nothing here; one scratch serves
    // every call (setup is synchronous and never nested), since building a Position allocates.
    const scratch = (setupScratch ??= new Position());
    scratch.place(s);
    this.board.set(scratch.board);
    this.pieceLo.set(scratch.pieceLo);
    this.pieceHi.set(scratch.pieceHi);
    this.colorLo.set(scratch.colorLo);
    this.colorHi.set(scratch.colorHi);
    this.kingSq.set(scratch.kingSq);
    this.side = scratch.side;
    this.castling = scratch.castling;
    this.copyCastleGeometry(scratch);
    this.ep = scratch.ep;
    this.halfmove = scratch.halfmove;
    this.fullmove = scratch.fullmove;
    this.hashLo = scratch.hashLo;
    this.hashHi = scratch.hashHi;
    this.ply = 0;
    this.hCheck[0] = -1;
    this.hHashLo[0] = this.hashLo;
    this.hHashHi[0] = this.hashHi;
  }

  private place(s: Readonly<FenSetup>): void {
    this.clear();
    for (let sq = 0; sq < 64; sq++) {
      const piece = s.board[sq];
      if (piece === 0) continue;
      if ((piece & 7) === KING) this.kingSq[piece >> 3] = sq;
      this.put(piece, sq);
    }
    this.side = s.side;
    for (let right = 0; right < 4; right++) if (s.castling & (1 << right)) this.addCastle(right, s.castleRook[right]);
    this.ep = s.ep;
    this.halfmove = s.halfmove;
    this.fullmove = s.fullmove;
    if (this.isAttacked(this.kingSq[this.side ^ 1], this.side)) {
      throw new FenError('position', `the side not to move (${this.side === WHITE ? 'black' : 'white'}) is in check`);
    }
    const [lo, hi] = this.computeHash();
    this.hashLo = lo;
    this.hashHi = hi;
  }

  /**
   * The castling field as X-FEN (KQkq, a file letter only when the castling rook is not the
   * outermost rook on its side; classical positions print exactly KQkq) or Shredder-FEN (files).
   */
  castlingFen(shredder = false): string {
    return castlingField(this.castling, this.castleRook, (sq) => this.board[sq], shredder);
  }

  /** FEN with X-FEN castling, or Shredder-FEN castling (rook files) when `shredder`. */
  toFen(shredder = false): string {
    return makeFen(this, shredder);
  }
}
