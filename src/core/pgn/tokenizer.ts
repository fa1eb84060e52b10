/**
 * PGN text to tokens, one line at a time, so a file can be read in chunks in constant memory:
 * only an open brace comment is carried from line to line. Tokens go to a sink with their line
 * and column (1-based); nothing is allocated per token but its text.
 *
 * As the standard says: a '%' in the first column escapes the whole line; ';' comments run to
 * the end of the line; '{' comments run to the next '}' across lines; strings (tag values) end
 * on their line and take \" and \\ as escapes; periods are skipped; '!', '?' glyphs and $N are
 * NAGs. A '{' still open when a line starts with a tag pair is an unclosed comment (a comment
 * holding a line such as [Event "…"] is far less likely than a forgotten '}'), reported at its
 * '{', and the line is read as tags.
 */
import type { PgnErrorKind } from './errors.js';
import { NAG_OF_GLYPH } from './model.js';

export const T_TAG_OPEN = 1;
export const T_TAG_CLOSE = 2;
/** A tag value, its escapes undone. */
export const T_STRING = 3;
/** A move or tag name: letters, digits and _+#=:-/ (not all digits, not a result). */
export const T_SYMBOL = 4;
/** A move number (digits; the periods after it are skipped). */
export const T_NUMBER = 5;
/** A NAG: text is its number ("1" for $1 or '!'). */
export const T_NAG = 6;
/** A comment's text, as written between the braces or after the ';'. */
export const T_COMMENT = 7;
export const T_OPEN = 8;
export const T_CLOSE = 9;
/** A game termination marker: 1-0, 0-1, 1/2-1/2 or *. */
export const T_RESULT = 10;

export interface PgnTokenSink {
  token(kind: number, text: string, line: number, column: number): void;
  error(kind: PgnErrorKind, reason: string, line: number, column: number): void;
}

/** A line that starts with a tag pair ends a comment left open. */
const TAG_LINE = /^\s*\[\s*[A-Za-z0-9_]+\s+"/;

/** Symbol characters: A-Z a-z 0-9 _ + # = : - / */
const SYMBOL = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+#=:-/') SYMBOL[c.charCodeAt(0)] = 1;

function isDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return s.length > 0;
}

/** A character as an error message shows it: printable as itself, anything else as \uXXXX. */
function shown(c: number): string {
  return c > 32 && c < 127 ? `'${String.fromCharCode(c)}'` : `'\\u${c.toString(16).padStart(4, '0')}'`;
}

export class PgnTokenizer {
  private lineNo = 0;
  /** The open brace comment's lines so far, or null. */
  private comment: string[] | null = null;
  private commentLine = 0;
  private commentColumn = 0;

  constructor(private readonly sink: PgnTokenSink) {}

  /** The number of the last line read. */
  get line(): number {
    return this.lineNo;
  }

  /** Reads one line of text, without its line break. */
  readLine(text: string): void {
    const sink = this.sink,
      lineNo = ++this.lineNo,
      n = text.length;
    let i = 0;
    if (this.comment !== null) {
      if (TAG_LINE.test(text)) {
        this.comment = null;
        sink.error(
          'comment',
          `unclosed comment: the '{' here has no '}' before the tag pair on line ${lineNo}`,
          this.commentLine,
          this.commentColumn,
        );
      } else {
        const close = text.indexOf('}');
        if (close < 0) {
          this.comment.push(text);
          return;
        }
        this.comment.push(text.slice(0, close));
        sink.token(T_COMMENT, this.comment.join('\n'), this.commentLine, this.commentColumn);
        this.comment = null;
        i = close + 1;
      }
    } else if (n > 0 && text.charCodeAt(0) === 37 /* % */) return;

    while (i < n) {
      const c = text.charCodeAt(i);
      if (c <= 32 || c === 0xa0 || c === 0xfeff) {
        i++;
        continue;
      }
      const column = i + 1;
      switch (c) {
        case 123 /* { */: {
          const close = text.indexOf('}', i + 1);
          if (close < 0) {
            this.comment = [text.slice(i + 1)];
            this.commentLine = lineNo;
            this.commentColumn = column;
            return;
          }
          sink.token(T_COMMENT, text.slice(i + 1, close), lineNo, column);
          i = close + 1;
          continue;
        }
        case 59 /* ; */:
          sink.token(T_COMMENT, text.slice(i + 1), lineNo, column);
          return;
        case 91 /* [ */:
          sink.token(T_TAG_OPEN, '[', lineNo, column);
          i++;
          continue;
        case 93 /* ] */:
          sink.token(T_TAG_CLOSE, ']', lineNo, column);
          i++;
          continue;
        case 40 /* ( */:
          sink.token(T_OPEN, '(', lineNo, column);
          i++;
          continue;
        case 41 /* ) */:
          sink.token(T_CLOSE, ')', lineNo, column);
          i++;
          continue;
        case 42 /* * */:
          sink.token(T_RESULT, '*', lineNo, column);
          i++;
          continue;
        case 46 /* . */:
          i++;
          continue;
        case 34 /* " */: {
          let value = '',
            j = i + 1,
            from = j,
            closed = false;
          for (; j < n; j++) {
            const d = text.charCodeAt(j);
            if (d === 34) {
              closed = true;
              break;
            }
            if (d === 92 /* \ */ && j + 1 < n) {
              const e = text.charCodeAt(j + 1);
              if (e === 34 || e === 92) {
                value += text.slice(from, j);
                from = j + 1; // keep the escaped character, drop the backslash
                j++;
              }
            }
          }
          if (!closed) {
            sink.error('tag', "unterminated string: no closing '\"' on this line", lineNo, column);
            return;
          }
          sink.token(T_STRING, value + text.slice(from, j), lineNo, column);
          i = j + 1;
          continue;
        }
        case 36 /* $ */: {
          let j = i + 1;
          while (j < n && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
          if (j === i + 1) sink.error('syntax', "'$' without a number (a NAG is $ and digits, e.g. $1)", lineNo, column);
          else sink.token(T_NAG, String(Number(text.slice(i + 1, j))), lineNo, column);
          i = j;
          continue;
        }
        case 33 /* ! */:
        case 63 /* ? */: {
          let j = i + 1;
          while (j < n && (text.charCodeAt(j) === 33 || text.charCodeAt(j) === 63)) j++;
          const glyph = text.slice(i, j);
          const nag = NAG_OF_GLYPH[glyph];
          if (nag === undefined) sink.error('syntax', `unknown annotation '${glyph}' (expected !, ?, !!, ??, !? or ?!)`, lineNo, column);
          else sink.token(T_NAG, String(nag), lineNo, column);
          i = j;
          continue;
        }
      }
      if (c < 128 && SYMBOL[c] === 1 && (c !== 45 /* - */ || text.charCodeAt(i + 1) === 45)) {
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d >= 128 || SYMBOL[d] !== 1) break;
          j++;
        }
        const sym = text.slice(i, j);
        const first = sym.charCodeAt(0);
        if (first >= 48 && first <= 57) {
          if (sym === '1-0' || sym === '0-1' || sym === '1/2-1/2') sink.token(T_RESULT, sym, lineNo, column);
          else if (isDigits(sym)) sink.token(T_NUMBER, sym, lineNo, column);
          else sink.token(T_SYMBOL, sym, lineNo, column);
        } else sink.token(T_SYMBOL, sym, lineNo, column);
        i = j;
        continue;
      }
      sink.error('syntax', `unexpected character ${shown(c)}`, lineNo, column);
      i++;
    }
  }

  /** The end of the text: a brace comment still open is an error. */
  end(): void {
    if (this.comment !== null) {
      this.comment = null;
      this.sink.error(
        'comment',
        "unclosed comment: the '{' here has no '}' before the end of the text",
        this.commentLine,
        this.commentColumn,
      );
    }
  }
}
