/**
 * The PGN reader: text (whole, or chunk by chunk) to game models. Games are told apart by the
 * text's structure, not by any tag: a game is its tag pairs (none at all is fine) and its
 * movetext, ended by its termination marker (1-0, 0-1, 1/2-1/2, *); a tag pair after movetext
 * also starts a new game (the marker was left out), as does the end of the text. Comments
 * between games go to the game that follows (to the one before when none follows).
 *
 * A game that cannot be read is a PgnError in its place, naming the game number, line and column
 * and why (an unclosed comment, an unbalanced parenthesis, an illegal move and why it is
 * illegal); the reader goes on with the next game. By default every move is replayed on the
 * core's Position (replay.ts), so a game read is a legal game and each move has its move code.
 */
import { Position } from '../position.js';
import { PgnError, type PgnErrorKind } from './errors.js';
import { isPgnResult, takeCommands, type PgnGame, type PgnMove, type PgnResult } from './model.js';
import { replayWithPlaces } from './replay.js';
import {
  PgnTokenizer,
  T_CLOSE,
  T_COMMENT,
  T_NAG,
  T_NUMBER,
  T_OPEN,
  T_RESULT,
  T_STRING,
  T_SYMBOL,
  T_TAG_CLOSE,
  T_TAG_OPEN,
  type PgnTokenSink,
} from './tokenizer.js';

export interface PgnReadOptions {
  /** The file or other source named in errors. */
  source?: string;
  /** Replay every move on a Position (default true): illegal moves are errors and each move gets its `move` code. */
  replay?: boolean;
  /** Take `[%eval]` and `[%clk]` out of the comments after moves into the moves' fields (default true). */
  commands?: boolean;
}

/** Where the last token put us in a line of moves: what a comment that comes next belongs to. */
const AT_START = 0,
  AFTER_MOVE = 1,
  AFTER_NUMBER = 2,
  AFTER_VARIATION = 3;

interface Frame {
  line: PgnMove[];
  pending: string[] | null;
  openLine: number;
  openColumn: number;
}

const TAG_NAME = /^[A-Za-z0-9_]+$/;

/**
 * The streaming reader: push text in chunks of any size, then end(); each game (or its
 * PgnError) is handed to `emit` in order, as soon as the next game begins or the text ends.
 * Memory holds the game being read, the one before it, and one line of text.
 */
export class PgnReader {
  private readonly tokenizer = new PgnTokenizer({
    token: (kind, text, line, column) => this.token(kind, text, line, column),
    error: (kind, reason, line, column) => this.tokenError(kind, reason, line, column),
  } satisfies PgnTokenSink);
  private readonly replay: boolean;
  private readonly commands: boolean;
  private readonly source: string | undefined;
  /** Text after the last line break pushed so far. */
  private partial = '';
  private games = 0;

  // The game being read (null between games).
  private game: PgnGame | null = null;
  private gameNumber = 0;
  /** Whether the game has begun: a tag or movetext seen (not only comments). */
  private begun = false;
  private movetext = false;
  private tagState = 0; // 0 none, 1 name expected, 2 value expected, 3 ']' expected
  private tagName = '';
  private tagLine = 0;
  private tagColumn = 0;
  private line: PgnMove[] = [];
  private stack: Frame[] = [];
  private pending: string[] | null = null;
  private at = AT_START;
  private failure: PgnError | null = null;
  private places: number[] = [];
  /** The Position every game is replayed on. */
  private position: Position | null = null;
  /** A finished game, held until the next one begins (comments after it and nothing else: they are its). */
  private held: PgnGame | PgnError | null = null;

  constructor(
    private readonly emit: (game: PgnGame | PgnError) => void,
    options: PgnReadOptions = {},
  ) {
    this.replay = options.replay !== false;
    this.commands = options.commands !== false;
    this.source = options.source;
  }

  /** Reads a chunk of text (any size; lines may span chunks). */
  push(chunk: string): void {
    const text = this.partial + chunk,
      n = text.length;
    let from = 0;
    for (;;) {
      let i = from,
        brk = -1;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || c === 13) {
          brk = i;
          break;
        }
      }
      if (brk < 0) break;
      // A '\r' at the very end may be the first half of '\r\n': wait for the next chunk.
      if (text.charCodeAt(brk) === 13 && brk + 1 === n) break;
      this.tokenizer.readLine(text.slice(from, brk));
      from = brk + (text.charCodeAt(brk) === 13 && text.charCodeAt(brk + 1) === 10 ? 2 : 1);
    }
    this.partial = from === 0 ? text : text.slice(from);
  }

  /** The end of the text: the last game is finished and handed over. */
  end(): void {
    const rest = this.partial.endsWith('\r') ? this.partial.slice(0, -1) : this.partial;
    this.partial = '';
    if (rest !== '') this.tokenizer.readLine(rest);
    this.tokenizer.end();
    const game = this.game;
    if (game !== null) {
      if (this.begun || this.failure !== null || this.held === null) this.finish(null);
      else {
        // Only comments after the last game: they are its last words (a broken game's are dropped with it).
        const held = this.held;
        if (!(held instanceof PgnError)) {
          const last = held.moves[held.moves.length - 1];
          if (last === undefined) held.comments.push(...game.comments);
          else (last.commentsAfter ??= []).push(...game.comments);
        }
        this.game = null;
      }
    }
    this.flushHeld();
  }

  /** The number of games begun so far. */
  get count(): number {
    return this.games;
  }

  // ---- tokens ----

  private token(kind: number, text: string, line: number, column: number): void {
    if (kind === T_COMMENT) {
      this.comment(text);
      return;
    }
    if (kind === T_TAG_OPEN) {
      // Tags after movetext (or after an unclosed comment) start the next game.
      if (this.game !== null && (this.movetext || this.failure?.kind === 'comment')) this.finish(null);
    }
    this.begin();
    if (this.failure !== null) {
      if (kind === T_RESULT) this.finish(null);
      else if (kind !== T_TAG_OPEN && kind !== T_STRING && kind !== T_TAG_CLOSE) this.movetext = true;
      return;
    }
    if (this.tagState !== 0) {
      this.tagToken(kind, text, line, column);
      return;
    }
    switch (kind) {
      case T_TAG_OPEN:
        this.tagState = 1;
        this.tagLine = line;
        this.tagColumn = column;
        return;
      case T_SYMBOL: {
        const node: PgnMove = { san: text };
        if (this.pending !== null) {
          node.commentsBefore = this.pending;
          this.pending = null;
        }
        this.line.push(node);
        this.places.push(line, column);
        this.at = AFTER_MOVE;
        this.movetext = true;
        return;
      }
      case T_NUMBER:
        this.movetext = true;
        this.at = AFTER_NUMBER;
        return;
      case T_NAG: {
        this.movetext = true;
        const last = this.line[this.line.length - 1];
        if (last === undefined) return this.fail('syntax', `a NAG ($${text}) before any move`, line, column);
        (last.nags ??= []).push(Number(text));
        return;
      }
      case T_OPEN: {
        this.movetext = true;
        const last = this.line[this.line.length - 1];
        if (last === undefined) return this.fail('variation', "a variation '(' before any move it could replace", line, column);
        this.stack.push({ line: this.line, pending: this.pending, openLine: line, openColumn: column });
        const variation: PgnMove[] = [];
        (last.variations ??= []).push(variation);
        this.line = variation;
        this.pending = null;
        this.at = AT_START;
        return;
      }
      case T_CLOSE: {
        this.movetext = true;
        const frame = this.stack.pop();
        if (frame === undefined) return this.fail('variation', "')' without a '(' to close", line, column);
        const parent = frame.line[frame.line.length - 1];
        if (this.line.length === 0) {
          // An empty variation is no line; its comments (if any) stay with the move it was on.
          parent.variations!.pop();
          if (parent.variations!.length === 0) delete parent.variations;
          if (this.pending !== null) (parent.commentsAfter ??= []).push(...this.pending);
        } else this.settlePending(this.game!);
        this.line = frame.line;
        this.pending = frame.pending;
        this.at = AFTER_VARIATION;
        return;
      }
      case T_RESULT:
        this.finish(text as PgnResult);
        return;
      case T_STRING:
        return this.fail('syntax', 'a quoted string outside a tag pair', line, column);
      case T_TAG_CLOSE:
        return this.fail('syntax', "']' outside a tag pair", line, column);
    }
  }

  private tokenError(kind: PgnErrorKind, reason: string, line: number, column: number): void {
    this.begin();
    this.fail(kind, reason, line, column);
  }

  private tagToken(kind: number, text: string, line: number, column: number): void {
    if (this.tagState === 1) {
      if (kind !== T_SYMBOL || !TAG_NAME.test(text))
        return this.fail('tag', `a tag pair needs a name of letters, digits and _ after '[', got '${text}'`, line, column);
      if (this.game!.tags.has(text) && !this.movetext) {
        // The same tag again before any movetext: the game before had neither moves nor a marker.
        this.tagState = 0;
        this.finish(null);
        this.begin();
        this.tagLine = line;
        this.tagColumn = column;
      }
      this.tagName = text;
      this.tagState = 2;
    } else if (this.tagState === 2) {
      if (kind !== T_STRING)
        return this.fail('tag', `tag ${this.tagName}: expected its value in double quotes, got '${text}'`, line, column);
      this.game!.tags.set(this.tagName, text);
      this.tagState = 3;
    } else {
      if (kind !== T_TAG_CLOSE) return this.fail('tag', `tag ${this.tagName}: expected ']' after its value, got '${text}'`, line, column);
      this.tagState = 0;
    }
  }

  private comment(text: string): void {
    if (this.game === null) this.newGame();
    if (this.failure !== null) return;
    if (this.tagState !== 0) {
      this.fail('tag', `tag ${this.tagName || '…'}: a comment inside a tag pair`, this.tagLine, this.tagColumn);
      return;
    }
    if (this.stack.length === 0 && this.line.length === 0 && this.at !== AFTER_NUMBER) this.game!.comments.push(text);
    else if (this.at === AFTER_MOVE) {
      const last = this.line[this.line.length - 1];
      const rest = this.commands ? takeCommands(last, text) : text;
      if (rest !== '' || rest === text) (last.commentsAfter ??= []).push(rest);
    } else (this.pending ??= []).push(text);
  }

  /** Comments still waiting for a move when a line ends: they go after its last move. */
  private settlePending(game: PgnGame): void {
    if (this.pending === null) return;
    const last = this.line[this.line.length - 1];
    if (last !== undefined) (last.commentsAfter ??= []).push(...this.pending);
    else game.comments.push(...this.pending);
    this.pending = null;
  }

  private newGame(): void {
    this.game = { tags: new Map(), comments: [], moves: [], result: '*' };
    this.gameNumber = ++this.games;
    this.begun = false;
    this.movetext = false;
    this.tagState = 0;
    this.line = this.game.moves;
    this.stack = [];
    this.pending = null;
    this.at = AT_START;
    this.failure = null;
    this.places = [];
  }

  /** A token that is not a comment: the game has begun, and the one before it is handed over. */
  private begin(): void {
    if (this.game === null) this.newGame();
    if (!this.begun) {
      this.begun = true;
      this.flushHeld();
    }
  }

  private fail(kind: PgnErrorKind, reason: string, line: number, column: number): void {
    if (this.failure === null) this.failure = new PgnError(kind, reason, { source: this.source, game: this.gameNumber, line, column });
  }

  /** Ends the game: `marker` is its termination marker, or null when the text ended or the next game began without one. */
  private finish(marker: PgnResult | null): void {
    const game = this.game!;
    this.game = null;
    if (this.failure === null && this.tagState !== 0)
      this.fail('tag', `tag pair not closed: the '[' here has no ']'`, this.tagLine, this.tagColumn);
    if (this.failure === null && this.stack.length > 0) {
      const open = this.stack[this.stack.length - 1];
      this.fail('variation', "unbalanced parenthesis: the '(' here is never closed", open.openLine, open.openColumn);
    }
    let item: PgnGame | PgnError;
    if (this.failure !== null) item = this.failure;
    else {
      this.settlePending(game);
      const tagged = game.tags.get('Result');
      game.result = marker ?? (isPgnResult(tagged) ? tagged : '*');
      item = game;
      if (this.replay) {
        try {
          replayWithPlaces(game, this.places, (this.position ??= new Position()));
        } catch (e) {
          if (!(e instanceof PgnError)) throw e;
          item = e.at({ source: this.source, game: this.gameNumber });
        }
      }
    }
    this.failure = null;
    this.flushHeld();
    this.held = item;
  }

  private flushHeld(): void {
    const held = this.held;
    if (held !== null) {
      this.held = null;
      this.emit(held);
    }
  }
}

/** Every game of a PGN text, a game that cannot be read as its PgnError in its place. */
export function readPgn(text: string, options: PgnReadOptions = {}): Array<PgnGame | PgnError> {
  const out: Array<PgnGame | PgnError> = [];
  const reader = new PgnReader((g) => out.push(g), options);
  reader.push(text);
  reader.end();
  return out;
}

/** Every game of a PGN text; throws the first game's PgnError if any game cannot be read. */
export function parsePgn(text: string, options: PgnReadOptions = {}): PgnGame[] {
  return readPgn(text, options).map((g) => {
    if (g instanceof PgnError) throw g;
    return g;
  });
}

/** The one game of a PGN text (a paste box, chess.js's loadPgn); PgnError when there is none or more than one. */
export function parsePgnGame(text: string, options: PgnReadOptions = {}): PgnGame {
  const games = parsePgn(text, options);
  if (games.length !== 1)
    throw new PgnError('count', games.length === 0 ? 'no game found' : `expected one game, found ${games.length}`, {
      source: options.source,
    });
  return games[0];
}

/**
 * The games of a text that arrives in chunks (a file read as a stream, a network response),
 * each yielded as soon as it is complete: constant memory whatever the file's size. A game that
 * cannot be read is yielded as its PgnError.
 */
export async function* streamPgn(
  chunks: AsyncIterable<string> | Iterable<string>,
  options: PgnReadOptions = {},
): AsyncGenerator<PgnGame | PgnError> {
  const ready: Array<PgnGame | PgnError> = [];
  const reader = new PgnReader((g) => ready.push(g), options);
  for await (const chunk of chunks) {
    reader.push(chunk);
    while (ready.length > 0) yield ready.shift()!;
  }
  reader.end();
  while (ready.length > 0) yield ready.shift()!;
}
