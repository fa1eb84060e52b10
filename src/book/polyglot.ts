/**
 * Polyglot opening books (.bin): 16-byte big-endian entries (key u64, move u16, weight u16,
 * learn u32) sorted by key. The key is the format's own Zobrist hash over its Random64 table;
 * it is kept as two unsigned 32-bit halves so lookups need no BigInt.
 *
 * Move encoding: bits 0-5 to square, 6-11 from square (a1 = 0, as ours), 12-14 promotion
 * (1 knight, 2 bishop, 3 rook, 4 queen). Castling is written king-takes-rook (e1h1), which is
 * converted to and from our king-move form (e1g1).
 *
 * Bytes only, so the UCI search thread runs anywhere; polyglot-node.ts reads and writes the files.
 */
import type { Position } from '../core/position.js';
import { MAX_MOVES, defaultGenerator } from '../core/movegen.js';
import { KIND_CASTLE, moveFrom, moveKind, movePromo, moveTo } from '../core/move.js';
import { BISHOP, KNIGHT, NO_SQUARE, PAWN, QUEEN, ROOK } from '../core/types.js';
import { RANDOM64 } from './polyglot-random.js';

export class BookError extends Error {
  override readonly name = 'BookError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export interface BookKey {
  /** High and low 32 bits, unsigned. */
  hi: number;
  lo: number;
}

/** Polyglot piece index ("kind") by our piece code: black pawn 0, white pawn 1, black knight 2, … */
const POLY_KIND = new Int8Array(16).fill(-1);
{
  const order = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, 6 /* KING */];
  order.forEach((type, i) => {
    POLY_KIND[type] = 2 * i + 1; // white
    POLY_KIND[type | 8] = 2 * i; // black
  });
}
const CASTLE_BASE = 768,
  EP_BASE = 772,
  TURN = 780;

/** The Polyglot key of a position. */
export function polyglotKey(pos: Position): BookKey {
  let hi = 0,
    lo = 0;
  const board = pos.board;
  for (let sq = 0; sq < 64; sq++) {
    const p = board[sq];
    if (p === 0) continue;
    const i = (64 * POLY_KIND[p] + sq) << 1;
    hi ^= RANDOM64[i];
    lo ^= RANDOM64[i + 1];
  }
  // Our castling bits (white OO, white OOO, black OO, black OOO) are Polyglot's order.
  for (let b = 0; b < 4; b++) {
    if (pos.castling & (1 << b)) {
      hi ^= RANDOM64[(CASTLE_BASE + b) << 1];
      lo ^= RANDOM64[((CASTLE_BASE + b) << 1) + 1];
    }
  }
  // En passant counts only when a pawn of the side to move stands beside the pawn that just
  // advanced two squares (legality of the capture does not matter to the format).
  if (pos.ep !== NO_SQUARE) {
    const file = pos.ep & 7;
    const rank = pos.side === 0 ? 4 : 3;
    const ourPawn = pos.side === 0 ? PAWN : PAWN | 8;
    if ((file > 0 && board[rank * 8 + file - 1] === ourPawn) || (file < 7 && board[rank * 8 + file + 1] === ourPawn)) {
      hi ^= RANDOM64[(EP_BASE + file) << 1];
      lo ^= RANDOM64[((EP_BASE + file) << 1) + 1];
    }
  }
  if (pos.side === 0) {
    hi ^= RANDOM64[TURN << 1];
    lo ^= RANDOM64[(TURN << 1) + 1];
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

/** 16 lowercase hex digits. */
export function keyToHex(k: BookKey): string {
  return k.hi.toString(16).padStart(8, '0') + k.lo.toString(16).padStart(8, '0');
}

const POLY_PROMO = [0, 0, 2, 1, 3, 4, 0, 0]; // by our type: bishop 2, knight 1, rook 3, queen 4

/**
 * Our move in `pos` to the Polyglot 16-bit encoding. Polyglot writes castling as the king
 * taking its own rook, so the position says where that rook stands (Chess960 included).
 */
export function encodeBookMove(pos: Position, move: number): number {
  const from = moveFrom(move),
    promo = movePromo(move);
  const to = moveKind(move) === KIND_CASTLE ? pos.castleRookFrom(move) : moveTo(move);
  return to | (from << 6) | (POLY_PROMO[promo] << 12);
}

const scratch = new Int32Array(MAX_MOVES);

/** The legal move in `pos` that a Polyglot move stands for, or 0 when none does. */
export function decodeBookMove(pos: Position, raw: number): number {
  const n = defaultGenerator.generate(pos, scratch, 0);
  for (let i = 0; i < n; i++) if (encodeBookMove(pos, scratch[i]) === raw) return scratch[i];
  return 0;
}

export interface BookMove {
  move: number;
  weight: number;
  learn: number;
}

export interface BookEntry {
  key: BookKey;
  /** Polyglot-encoded move (see encodeBookMove). */
  move: number;
  weight: number;
  learn?: number;
}

const ENTRY = 16;

export class Book {
  private readonly view: DataView;
  readonly size: number;

  constructor(
    readonly data: Uint8Array,
    readonly path = '(memory)',
  ) {
    if (data.length % ENTRY !== 0) {
      throw new BookError(path, `book '${path}' is truncated or not a Polyglot book: ${data.length} bytes is not a multiple of 16`);
    }
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.size = data.length / ENTRY;
    // Lookups binary-search, so an unsorted file would silently miss moves: reject it.
    for (let i = 1; i < this.size; i++) {
      if (this.compareAt(i - 1, this.view.getUint32(i * ENTRY), this.view.getUint32(i * ENTRY + 4)) > 0) {
        throw new BookError(path, `book '${path}' is not sorted by key (entry ${i} is out of order)`);
      }
    }
  }

  /** Sign of key(entry i) - (hi, lo). */
  private compareAt(i: number, hi: number, lo: number): number {
    const h = this.view.getUint32(i * ENTRY),
      l = this.view.getUint32(i * ENTRY + 4);
    return h !== hi ? (h < hi ? -1 : 1) : l !== lo ? (l < lo ? -1 : 1) : 0;
  }

  /** Raw entries for a key, in file order. */
  entries(key: BookKey): Array<{ move: number; weight: number; learn: number }> {
    let lo = 0,
      hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareAt(mid, key.hi, key.lo) < 0) lo = mid + 1;
      else hi = mid;
    }
    const out = [];
    for (let i = lo; i < this.size && this.compareAt(i, key.hi, key.lo) === 0; i++) {
      out.push({
        move: this.view.getUint16(i * ENTRY + 8),
        weight: this.view.getUint16(i * ENTRY + 10),
        learn: this.view.getUint32(i * ENTRY + 12),
      });
    }
    return out;
  }

  /**
   * Book moves for the position as legal moves of ours, highest weight first. Entries whose
   * move is not legal here (a key collision or a bad book) are skipped.
   */
  lookup(pos: Position): BookMove[] {
    const out: BookMove[] = [];
    for (const e of this.entries(polyglotKey(pos))) {
      const move = decodeBookMove(pos, e.move);
      if (move !== 0) out.push({ move, weight: e.weight, learn: e.learn });
    }
    return out.sort((a, b) => b.weight - a.weight);
  }

  /**
   * A book move chosen with probability proportional to its weight, or null when the position
   * is not in the book (or all its moves have weight 0, which Polyglot means as "never play").
   */
  pick(pos: Position, rng: () => number = Math.random): number | null {
    const moves = this.lookup(pos);
    const total = moves.reduce((s, m) => s + m.weight, 0);
    if (total === 0) return null;
    let r = rng() * total;
    for (const m of moves) {
      r -= m.weight;
      if (r < 0) return m.move;
    }
    return moves[moves.length - 1].move;
  }
}

/** Serializes entries as a Polyglot book: sorted by key, then by weight (highest first). */
export function encodeBook(entries: readonly BookEntry[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => a.key.hi - b.key.hi || a.key.lo - b.key.lo || b.weight - a.weight || a.move - b.move);
  const out = new Uint8Array(sorted.length * ENTRY);
  const view = new DataView(out.buffer);
  sorted.forEach((e, i) => {
    if (!(e.weight >= 0 && e.weight <= 0xffff && Number.isInteger(e.weight)))
      throw new RangeError(`book weight must be an integer 0..65535, got ${e.weight}`);
    view.setUint32(i * ENTRY, e.key.hi >>> 0);
    view.setUint32(i * ENTRY + 4, e.key.lo >>> 0);
    view.setUint16(i * ENTRY + 8, e.move & 0xffff);
    view.setUint16(i * ENTRY + 10, e.weight);
    view.setUint32(i * ENTRY + 12, (e.learn ?? 0) >>> 0);
  });
  return out;
}

/** A book entry for a legal move of ours in `pos`. */
export function bookEntry(pos: Position, move: number, weight: number, learn = 0): BookEntry {
  return { key: polyglotKey(pos), move: encodeBookMove(pos, move), weight, learn };
}
