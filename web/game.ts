/**
 * The game in the page: a tree of moves (web/game-tree.ts: the main line and its variations) and
 * the node shown on the board. One library Chess (matrix-chess/compat) holds the shown position
 * with the moves that led to it, so repetition and the fifty-move rule see that line's history.
 * Loading a FEN or PGN builds a new Game and only replaces the current one when everything
 * parsed, so a bad paste never loses the game.
 */
import { Position } from '../src/core/position.js';
import { FenError, START_FEN } from '../src/core/fen.js';
import { legalMoveList, moveToUciIn } from '../src/core/notation.js';
import { makePgn, parsePgnGame, pgnStartFen, type PgnMove } from '../src/core/pgn/index.js';
import { KIND_CASTLE, moveKind, moveTo } from '../src/core/move.js';
import { GAME_END_TEXT, gameStatus, type GameStatus } from '../src/core/status.js';
import { Chess } from '../src/compat/index.js';
import { GameTree, annotationsOf, isAnnotations, type StoredNode, type TreeNode } from './game-tree.js';
import { gameComments, pgnMoveOf, writeTreePgn, type TreePgnResult } from './tree-pgn.js';

export interface PgnHeaders {
  [tag: string]: string;
}

/** The tags the PGN writer sets itself. */
const ROSTER = new Set(['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result', 'SetUp', 'FEN', 'PlyCount']);

/** A result the board does not show (a flag fall): it ends the main line. */
export interface Adjudication {
  result: '1-0' | '0-1' | '1/2-1/2';
  text: string;
}

/** The opening of a position, for the PGN's ECO and Opening tags. */
export type OpeningLookup = (fens: string[]) => { eco: string; name: string } | null;

export class Game {
  readonly tree: GameTree;
  headers: PgnHeaders = {};
  /** Set when the main line ended other than on the board (time). */
  adjudication: Adjudication | null = null;
  private shown: TreeNode;
  private chess: Chess;

  /** `chess960`: UCI castles are king-takes-own-rook (the engine worker is told), and the board castles by dropping the king on its rook. */
  constructor(
    readonly startFen: string = START_FEN,
    readonly chess960 = false,
  ) {
    this.chess = new Chess(startFen, { chess960 }); // throws FenError
    this.tree = new GameTree(this.chess.fen());
    this.shown = this.tree.root;
  }

  // ---------- the shown node ----------

  get cursor(): TreeNode {
    return this.shown;
  }

  /** Shows `node` (a node of this tree): the board, the panels and the engine follow it. */
  goTo(node: TreeNode): void {
    if (node === this.shown) return;
    if (node.parent === this.shown) this.chess.move(node.uci);
    else if (this.shown.parent === node) this.chess.undo();
    else {
      const chess = new Chess(this.startFen, { chess960: this.chess960 });
      for (const n of this.tree.path(node)) chess.move(n.uci);
      this.chess = chess;
    }
    this.shown = node;
  }
  back(): boolean {
    if (!this.shown.parent) return false;
    this.goTo(this.shown.parent);
    return true;
  }
  forward(): boolean {
    if (this.shown.children.length === 0) return false;
    this.goTo(this.shown.children[0]);
    return true;
  }
  toStart(): void {
    this.goTo(this.tree.root);
  }
  /** The end of the shown line (lichess's End): first children from the shown node. */
  toEnd(): void {
    this.goTo(this.tree.lineEnd(this.shown));
  }

  /** The square the board drags a move's piece to: a Chess960 castle is king-takes-own-rook. */
  boardTo(move: number): number {
    return this.chess960 && moveKind(move) === KIND_CASTLE ? this.pos.castleRookFrom(move) : moveTo(move);
  }

  /** The shown position (with the moves that led to it). */
  get pos(): Position {
    return this.chess.position;
  }
  /** Moves from the start to the shown position, as core move ints. */
  get moves(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.pos.ply; i++) out.push(this.pos.moveAt(i));
    return out;
  }
  get sans(): string[] {
    return this.chess.history();
  }

  // ---------- moves ----------

  /** Plays a legal move (a core move int from the legal list) at the shown node and shows the result. */
  play(move: number): TreeNode {
    return this.playUci(moveToUciIn(this.pos, move, this.chess960));
  }
  /** Plays a move (UCI, SAN or the compat forms) at the shown node; throws MoveError when illegal. */
  playUci(text: string): TreeNode {
    const before = this.shown;
    const { san } = this.chess.move(text);
    // The tree names moves in UCI as the engine worker reads them (Chess960 castles king-takes-rook).
    const move = this.pos.moveAt(this.pos.ply - 1);
    this.pos.unmakeMove();
    const uci = moveToUciIn(this.pos, move, this.chess960);
    this.pos.makeMove(move);
    this.shown = this.tree.add(before, uci, san, this.chess.fen());
    return this.shown;
  }
  /** Plays `uci` at `node` (the engine's move for the node it searched); the board follows only if it shows `node`. */
  playAt(node: TreeNode, uci: string): TreeNode {
    if (node === this.shown) return this.playUci(uci);
    const chess = new Chess(node.fen, { chess960: this.chess960 });
    const m = chess.move(uci);
    return this.tree.add(node, uci, m.san, chess.fen());
  }
  /** Takes back the shown move: a move with nothing after it is deleted, otherwise the board just steps back. */
  undo(): boolean {
    const node = this.shown;
    if (!node.parent) return false;
    if (node === this.tree.mainEnd()) this.adjudication = null;
    this.back();
    if (node.children.length === 0) this.tree.remove(node);
    return true;
  }

  legalMoves(): number[] {
    return legalMoveList(this.pos);
  }
  /** UCI moves from the start to the shown position. */
  uciMoves(): string[] {
    return this.tree.path(this.shown).map((n) => n.uci);
  }
  uciPath(node: TreeNode): string[] {
    return this.tree.path(node).map((n) => n.uci);
  }
  fen(): string {
    return this.chess.fen();
  }
  status(): GameStatus {
    return gameStatus(this.pos);
  }
  /** The position at any node, with its history (for the status of a node not shown). */
  positionAt(node: TreeNode): Position {
    if (node === this.shown) return this.pos;
    const chess = new Chess(this.startFen, { chess960: this.chess960 });
    for (const n of this.tree.path(node)) chess.move(n.uci);
    return chess.position;
  }
  /** Is the game over at `node`: on the board, or (main line's end) by adjudication. */
  overAt(node: TreeNode): boolean {
    if (this.adjudication && node === this.tree.mainEnd()) return true;
    return gameStatus(this.positionAt(node)).over;
  }

  /** A sentence for the status line, about the shown position. */
  statusText(): string {
    if (this.adjudication && this.shown === this.tree.mainEnd()) return this.adjudication.text;
    const s = this.status();
    if (s.over) {
      return s.reason === 'checkmate'
        ? `Checkmate: ${s.winner === 'white' ? 'White' : 'Black'} wins`
        : `Game over: ${GAME_END_TEXT[s.reason!]}`;
    }
    return `${this.pos.side === 0 ? 'White' : 'Black'} to move${s.check ? ' (check)' : ''}`;
  }

  /** The main line's result: adjudicated, on the board, or '*'. */
  result(): TreePgnResult {
    if (this.adjudication) return this.adjudication.result;
    const st = gameStatus(this.positionAt(this.tree.mainEnd()));
    return !st.over ? '*' : st.reason === 'checkmate' ? (st.winner === 'white' ? '1-0' : '0-1') : '1/2-1/2';
  }

  private tags(date: Date, opening: OpeningLookup | null): Array<[string, string]> {
    const d = `${date.getUTCFullYear()}.${String(date.getUTCMonth() + 1).padStart(2, '0')}.${String(date.getUTCDate()).padStart(2, '0')}`;
    const { FEN: _fen, SetUp: _setup, Result: _result, PlyCount: _plies, ...kept } = this.headers;
    const h: PgnHeaders = {
      White: '?',
      Black: '?',
      Round: '?',
      ...(this.chess960 ? { Variant: 'Chess960' } : {}),
      ...kept,
      Event: kept.Event ?? 'Matrix Chess game',
      Site: kept.Site ?? 'Matrix Chess web app',
      Date: kept.Date ?? d,
    };
    const known = opening && !this.chess960 ? opening(this.tree.mainline().map((n) => n.fen)) : null;
    if (known) {
      h.ECO = known.eco;
      h.Opening = known.name;
    }
    if (this.adjudication && !h.Termination) h.Termination = 'time forfeit';
    const out: Array<[string, string]> = ['Event', 'Site', 'Date', 'Round', 'White', 'Black'].map((k) => [k, h[k]]);
    out.push(['Result', this.result()]);
    if (this.startFen !== START_FEN) out.push(['SetUp', '1'], ['FEN', this.startFen]);
    for (const [k, v] of Object.entries(h)) if (!ROSTER.has(k)) out.push([k, v]);
    return out;
  }

  /**
   * The game as PGN with its variations (web/tree-pgn.ts): the seven-tag roster (the loaded
   * game's tags, Event/Site/Date of the app), the result, Variant "Chess960", SetUp/FEN for a
   * custom start, ECO/Opening of the main line when `opening` knows it, and the loaded game's
   * other tags.
   */
  toPgn(date = new Date(), opening: OpeningLookup | null = null): string {
    return writeTreePgn(this.tags(date, opening), this.tree, this.result());
  }

  /**
   * The main line alone with its annotations, no variations (what game analysis reads and adds
   * to, so the annotated PGN keeps the game's comments), written by the core's writer.
   */
  mainlinePgn(date = new Date()): string {
    const result = this.result();
    const moves = this.tree.mainline().map(pgnMoveOf);
    return makePgn({ tags: new Map(this.tags(date, null)), comments: gameComments(this.tree), moves, result });
  }

  /**
   * A game from a stored tree (localStorage): every move is replayed, so a tree that does not
   * fit the start position throws (MoveError, FenError) and the caller discards it.
   */
  static fromStored(startFen: string, chess960: boolean, stored: StoredNode): Game {
    const game = new Game(startFen, chess960);
    const annotate = (node: TreeNode, k: StoredNode): void => {
      if (k.a === undefined) return;
      if (!isAnnotations(k.a)) throw new Error('bad annotations');
      node.annotations = annotationsOf(k.a);
    };
    const add = (at: TreeNode, kids: StoredNode[]): void => {
      for (const k of kids) {
        if (typeof k !== 'object' || k === null || typeof k.u !== 'string' || !Array.isArray(k.c)) throw new Error('bad move tree');
        const node = game.playAt(at, k.u);
        annotate(node, k);
        add(node, k.c);
      }
    };
    if (!Array.isArray(stored.c)) throw new Error('bad move tree');
    annotate(game.tree.root, stored);
    add(game.tree.root, stored.c);
    return game;
  }

  /**
   * A game from a pasted FEN: classical chess, or Chess960 when only Chess960's castling reads it
   * (a king or castling rook off its classical square, rook-file letters). Throws the classical
   * reading's FenError when neither reads it.
   */
  static fromFen(text: string): Game {
    try {
      return new Game(text);
    } catch (err) {
      if (!(err instanceof FenError) || err.field !== 'castling') throw err;
      try {
        return new Game(text, true);
      } catch {
        throw err;
      }
    }
  }

  /**
   * One PGN game, read by the core's PGN reader: its main line and its variations go into the
   * move tree, each move with its NAGs, comments and [%eval]/[%clk] (the game comment at the
   * root). Throws PgnError (naming the game, line, column and why) or FenError.
   */
  static fromPgn(text: string): Game {
    const record = parsePgnGame(text, { source: 'PGN' });
    const chess960 = record.tags.get('Variant') === 'Chess960';
    const game = new Game(pgnStartFen(record), chess960);
    game.headers = Object.fromEntries(record.tags);
    if (record.comments.length > 0) game.tree.root.annotations = { commentsAfter: [...record.comments] };
    // The replayed moves as UCI from their positions: each line from the position its first move is played in.
    const pos = Position.fromFen(game.startFen);
    const addLine = (from: TreeNode, line: PgnMove[]): void => {
      let node = from,
        made = 0;
      for (const m of line) {
        if (m.move === 0) break; // a null move: the tree has none, so the line stops there
        const next = game.playAt(node, moveToUciIn(pos, m.move!, chess960));
        next.annotations = annotationsOf(m);
        for (const v of m.variations ?? []) addLine(node, v);
        pos.makeMove(m.move!);
        made++;
        node = next;
      }
      for (let i = 0; i < made; i++) pos.unmakeMove();
    };
    addLine(game.tree.root, record.moves);
    return game;
  }
}
