/**
 * PgnError: one typed error for everything that can be wrong with PGN text or a game model:
 * where (source, game number, line and column, when known) and what (`kind`, `reason`).
 */

/**
 * What is wrong: `syntax` (a character or token that cannot stand there), `comment` (a '{'
 * never closed), `variation` (unbalanced parentheses), `tag` (a malformed tag pair), `fen` (the
 * FEN tag), `move` (an illegal or unreadable move), `count` (not the one game asked for), `write`
 * (a game model the writer cannot write: a bad tag name, a tag value with a line break), `file`
 * (the text itself could not be read, e.g. a broken gzip file).
 */
export type PgnErrorKind = 'syntax' | 'comment' | 'variation' | 'tag' | 'fen' | 'move' | 'count' | 'write' | 'file';

export interface PgnErrorPlace {
  /** The file or other source the text came from. */
  source?: string;
  /** 1-based number of the game in the text. */
  game?: number;
  /** 1-based line and column (UTF-16 code units) of the offending token. */
  line?: number;
  column?: number;
}

export class PgnError extends Error {
  override readonly name = 'PgnError';
  readonly source?: string;
  readonly game?: number;
  readonly line?: number;
  readonly column?: number;

  constructor(
    readonly kind: PgnErrorKind,
    /** The problem alone, without the place: "unclosed comment: '{' has no '}'". */
    readonly reason: string,
    place: PgnErrorPlace = {},
  ) {
    super(placeText(place) + reason);
    if (place.source !== undefined) this.source = place.source;
    if (place.game !== undefined) this.game = place.game;
    if (place.line !== undefined) this.line = place.line;
    if (place.column !== undefined) this.column = place.column;
  }

  /** The same error with more of its place known (the reader adds the source and game number). */
  at(place: PgnErrorPlace): PgnError {
    return new PgnError(this.kind, this.reason, {
      source: place.source ?? this.source,
      game: place.game ?? this.game,
      line: this.line ?? place.line,
      column: this.column ?? place.column,
    });
  }
}

/** "games.pgn: game 3, line 41, column 7: " from what is known. */
function placeText(p: PgnErrorPlace): string {
  const parts: string[] = [];
  if (p.game !== undefined) parts.push(`game ${p.game}`);
  if (p.line !== undefined) parts.push(`line ${p.line}` + (p.column !== undefined ? `, column ${p.column}` : ''));
  const where = parts.join(', ');
  if (p.source !== undefined) return `${p.source}: ${where ? where + ': ' : ''}`;
  return where ? where + ': ' : '';
}
