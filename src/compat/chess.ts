/**
 * `Chess`: chess.js 1.x's API on the core. One live Position is the game: moves are made and
 * unmade on it, so repetitions and the fifty-move rule see the whole game, and legal moves,
 * check and perft are the core's. Strings and verbose Move objects are made only when a method
 * returns them. The game is a start FEN, the moves on the Position's stack (with their SAN), the
 * PGN headers and the comments keyed by FEN: what pgn() / loadPgn() need on top.
 *
 * A board that is not a legal position (set up with clear/put/remove or loaded with
 * skipValidation) is held as a BoardSetup until an edit makes it legal; it has no legal moves.
 * Where this class differs from chess.js, docs/coming-from-chess-js.md says how and why.
 */
import { chess960StartFen } from '../core/chess960.js';
import { MAX_MOVES, defaultGenerator } from '../core/movegen.js';
import { MoveError, moveToSanAmong } from '../core/notation.js';
import { perft as corePerft } from '../core/perft.js';
import { Position } from '../core/position.js';
import { FenError } from '../core/fen.js';
import { PgnError, isPgnResult, makePgn, readPgn, type PgnGame } from '../core/pgn/index.js';
import { isInsufficientMaterial as coreInsufficientMaterial } from '../core/status.js';
import { BLACK as CORE_BLACK, KING as CORE_KING, NO_SQUARE, PAWN as CORE_PAWN, makePiece, squareName } from '../core/types.js';
import { castlingKeyHi, castlingKeyLo, pieceKeyHi, pieceKeyLo, sideKeyHi, sideKeyLo } from '../core/zobrist.js';
import { attackersOf } from './attackers.js';
import { addCastlingRight, emptySetup, readSetup, setupFen, setupOf, tidySetup, type BoardSetup } from './board-setup.js';
import {
  DEFAULT_POSITION,
  SEVEN_TAG_ROSTER,
  SQUARES,
  SUPPLEMENTAL_TAGS,
  SYMBOL_OF_TYPE,
  colorIndex,
  squareIndex,
  typeOfSymbol,
  type Color,
  type Piece,
  type PieceSymbol,
  type Square,
} from './constants.js';
import { checkFen, chessJsShaped } from './fen.js';
import { Move, describeMove, describeNullMove } from './move.js';
import { sortChessJsOrder } from './move-order.js';
import { parseMoveInput, type MoveObject } from './parse-move.js';

export interface ChessOptions {
  /** Load a board that is not a legal position (missing king, side not to move in check, …); the FEN's syntax is still checked. */
  skipValidation?: boolean;
  /** Chess960 (an extension): X-FEN / Shredder-FEN castling, and castles by squares as king-takes-own-rook (e1h1). */
  chess960?: boolean;
}

export interface MovesOptions {
  verbose?: boolean;
  square?: Square | string;
  piece?: PieceSymbol | string;
}

export type BoardCell = { square: Square; type: PieceSymbol; color: Color } | null;

interface Snapshot {
  setup: BoardSetup | null;
  startFen: string;
  moves: number[];
  sans: string[];
  headers: Map<string, string | null>;
  comments: Map<string, string>;
}

const NULL_MOVE_IN_CHECK = 'Null move not allowed when in check';
/** What load() puts for FEN fields left out after the side to move. */
const DEFAULT_TAIL = ['-', '-', '0', '1'];

export class Chess {
  private readonly pos = new Position();
  /** The board when it is not a legal position (then `pos` is stale and unused). */
  private setup: BoardSetup | null = null;
  /** FEN of the position the game started from (after load or the last board edit). */
  private startFen = DEFAULT_POSITION;
  /** SAN of each move on the Position's stack ('--' for a turn passed). */
  private sans: string[] = [];
  /** PGN tags in insertion order; null marks a known tag that is unset (as chess.js's header() lists it). */
  private headers = new Map<string, string | null>();
  private readonly comments = new Map<string, string>();
  /** The current position's legal moves in chess.js's order, generated on first need (-1: not yet). */
  private readonly legal = new Int32Array(MAX_MOVES);
  private legalCount = -1;
  /** The current position's FEN once asked for (a move's `after` is the next move's `before`). */
  private currentFen: string | null = null;
  readonly chess960: boolean;

  constructor(fen: string = DEFAULT_POSITION, options: ChessOptions = {}) {
    this.chess960 = options.chess960 === true;
    this.load(fen, { skipValidation: options.skipValidation });
  }

  /** A Chess960 game from start position `n` (0…959, Scharnagl numbering; 518 is the classical start). An extension. */
  static chess960(n: number): Chess {
    return new Chess(chess960StartFen(n), { chess960: true });
  }

  /**
   * The live core Position (an extension, for the engine: `engine.search(chess.position, …)`).
   * Read it, do not make moves on it. Throws FenError when the board is not a legal position.
   */
  get position(): Position {
    if (this.setup) {
      try {
        checkFen(setupFen(this.setup), this.chess960);
      } catch (err) {
        if (err instanceof FenError) throw chessJsShaped(err);
        throw err;
      }
    }
    return this.pos;
  }

  // ---- setting up ----

  /**
   * Loads a FEN (FenError, message 'Invalid FEN: …', if it is not a legal position). As in
   * chess.js, fields after the side to move may be left out: they default to '- - 0 1'.
   */
  load(
    fen: string,
    { skipValidation = false, preserveHeaders = false }: { skipValidation?: boolean; preserveHeaders?: boolean } = {},
  ): void {
    if (typeof fen === 'string') {
      const fields = fen.trim().split(/\s+/);
      if (fields.length >= 2 && fields.length < 6) fen = [...fields, ...DEFAULT_TAIL.slice(fields.length - 2)].join(' ');
    }
    let setup: BoardSetup | null = null;
    try {
      checkFen(fen, this.chess960);
    } catch (err) {
      if (!(err instanceof FenError)) throw err;
      if (!skipValidation) throw chessJsShaped(err);
      try {
        setup = readSetup(fen, this.chess960);
      } catch (syntax) {
        throw syntax instanceof FenError ? chessJsShaped(syntax) : syntax;
      }
    }
    if (!preserveHeaders) this.resetHeaders();
    this.comments.clear();
    if (setup) this.startFrom(setup);
    else {
      this.pos.setFen(fen);
      this.setup = null;
      this.newGame();
    }
  }

  reset(): void {
    this.load(DEFAULT_POSITION);
  }

  clear({ preserveHeaders = false }: { preserveHeaders?: boolean } = {}): void {
    if (!preserveHeaders) this.resetHeaders();
    this.comments.clear();
    this.setup = emptySetup();
    this.newGame();
    // chess.js: an empty board is no game's start, so it gets no SetUp/FEN tags.
    this.headers.set('SetUp', null);
    this.headers.set('FEN', null);
  }

  /** Forgets what was worked out for the position: it has changed. */
  private changed(): void {
    this.legalCount = -1;
    this.currentFen = null;
  }

  /** The board as a BoardSetup to edit (a copy). */
  private editable(): BoardSetup {
    if (!this.setup) return setupOf(this.pos);
    const s = this.setup;
    return { ...s, board: s.board.slice(), castleRook: s.castleRook.slice() };
  }

  /** Makes `s` the start of a new game: on the Position if it is legal, else held as a setup. */
  private startFrom(s: BoardSetup): void {
    tidySetup(s, this.chess960);
    const fen = setupFen(s);
    try {
      checkFen(fen, this.chess960);
      this.pos.setFen(fen);
      this.setup = null;
    } catch (err) {
      if (!(err instanceof FenError)) throw err;
      this.setup = s;
    }
    this.newGame();
  }

  /** The current position becomes the start: no moves, SetUp/FEN tags as chess.js sets them. */
  private newGame(): void {
    this.sans = [];
    this.changed();
    this.startFen = this.fen();
    this.setupTags();
  }

  /** SetUp and FEN tags for the start position: set for a custom start, unset for the standard one. */
  private setupTags(): void {
    const custom = this.startFen !== DEFAULT_POSITION;
    this.headers.set('SetUp', custom ? '1' : null);
    this.headers.set('FEN', custom ? this.startFen : null);
  }

  private resetHeaders(): void {
    this.headers = new Map<string, string | null>(Object.entries(SEVEN_TAG_ROSTER));
    for (const tag of SUPPLEMENTAL_TAGS) this.headers.set(tag, null);
    if (this.chess960) this.headers.set('Variant', 'Chess960');
  }

  put({ type, color }: { type: PieceSymbol; color: Color }, square: Square): boolean {
    const t = typeOfSymbol(type),
      c = colorIndex(color),
      sq = squareIndex(square);
    if (t === 0 || c < 0 || sq < 0) return false;
    if (t === CORE_PAWN && (sq >> 3 === 0 || sq >> 3 === 7)) return false; // pawns never stand there
    const s = this.editable(),
      piece = makePiece(c, t);
    if (t === CORE_KING) for (let other = 0; other < 64; other++) if (other !== sq && s.board[other] === piece) return false;
    s.board[sq] = piece;
    this.startFrom(s);
    return true;
  }

  remove(square: Square): Piece | undefined {
    const piece = this.get(square);
    if (piece === undefined) {
      if (this.sans.length === 0) this.setupTags(); // chess.js refreshes them on any remove, even of nothing
      return undefined;
    }
    const s = this.editable();
    s.board[squareIndex(square)] = 0;
    this.startFrom(s);
    return piece;
  }

  setCastlingRights(color: Color, rights: Partial<Record<'k' | 'q', boolean>>): boolean {
    const c = colorIndex(color);
    if (c < 0) return false;
    const s = this.editable();
    const before = s.castling;
    for (const wing of ['k', 'q'] as const) {
      const want = rights[wing];
      if (want === undefined) continue;
      const right = (c << 1) | (wing === 'k' ? 0 : 1);
      if (want) addCastlingRight(s, c === 0 ? wing.toUpperCase() : wing, this.chess960);
      else s.castling &= ~(1 << right);
    }
    tidySetup(s, this.chess960);
    if (s.castling !== before) this.startFrom(s);
    const held = this.getCastlingRights(color);
    return (['k', 'q'] as const).every((wing) => rights[wing] === undefined || rights[wing] === held[wing]);
  }

  getCastlingRights(color: Color): { k: boolean; q: boolean } {
    const c = colorIndex(color),
      castling = this.setup ? this.setup.castling : this.pos.castling;
    if (c < 0) return { k: false, q: false };
    return { k: (castling & (1 << (c << 1))) !== 0, q: (castling & (2 << (c << 1))) !== 0 };
  }

  /** Passes the turn (chess.js records it as a null move, '--'); false when it is already `color`'s turn. */
  setTurn(color: Color): boolean {
    const c = colorIndex(color);
    if (c < 0 || c === this.sideToMove()) return false;
    if (this.setup) {
      // No Position to make a null move on: turn the board over as chess.js's null move would.
      if (this.isCheck()) throw new MoveError('--', NULL_MOVE_IN_CHECK);
      const s = this.editable();
      s.halfmove++;
      if (s.side === CORE_BLACK) s.fullmove++;
      s.side = c;
      s.ep = NO_SQUARE;
      this.startFrom(s);
      return true;
    }
    this.passTurn();
    return true;
  }

  // ---- reading the board ----

  private get board8(): Uint8Array {
    return this.setup ? this.setup.board : this.pos.board;
  }

  private sideToMove(): number {
    return this.setup ? this.setup.side : this.pos.side;
  }

  /**
   * FEN of the position. The en-passant square is written after every double step, as the PGN
   * standard's FEN says (chess.js writes it only when a capture there is legal, or with
   * forceEnpassantSquare, which is accepted and changes nothing here).
   */
  fen(_options: { forceEnpassantSquare?: boolean } = {}): string {
    return this.setup ? setupFen(this.setup) : (this.currentFen ??= this.pos.toFen());
  }

  get(square: Square): Piece | undefined {
    const sq = squareIndex(square);
    const piece = sq < 0 ? 0 : this.board8[sq];
    return piece === 0 ? undefined : { type: SYMBOL_OF_TYPE[piece & 7], color: piece >> 3 === 0 ? 'w' : 'b' };
  }

  findPiece(piece: Piece): Square[] {
    const t = typeOfSymbol(piece?.type),
      c = colorIndex(piece?.color);
    if (t === 0 || c < 0) return [];
    const code = makePiece(c, t),
      board = this.board8;
    return SQUARES.filter((name) => board[squareIndex(name)] === code);
  }

  board(): BoardCell[][] {
    const board = this.board8,
      rows: BoardCell[][] = [];
    for (let rank = 7; rank >= 0; rank--) {
      const row: BoardCell[] = [];
      for (let file = 0; file < 8; file++) {
        const sq = rank * 8 + file,
          piece = board[sq];
        row.push(
          piece === 0 ? null : { square: squareName(sq) as Square, type: SYMBOL_OF_TYPE[piece & 7], color: piece >> 3 === 0 ? 'w' : 'b' },
        );
      }
      rows.push(row);
    }
    return rows;
  }

  ascii(): string {
    const board = this.board8;
    let s = '   +------------------------+\n';
    for (let rank = 7; rank >= 0; rank--) {
      s += ` ${rank + 1} |`;
      for (let file = 0; file < 8; file++) {
        const piece = board[rank * 8 + file];
        const letter = piece === 0 ? '.' : piece >> 3 === 0 ? SYMBOL_OF_TYPE[piece & 7].toUpperCase() : SYMBOL_OF_TYPE[piece & 7];
        s += ` ${letter} `;
      }
      s += '|\n';
    }
    return s + '   +------------------------+\n     a  b  c  d  e  f  g  h';
  }

  turn(): Color {
    return this.sideToMove() === 0 ? 'w' : 'b';
  }

  moveNumber(): number {
    return this.setup ? this.setup.fullmove : this.pos.fullmove;
  }

  squareColor(square: Square): 'light' | 'dark' | null {
    const sq = squareIndex(square);
    if (sq < 0) return null;
    return ((sq & 7) + (sq >> 3)) % 2 === 0 ? 'dark' : 'light';
  }

  /** The Zobrist key (the core's: equal positions in the FIDE sense, equal keys) as 16 hex digits. */
  hash(): string {
    let lo: number, hi: number;
    if (!this.setup) {
      lo = this.pos.hashLo;
      hi = this.pos.hashHi;
    } else {
      const s = this.setup;
      lo = castlingKeyLo[s.castling] ^ (s.side === CORE_BLACK ? sideKeyLo : 0);
      hi = castlingKeyHi[s.castling] ^ (s.side === CORE_BLACK ? sideKeyHi : 0);
      for (let sq = 0; sq < 64; sq++) {
        if (s.board[sq] === 0) continue;
        lo ^= pieceKeyLo[(s.board[sq] << 6) | sq];
        hi ^= pieceKeyHi[(s.board[sq] << 6) | sq];
      }
    }
    return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
  }

  // ---- attacks and status ----

  isAttacked(square: Square, attackedBy: Color): boolean {
    const sq = squareIndex(square),
      c = colorIndex(attackedBy);
    if (sq < 0 || c < 0) return false;
    return this.setup ? attackersOf(this.setup.board, sq, c).length > 0 : this.pos.isAttacked(sq, c);
  }

  attackers(square: Square, attackedBy: Color = this.turn()): Square[] {
    const sq = squareIndex(square),
      c = colorIndex(attackedBy);
    if (sq < 0 || c < 0) return [];
    return attackersOf(this.board8, sq, c).map((a) => squareName(a) as Square);
  }

  isCheck(): boolean {
    if (!this.setup) return this.pos.inCheck();
    const s = this.setup,
      king = makePiece(s.side, CORE_KING);
    const kings = [...s.board.keys()].filter((sq) => s.board[sq] === king);
    return kings.length === 1 && attackersOf(s.board, kings[0], s.side ^ 1).length > 0;
  }

  inCheck(): boolean {
    return this.isCheck();
  }

  isCheckmate(): boolean {
    return this.legalMoveCount() === 0 && this.isCheck();
  }

  isStalemate(): boolean {
    return this.legalMoveCount() === 0 && !this.isCheck();
  }

  /** K v K, K + minor v K, and bishops only, all on one colour of square (the core's rule). */
  isInsufficientMaterial(): boolean {
    return !this.setup && coreInsufficientMaterial(this.pos);
  }

  /** The same position (FIDE: same en-passant possibilities, so an impossible capture does not count) for the third time. */
  isThreefoldRepetition(): boolean {
    return !this.setup && this.pos.repetitions() >= 2;
  }

  /** Fifty moves by each side without a capture or pawn move; a checkmate on the last of them stands (FIDE 9.3). */
  isDrawByFiftyMoves(): boolean {
    return !this.setup && this.pos.halfmove >= 100 && !this.isCheckmate();
  }

  isDraw(): boolean {
    return this.isDrawByFiftyMoves() || this.isStalemate() || this.isInsufficientMaterial() || this.isThreefoldRepetition();
  }

  isGameOver(): boolean {
    return this.isCheckmate() || this.isDraw();
  }

  // ---- moves ----

  /** The number of legal moves; fills `legal` in chess.js's order the first time for a position. */
  private legalMoveCount(): number {
    if (this.legalCount < 0) {
      this.legalCount = this.setup ? 0 : defaultGenerator.generate(this.pos, this.legal, 0);
      sortChessJsOrder(this.pos, this.legal, this.legalCount);
    }
    return this.legalCount;
  }

  moves(): string[];
  moves(options: MovesOptions & { verbose: true }): Move[];
  moves(options: MovesOptions & { verbose?: false }): string[];
  moves(options: MovesOptions): string[] | Move[];
  moves(options: MovesOptions = {}): string[] | Move[] {
    const n = this.legalMoveCount(),
      legal = this.legal,
      pos = this.pos;
    let from = -1,
      type = 0;
    if (options.square !== undefined) {
      from = squareIndex(String(options.square).toLowerCase());
      if (from < 0) return [];
    }
    if (options.piece !== undefined) {
      type = typeOfSymbol(String(options.piece).toLowerCase());
      if (type === 0) return [];
    }
    if (!options.verbose) {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const m = legal[i];
        if ((from >= 0 && (m & 63) !== from) || (type !== 0 && (pos.board[m & 63] & 7) !== type)) continue;
        out.push(moveToSanAmong(pos, m, legal, n));
      }
      return out;
    }
    const before = this.fen(),
      out: Move[] = [];
    for (let i = 0; i < n; i++) {
      const m = legal[i];
      if ((from >= 0 && (m & 63) !== from) || (type !== 0 && (pos.board[m & 63] & 7) !== type)) continue;
      const move = describeMove(pos, m, moveToSanAmong(pos, m, legal, n), before, '', this.chess960);
      pos.makeMove(m);
      move.after = pos.toFen();
      pos.unmakeMove();
      out.push(move);
    }
    return out;
  }

  /**
   * Plays a move: SAN ('Nf3'), permissive text unless `strict` (see parse-move.ts: 'e2e4',
   * 'Ng1-f3', '0-0', …), a { from, to, promotion } object, or null / '--' to pass the turn.
   * Throws MoveError('Invalid move: …') when it is not a legal move.
   */
  move(move: string | MoveObject | null, { strict = false }: { strict?: boolean } = {}): Move {
    if (move === null || move === '--') {
      if (this.setup) throw new MoveError(String(move), `Invalid move: ${String(move)}`);
      const before = this.fen(),
        color = this.turn();
      this.passTurn();
      return describeNullMove(color, before, this.fen());
    }
    const n = this.legalMoveCount();
    const m = n === 0 ? 0 : parseMoveInput(this.pos, this.legal, n, move, strict, this.chess960);
    if (m === 0) {
      const shown = typeof move === 'string' ? move : JSON.stringify(move);
      throw new MoveError(shown, `Invalid move: ${shown}`);
    }
    const before = this.fen(),
      san = moveToSanAmong(this.pos, m, this.legal, n);
    const played = describeMove(this.pos, m, san, before, '', this.chess960);
    this.pos.makeMove(m);
    this.sans.push(san);
    this.changed();
    played.after = this.fen();
    return played;
  }

  /** A null move on the Position; the core's does not count full moves, chess.js's does. */
  private passTurn(): void {
    if (this.pos.inCheck()) throw new MoveError('--', NULL_MOVE_IN_CHECK);
    const black = this.pos.side === CORE_BLACK;
    this.pos.makeNullMove();
    if (black) this.pos.fullmove++;
    this.sans.push('--');
    this.changed();
  }

  /** Takes back the move at the top of the Position's stack (a null move included). */
  private unmakeLast(): number {
    const m = this.pos.moveAt(this.pos.ply - 1);
    if (m !== 0) this.pos.unmakeMove();
    else {
      this.pos.unmakeNullMove();
      if (this.pos.side === CORE_BLACK) this.pos.fullmove--;
    }
    return m;
  }

  private remake(m: number): void {
    if (m !== 0) this.pos.makeMove(m);
    else {
      const black = this.pos.side === CORE_BLACK;
      this.pos.makeNullMove();
      if (black) this.pos.fullmove++;
    }
  }

  undo(): Move | null {
    if (this.setup || this.pos.ply === 0) return null;
    const after = this.fen(),
      san = this.sans.pop()!;
    const m = this.unmakeLast();
    this.changed();
    const before = this.fen();
    return m === 0 ? describeNullMove(this.turn(), before, after) : describeMove(this.pos, m, san, before, after, this.chess960);
  }

  /**
   * Calls `visit(i, move)` for each move of the game in order, with the Position as it stood
   * before it; the Position is walked back to the start and forward again, no copy made.
   */
  private walkGame(visit: (i: number, m: number) => void): void {
    if (this.setup) return; // a board being set up has no moves (and `pos` is stale)
    const played: number[] = [];
    while (this.pos.ply > 0) played.push(this.unmakeLast());
    played.reverse();
    played.forEach((m, i) => {
      visit(i, m);
      this.remake(m);
    });
  }

  history(): string[];
  history(options: { verbose: true }): Move[];
  history(options: { verbose?: false }): string[];
  history(options: { verbose?: boolean }): string[] | Move[];
  history({ verbose = false }: { verbose?: boolean } = {}): string[] | Move[] {
    if (!verbose) return this.sans.slice();
    const out: Move[] = [];
    this.walkGame((i, m) => {
      const before = this.pos.toFen();
      out.push(m === 0 ? describeNullMove(this.turn(), before, '') : describeMove(this.pos, m, this.sans[i], before, '', this.chess960));
      if (i > 0) out[i - 1].after = before;
    });
    if (out.length > 0) out[out.length - 1].after = this.pos.toFen();
    return out;
  }

  /** Leaf count of the legal move tree `depth` plies deep (the core's perft; 1 at depth 0). */
  perft(depth: number): number {
    if (this.setup) return depth === 0 ? 1 : 0;
    return corePerft(this.pos, depth);
  }

  // ---- PGN headers ----

  /** @deprecated as in chess.js: sets key/value pairs and returns every tag, unset known ones as null. */
  header(...args: string[]): Record<string, string | null> {
    for (let i = 0; i + 1 < args.length; i += 2) this.headers.set(args[i], args[i + 1]);
    return Object.fromEntries(this.headers);
  }

  setHeader(key: string, value: string): Record<string, string> {
    this.headers.set(key, value);
    return this.getHeaders();
  }

  /** Unsets a tag (a seven-tag-roster tag goes back to its '?' value); false if it was never there. */
  removeHeader(key: string): boolean {
    if (!this.headers.has(key)) return false;
    this.headers.set(key, SEVEN_TAG_ROSTER[key] ?? null);
    return true;
  }

  getHeaders(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of this.headers) if (value !== null) out[key] = value;
    return out;
  }

  // ---- PGN ----

  /**
   * The game as PGN, as chess.js 1.x writes it (the set headers, then the moves with each
   * position's comment and the Result), by the core's PGN writer: tag values escaped, a move
   * number before a Black move that follows a comment or starts the game (`1... e5`), a blank
   * line after the tags even with no moves; `maxWidth` wraps lines (0, the default: no
   * wrapping), `newline` is the line break. docs/coming-from-chess-js.md lists the differences.
   */
  pgn({ newline = '\n', maxWidth = 0 }: { newline?: string; maxWidth?: number } = {}): string {
    const game: PgnGame = { tags: new Map(), comments: [], moves: [], result: '*' };
    // chess.js leaves out a tag whose value is empty, as it does an unset one.
    for (const [key, value] of this.headers) if (value) game.tags.set(key, value);
    const fens: string[] = [];
    this.walkGame(() => fens.push(this.pos.toFen()));
    fens.push(this.fen());
    const first = this.comments.get(fens[0]);
    if (first !== undefined) game.comments.push(first);
    this.sans.forEach((san, i) => {
      const comment = this.comments.get(fens[i + 1]);
      game.moves.push(comment === undefined ? { san } : { san, commentsAfter: [comment] });
    });
    const result = this.headers.get('Result');
    game.result = isPgnResult(result ?? undefined) ? (result as PgnGame['result']) : '*';
    const text = makePgn(game, { maxWidth, newline });
    return text.slice(0, text.length - 2 * newline.length);
  }

  /**
   * Loads a game from PGN as chess.js 1.x does: its tags become the headers, the FEN tag (any
   * case; with `strict`, only with SetUp "1") the start, the main line's moves are played (SAN as
   * move() reads it, `strict` as move()'s), each comment is kept for the position it follows,
   * and the termination marker sets the Result. Variations and NAGs are read and left out, as in
   * chess.js. A text that is not one readable game throws PgnError (naming the line, column and
   * why), an illegal move 'Invalid move in PGN: …'; either way the game is left as it was.
   */
  loadPgn(pgn: string, { strict = false, newlineChar = '\r?\n' }: { strict?: boolean; newlineChar?: string } = {}): void {
    if (newlineChar !== '\r?\n') pgn = pgn.replace(new RegExp(newlineChar, 'g'), '\n');
    const games = readPgn(pgn, { replay: false, commands: false });
    for (const g of games) if (g instanceof PgnError) throw g;
    if (games.length > 1) throw new PgnError('count', `Invalid PGN: expected one game, found ${games.length}`);
    const game = (games[0] as PgnGame | undefined) ?? { tags: new Map<string, string>(), comments: [], moves: [], result: '*' };
    const saved = this.snapshot();
    try {
      this.playPgn(game, strict);
    } catch (err) {
      this.restore(saved);
      throw err;
    }
  }

  private playPgn(game: PgnGame, strict: boolean): void {
    this.reset();
    let fen = '';
    for (const [key, value] of game.tags) {
      if (key.toLowerCase() === 'fen') fen = value;
      this.headers.set(key, value);
    }
    if (!strict) {
      if (fen) this.load(fen, { preserveHeaders: true });
    } else if (game.tags.get('SetUp') === '1') {
      const tagged = game.tags.get('FEN');
      if (tagged === undefined) throw new PgnError('fen', 'Invalid PGN: FEN tag must be supplied with SetUp tag');
      this.load(tagged, { preserveHeaders: true });
    }
    // chess.js keeps one comment per position, with line breaks as spaces.
    const note = (texts: string[] | undefined): void => {
      if (texts === undefined || texts.length === 0) return;
      const fen = this.fen(),
        had = this.comments.get(fen);
      const text = texts.join(' ').replace(/[\r\n]+/g, ' ');
      this.comments.set(fen, had === undefined ? text : `${had} ${text}`);
    };
    note(game.comments);
    for (const node of game.moves) {
      note(node.commentsBefore);
      try {
        this.move(node.san === '--' ? null : node.san, { strict });
      } catch (err) {
        if (err instanceof MoveError) throw new PgnError('move', `Invalid move in PGN: ${node.san}`);
        throw err;
      }
      note(node.commentsAfter);
    }
    if (this.headers.get('Result') !== game.result) this.headers.set('Result', game.result);
  }

  /** The whole game, to put back when a load fails half way. */
  private snapshot(): Snapshot {
    const moves: number[] = [];
    if (!this.setup) for (let i = 0; i < this.pos.ply; i++) moves.push(this.pos.moveAt(i));
    return {
      setup: this.setup,
      startFen: this.startFen,
      moves,
      sans: this.sans.slice(),
      headers: new Map(this.headers),
      comments: new Map(this.comments),
    };
  }

  private restore(s: Snapshot): void {
    this.setup = s.setup;
    this.startFen = s.startFen;
    if (!s.setup) {
      this.pos.setFen(s.startFen);
      for (const m of s.moves) this.remake(m);
    }
    this.sans = s.sans;
    this.headers = s.headers;
    this.comments.clear();
    for (const [k, v] of s.comments) this.comments.set(k, v);
    this.changed();
  }

  // ---- comments (keyed by the FEN of the position they are about) ----

  getComment(): string | undefined {
    return this.comments.get(this.fen());
  }

  setComment(comment: string): void {
    this.comments.set(this.fen(), comment);
  }

  removeComment(): string | undefined {
    const fen = this.fen(),
      comment = this.comments.get(fen);
    this.comments.delete(fen);
    return comment;
  }

  /** @deprecated as in chess.js: removeComment */
  deleteComment(): string | undefined {
    return this.removeComment();
  }

  /** The comments on the positions of the game so far, in order; as in chess.js, comments on positions no longer in the game are dropped. */
  getComments(): { fen: string; comment: string }[] {
    const fens: string[] = [];
    this.walkGame(() => fens.push(this.pos.toFen()));
    fens.push(this.fen());
    const kept = new Map<string, string>();
    for (const fen of fens) {
      const comment = this.comments.get(fen);
      if (comment !== undefined) kept.set(fen, comment);
    }
    this.comments.clear();
    for (const [fen, comment] of kept) this.comments.set(fen, comment);
    return [...kept].map(([fen, comment]) => ({ fen, comment }));
  }

  removeComments(): { fen: string; comment: string }[] {
    const all = this.getComments();
    this.comments.clear();
    return all;
  }

  /** @deprecated as in chess.js: removeComments */
  deleteComments(): { fen: string; comment: string }[] {
    return this.removeComments();
  }
}
