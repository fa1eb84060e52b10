/**
 * The matrix position: the board matrix M (Int8Array(64), row-major, row 0 = rank 8,
 * M[r, c] = ±type, + white) plus the non-linear state chess needs besides the board (side to
 * move, castling rights, en-passant square, clocks).
 *
 * Alongside M it keeps the one-hot piece matrices P_code = [M == code] and the colour and
 * occupancy matrices, packed (bitmat.ts). They are functions of M, maintained by the Boolean
 * form of the same affine update, and they are what the move-target products consume.
 *
 * Make writes ply p + 1 from ply p (M' = (M ⊙ Z) + v · E(r2, c2) into the next slot of a stack
 * of matrices), so unmake is just "go back one slot": nothing is ever computed backwards.
 *
 * Core squares (a1 = 0) and matrix cells relate by cell = r * 8 + c = sq ^ 56, and the packed
 * bit of cell (r, c) is sq itself.
 */
import { MatrixError } from './errors.js';
import { assertMatrix } from './mat8.js';
import { Position as CorePosition, type Position } from '../core/position.js';
import { castlingField, fenPlacement } from '../core/fen.js';
import { BLACK_OO, BLACK_OOO, KING, NO_SQUARE, PAWN, ROOK, WHITE_OO, WHITE_OOO, squareName } from '../core/types.js';
import { KIND_CASTLE, KIND_EN_PASSANT, castleRight, castleRookTo, moveFrom, moveKind, movePromo, moveTo } from '../core/move.js';

export const MAX_PLY = 128;
/** Packed words per ply: 16 piece codes × 2, white, black, occupancy. */
export const STRIDE = 40;
export const COLOR_OFF = 32;
export const OCC_OFF = 36;

/** Piece code (type | colour << 3) of a signed matrix entry. */
export const codeOfEntry = (v: number): number => (v > 0 ? v : v < 0 ? -v | 8 : 0);
/** Signed matrix entry of a piece code. */
export const entryOfCode = (code: number): number => (code === 0 ? 0 : code & 8 ? -(code & 7) : code & 7);

/**
 * The affine update out = (M ⊙ Z) + v · E for any 0/1 matrices Z and E given packed. `out` may
 * be M itself (each entry is read before it is written). On a row where Z is all ones and E all
 * zeros the update is the identity, so such rows are copied rather than recomputed.
 */
export function affineUpdate(
  out: Int8Array,
  ob: number,
  m: Int8Array,
  mb: number,
  zLo: number,
  zHi: number,
  v: number,
  eLo: number,
  eHi: number,
): void {
  if (out !== m || ob !== mb) out.copyWithin(ob, mb, mb + 64);
  // Row r of a packed matrix is the byte of rank 7 − r.
  for (let r = 0; r < 8; r++) {
    const shift = ((7 - r) & 3) << 3,
      upper = r < 4;
    const zRow = ((upper ? zHi : zLo) >>> shift) & 255,
      eRow = ((upper ? eHi : eLo) >>> shift) & 255;
    if (zRow === 255 && eRow === 0) continue;
    const o = ob + 8 * r,
      mo = mb + 8 * r;
    for (let c = 0; c < 8; c++) out[o + c] = m[mo + c] * ((zRow >>> c) & 1) + v * ((eRow >>> c) & 1);
  }
}

const bitLo = (sq: number): number => (sq < 32 ? 1 << sq : 0);
const bitHi = (sq: number): number => (sq < 32 ? 0 : 1 << (sq - 32));

export class MatrixPosition {
  /** M at ply p occupies mats[64 p .. 64 p + 63]. */
  readonly mats = new Int8Array(64 * (MAX_PLY + 1));
  /** The same stack seen as int32 words, to copy a matrix in 16 moves. */
  private readonly mats32 = new Int32Array(this.mats.buffer);
  /** Packed matrices at ply p occupy bits[STRIDE p ..]. */
  readonly bits = new Int32Array(STRIDE * (MAX_PLY + 1));
  readonly sideAt = new Uint8Array(MAX_PLY + 1);
  readonly castlingAt = new Uint8Array(MAX_PLY + 1);
  /** The castling rooks' squares, keep masks and path masks, as the core Position has them (fixed for a game; Chess960 included). */
  readonly castleRook = Uint8Array.of(7, 0, 63, 56);
  readonly castleKeep = new Uint8Array(64).fill(15);
  readonly castlePathLo = new Int32Array(4);
  readonly castlePathHi = new Int32Array(4);
  readonly epAt = new Uint8Array(MAX_PLY + 1);
  readonly halfmoveAt = new Int32Array(MAX_PLY + 1);
  readonly fullmoveAt = new Int32Array(MAX_PLY + 1);
  ply = 0;

  get side(): number {
    return this.sideAt[this.ply];
  }
  get castling(): number {
    return this.castlingAt[this.ply];
  }
  get ep(): number {
    return this.epAt[this.ply];
  }

  /** A copy of the current board matrix M. */
  matrix(): Int8Array {
    return this.mats.slice(64 * this.ply, 64 * this.ply + 64);
  }

  /** Entry M[r, c] of the current board (the hot-path read of e_rᵀ M e_c). */
  at(r: number, c: number): number {
    return this.mats[64 * this.ply + r * 8 + c];
  }

  /** From a FEN, parsed and validated by the core (throws the core's FenError). */
  static fromFen(fen: string): MatrixPosition {
    return MatrixPosition.fromPosition(CorePosition.fromFen(fen));
  }

  static fromPosition(pos: Position): MatrixPosition {
    const mp = new MatrixPosition();
    mp.load(pos);
    return mp;
  }

  /** Converts a core Position (once); the position itself is not touched. */
  load(pos: Position): void {
    this.ply = 0;
    const m = this.mats;
    for (let sq = 0; sq < 64; sq++) m[sq ^ 56] = entryOfCode(pos.board[sq]);
    this.sideAt[0] = pos.side;
    this.castlingAt[0] = pos.castling;
    this.castleRook.set(pos.castleRook);
    this.castleKeep.set(pos.castleKeep);
    this.castlePathLo.set(pos.castlePathLo);
    this.castlePathHi.set(pos.castlePathHi);
    this.epAt[0] = pos.ep;
    this.halfmoveAt[0] = pos.halfmove;
    this.fullmoveAt[0] = pos.fullmove;
    this.derivePacked();
  }

  /**
   * Sets the position from a board matrix and the non-linear state. The matrix is validated
   * (shape, entries in −6..6, exactly one king per colour, no pawn on rows 0 or 7, castling
   * rights backed by king and rook on their squares); on failure nothing is changed.
   */
  setMatrix(matrix: ArrayLike<number>, side = 0, castling = 0, ep = NO_SQUARE, halfmove = 0, fullmove = 1): void {
    assertMatrix(matrix, 'board matrix', -6, 6);
    let wk = 0,
      bk = 0;
    for (let i = 0; i < 64; i++) {
      const v = matrix[i];
      if (v === KING) wk++;
      else if (v === -KING) bk++;
      else if ((v === PAWN || v === -PAWN) && (i < 8 || i >= 56)) {
        throw new MatrixError('entry', `pawn on row ${i >> 3} (rank ${8 - (i >> 3)}) is not a legal placement`);
      }
    }
    if (wk !== 1 || bk !== 1) throw new MatrixError('entry', `expected one king per colour, found ${wk} white and ${bk} black`);
    if (side !== 0 && side !== 1) throw new MatrixError('state', `side must be 0 (white) or 1 (black), got ${side}`);
    if (!Number.isInteger(castling) || castling < 0 || castling > 15)
      throw new MatrixError('state', `castling rights ${castling} not in 0..15`);
    const need: Array<[number, number, number, number]> = [
      [WHITE_OO, 4, 7, 1],
      [WHITE_OOO, 4, 0, 1],
      [BLACK_OO, 60, 63, -1],
      [BLACK_OOO, 60, 56, -1],
    ];
    for (const [bit, k, r, s] of need) {
      if (castling & bit && (matrix[k ^ 56] !== s * KING || matrix[r ^ 56] !== s * ROOK)) {
        throw new MatrixError('state', `castling right ${bit} needs the king on ${squareName(k)} and a rook on ${squareName(r)}`);
      }
    }
    if (ep !== NO_SQUARE) {
      const rank = side === 0 ? 5 : 2;
      if (!Number.isInteger(ep) || ep < 0 || ep > 63 || ep >> 3 !== rank)
        throw new MatrixError('state', `en-passant square ${ep} impossible for this side`);
      const pawnSq = side === 0 ? ep - 8 : ep + 8;
      if (matrix[pawnSq ^ 56] !== (side === 0 ? -PAWN : PAWN))
        throw new MatrixError('state', `en-passant square ${squareName(ep)} without the pawn that just moved`);
    }
    this.ply = 0;
    for (let i = 0; i < 64; i++) this.mats[i] = matrix[i];
    this.sideAt[0] = side;
    this.castlingAt[0] = castling;
    // A matrix carries classical castling only: the standard start's rook squares, keep masks and paths.
    const classical = CorePosition.startpos();
    this.castleRook.set(classical.castleRook);
    this.castleKeep.set(classical.castleKeep);
    this.castlePathLo.set(classical.castlePathLo);
    this.castlePathHi.set(classical.castlePathHi);
    this.epAt[0] = ep;
    this.halfmoveAt[0] = halfmove;
    this.fullmoveAt[0] = fullmove;
    this.derivePacked();
  }

  /** P_code = [M == code] for every code, colours and occupancy, from M at the current ply. */
  private derivePacked(): void {
    const b = STRIDE * this.ply,
      m = this.mats,
      mb = 64 * this.ply,
      bits = this.bits;
    bits.fill(0, b, b + STRIDE);
    for (let i = 0; i < 64; i++) {
      const v = m[mb + i];
      if (v === 0) continue;
      const sq = i ^ 56,
        code = codeOfEntry(v),
        lo = bitLo(sq),
        hi = bitHi(sq);
      bits[b + 2 * code] |= lo;
      bits[b + 2 * code + 1] |= hi;
      const c = COLOR_OFF + 2 * (code >> 3);
      bits[b + c] |= lo;
      bits[b + c + 1] |= hi;
      bits[b + OCC_OFF] |= lo;
      bits[b + OCC_OFF + 1] |= hi;
    }
  }

  /**
   * Plays a move given as a core move int (assumed legal, as from the generator; a move from an
   * empty square or of the wrong colour is refused with a MatrixError before anything changes).
   */
  makeMove(move: number): void {
    const p = this.ply;
    if (p >= MAX_PLY) throw new MatrixError('depth', `more than ${MAX_PLY} moves deep`);
    const mats = this.mats,
      bits = this.bits;
    const mb = 64 * p,
      nb = mb + 64,
      b = STRIDE * p,
      nbb = b + STRIDE;
    const from = moveFrom(move),
      to = moveTo(move),
      promo = movePromo(move),
      kind = moveKind(move);
    const us = this.sideAt[p];
    const v = mats[mb + (from ^ 56)];
    if (v === 0 || (v < 0 ? 1 : 0) !== us) {
      throw new MatrixError('empty-square', `move from ${squareName(from)}: ${v === 0 ? 'the square is empty' : 'not the side to move'}`);
    }
    const castle = kind === KIND_CASTLE;
    const captured = castle ? 0 : mats[mb + (to ^ 56)];
    // A castle's first update lifts the castling rook too (Chess960: the king may land on its square).
    const rf = castle ? this.castleRook[castleRight(move)] : to;
    const code = codeOfEntry(v),
      type = code & 7;
    const newV = promo !== 0 ? (us === 0 ? promo : -promo) : v;

    // M' = (M ⊙ Z) + v · E(r2, c2),  Z = J − E(r, c) − E(r2, c2).
    const fLo = bitLo(from),
      fHi = bitHi(from),
      tLo = bitLo(to),
      tHi = bitHi(to);
    const m32 = this.mats32,
      w = 16 * p;
    for (let i = 0; i < 16; i++) m32[w + 16 + i] = m32[w + i]; // M into the next slot, then update it in place
    affineUpdate(mats, nb, mats, nb, ~(fLo | tLo | bitLo(rf)), ~(fHi | tHi | bitHi(rf)), newV, tLo, tHi);

    // The same update on the packed matrices (Boolean: P ⊙ Z, then OR in E for the new code).
    for (let i = 0; i < STRIDE; i++) bits[nbb + i] = bits[b + i];
    const newCode = codeOfEntry(newV),
      uc = nbb + COLOR_OFF + 2 * us,
      tc = nbb + COLOR_OFF + 2 * (us ^ 1);
    bits[nbb + 2 * code] &= ~fLo;
    bits[nbb + 2 * code + 1] &= ~fHi;
    if (captured !== 0) {
      const cc = codeOfEntry(captured);
      bits[nbb + 2 * cc] &= ~tLo;
      bits[nbb + 2 * cc + 1] &= ~tHi;
      bits[tc] &= ~tLo;
      bits[tc + 1] &= ~tHi;
    }
    bits[nbb + 2 * newCode] |= tLo;
    bits[nbb + 2 * newCode + 1] |= tHi;
    bits[uc] = (bits[uc] & ~fLo) | tLo;
    bits[uc + 1] = (bits[uc + 1] & ~fHi) | tHi;
    bits[nbb + OCC_OFF] = (bits[nbb + OCC_OFF] & ~fLo) | tLo;
    bits[nbb + OCC_OFF + 1] = (bits[nbb + OCC_OFF + 1] & ~fHi) | tHi;

    if (kind === KIND_EN_PASSANT) {
      // The captured pawn is not on the destination: a further update M' ⊙ (J − E(cap)).
      const cap = us === 0 ? to - 8 : to + 8,
        cLo = bitLo(cap),
        cHi = bitHi(cap);
      affineUpdate(mats, nb, mats, nb, ~cLo, ~cHi, 0, 0, 0);
      const pc = nbb + 2 * (PAWN | ((us ^ 1) << 3));
      bits[pc] &= ~cLo;
      bits[pc + 1] &= ~cHi;
      bits[tc] &= ~cLo;
      bits[tc + 1] &= ~cHi;
      bits[nbb + OCC_OFF] &= ~cLo;
      bits[nbb + OCC_OFF + 1] &= ~cHi;
    } else if (castle) {
      // The rook's move is one more affine update of the same form, M'' = (M' ⊙ (J − E(rook to))) + v·E(rook to);
      // its origin was already zeroed by the king's update, so the order is right even when the
      // pieces land on each other's squares.
      const rt = castleRookTo(move);
      const rfLo = bitLo(rf),
        rfHi = bitHi(rf),
        rtLo = bitLo(rt),
        rtHi = bitHi(rt);
      affineUpdate(mats, nb, mats, nb, ~rtLo, ~rtHi, us === 0 ? ROOK : -ROOK, rtLo, rtHi);
      const rc = nbb + 2 * (ROOK | (us << 3));
      bits[rc] = (bits[rc] & ~rfLo) | rtLo;
      bits[rc + 1] = (bits[rc + 1] & ~rfHi) | rtHi;
      bits[uc] = (bits[uc] & ~rfLo) | rtLo | tLo;
      bits[uc + 1] = (bits[uc + 1] & ~rfHi) | rtHi | tHi;
      bits[nbb + OCC_OFF] = (bits[nbb + OCC_OFF] & ~rfLo) | rtLo | tLo;
      bits[nbb + OCC_OFF + 1] = (bits[nbb + OCC_OFF + 1] & ~rfHi) | rtHi | tHi;
    }

    // The non-linear state.
    const q = p + 1;
    this.sideAt[q] = us ^ 1;
    this.castlingAt[q] = this.castlingAt[p] & this.castleKeep[from] & this.castleKeep[to];
    this.epAt[q] = type === PAWN && (to ^ from) === 16 ? (from + to) >> 1 : NO_SQUARE;
    this.halfmoveAt[q] = type === PAWN || captured !== 0 ? 0 : this.halfmoveAt[p] + 1;
    this.fullmoveAt[q] = this.fullmoveAt[p] + us;
    this.ply = q;
  }

  /**
   * Passes the move (search's null move): M and the packed matrices are copied unchanged into the
   * next slot; only the side to move, en passant and the clocks change.
   */
  makeNullMove(): void {
    const p = this.ply;
    if (p >= MAX_PLY) throw new MatrixError('depth', `more than ${MAX_PLY} moves deep`);
    const m32 = this.mats32,
      w = 16 * p,
      bits = this.bits,
      b = STRIDE * p;
    for (let i = 0; i < 16; i++) m32[w + 16 + i] = m32[w + i];
    for (let i = 0; i < STRIDE; i++) bits[b + STRIDE + i] = bits[b + i];
    const q = p + 1,
      us = this.sideAt[p];
    this.sideAt[q] = us ^ 1;
    this.castlingAt[q] = this.castlingAt[p];
    this.epAt[q] = NO_SQUARE;
    this.halfmoveAt[q] = this.halfmoveAt[p] + 1;
    this.fullmoveAt[q] = this.fullmoveAt[p] + us;
    this.ply = q;
  }

  unmakeMove(): void {
    if (this.ply === 0) throw new MatrixError('depth', 'unmake with no move made');
    this.ply--;
  }

  /** FEN of the current position (for tests and display). */
  toFen(): string {
    const mb = 64 * this.ply;
    // Row r of M is rank 8 − r: square sq sits at row-major index sq ^ 56.
    const board = new Int8Array(64);
    for (let sq = 0; sq < 64; sq++) board[sq] = codeOfEntry(this.mats[mb + (sq ^ 56)]);
    const s = fenPlacement(board);
    const castling = castlingField(this.castling, this.castleRook, (sq) => codeOfEntry(this.mats[mb + (sq ^ 56)]), false);
    const ep = this.ep === NO_SQUARE ? '-' : squareName(this.ep);
    return `${s} ${this.side === 0 ? 'w' : 'b'} ${castling} ${ep} ${this.halfmoveAt[this.ply]} ${this.fullmoveAt[this.ply]}`;
  }

  /** Throws unless every packed matrix equals the corresponding function of M (test helper). */
  assertConsistent(): void {
    const saved = this.bits.slice(STRIDE * this.ply, STRIDE * this.ply + STRIDE);
    this.derivePacked();
    for (let i = 0; i < STRIDE; i++) {
      if (saved[i] !== this.bits[STRIDE * this.ply + i]) throw new MatrixError('state', `packed matrix word ${i} disagrees with M`);
    }
  }
}
