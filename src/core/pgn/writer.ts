/**
 * The PGN writer: a game model to text in the standard's export form. Tags in the game's order,
 * values escaped (\" and \\); a blank line; the movetext with a move number before every White
 * move and before a Black move that opens a line or follows a comment or variation, NAGs 1-6 as
 * their glyphs (e4!?) and others as $N, `[%eval]` / `[%clk]` at the head of the move's first
 * comment (or in a comment of their own), variations in parentheses; lines shorter than 80 characters; a blank line after the
 * game. A comment holding '}' cannot be a brace comment: it is written as ';' comments, one per
 * line. What the reader reads, this writes back: read → write → read gives the same game.
 */
import { PgnError } from './errors.js';
import { formatClockCommand, formatEvalCommand, GLYPH_OF_NAG, type PgnGame, type PgnMove } from './model.js';

export interface PgnWriteOptions {
  /** Longest movetext line; 0 for no wrapping. Default 79: lines of fewer than 80 characters, as the standard's export format asks. */
  maxWidth?: number;
  /** The line break (default '\n'). */
  newline?: string;
}

const TAG_NAME = /^[A-Za-z0-9_]+$/;

/** A tag pair as PGN writes it: the value's backslashes and double quotes escaped. */
export function makePgnTag(name: string, value: string): string {
  if (!TAG_NAME.test(name)) throw new PgnError('write', `tag name '${name}': expected letters, digits and _ only`);
  if (/[\r\n]/.test(value)) throw new PgnError('write', `tag ${name}: a value cannot hold a line break`);
  return `[${name} "${value.replace(/[\\"]/g, (c) => '\\' + c)}"]`;
}

/** One game as PGN text, ending in a blank line (so games written one after another make a file). */
export function makePgn(game: PgnGame, options: PgnWriteOptions = {}): string {
  const nl = options.newline ?? '\n';
  const tags: string[] = [];
  for (const [name, value] of game.tags) tags.push(makePgnTag(name, value));
  const movetext = makeMovetext(game, options.maxWidth ?? 79, nl);
  return (tags.length > 0 ? tags.join(nl) + nl + nl : '') + movetext + nl + nl;
}

/** Several games as one PGN file. */
export function makePgnGames(games: Iterable<PgnGame>, options: PgnWriteOptions = {}): string {
  let out = '';
  for (const g of games) out += makePgn(g, options);
  return out;
}

/** The movetext alone (moves, comments, variations, the result), wrapped at `maxWidth` (0: one line but for ';' comments). */
export function makeMovetext(game: PgnGame, maxWidth = 79, newline = '\n'): string {
  const units = new Units();
  for (const c of game.comments) units.comment(c);
  const fen = game.tags.get('FEN');
  const fields = fen === undefined ? [] : fen.trim().split(/\s+/);
  const fullmove = Number(fields[5]);
  writeLine(units, game.moves, Number.isInteger(fullmove) && fullmove > 0 ? fullmove : 1, fields[1] === 'b');
  units.add(game.result);
  return units.wrap(maxWidth, newline);
}

function writeLine(units: Units, line: readonly PgnMove[], fullmove: number, black: boolean): void {
  let numberDue = true;
  for (const node of line) {
    const before = node.commentsBefore;
    if (!black) units.number(`${fullmove}.`);
    else if (numberDue || (before !== undefined && before.length > 0)) units.number(`${fullmove}...`);
    if (before !== undefined) for (const c of before) units.comment(c);
    const nags = node.nags ?? [];
    let k = 0,
      san = node.san;
    if (nags.length > 0 && nags[0] >= 1 && nags[0] <= 6) san += GLYPH_OF_NAG[nags[k++]];
    units.add(san);
    for (; k < nags.length; k++) units.add(`$${nags[k]}`);
    numberDue = writeAfter(units, node);
    if (node.variations !== undefined)
      for (const v of node.variations) {
        if (v.length === 0) continue;
        units.open();
        writeLine(units, v, fullmove, black);
        units.close();
        numberDue = true;
      }
    if (black) fullmove++;
    black = !black;
  }
}

/** The comments after a move, its commands leading the first; true when anything was written. */
function writeAfter(units: Units, node: PgnMove): boolean {
  const commands: string[] = [];
  if (node.eval !== undefined) commands.push(formatEvalCommand(node.eval));
  if (node.clock !== undefined) commands.push(formatClockCommand(node.clock));
  const after = node.commentsAfter ?? [];
  let i = 0;
  if (commands.length > 0) {
    // The commands lead the first comment when the reader will give that comment back as it is
    // (it trims what is left of a comment it took commands from); else they are a comment of their own.
    if (after.length > 0 && after[0] !== '' && after[0] === after[0].trim()) units.comment(`${commands.join(' ')} ${after[i++]}`);
    else units.comment(commands.join(' '));
  }
  for (; i < after.length; i++) units.comment(after[i]);
  return commands.length > 0 || after.length > 0;
}

/**
 * Movetext units, each kept on one line: tokens, a move number with what follows it, a '(' with
 * the token after it and a ')' with the one before, and ';' comments that end their line (marked
 * by a trailing line break).
 */
class Units {
  private readonly list: string[] = [];
  /** What joins the next token to the last unit: '' after '(', ' ' after a move number (kept on its move's line), or null. */
  private glue: string | null = null;

  add(token: string): void {
    if (this.glue !== null && !this.list[this.list.length - 1].endsWith('\n')) this.list[this.list.length - 1] += this.glue + token;
    else this.list.push(token);
    this.glue = null;
  }

  number(token: string): void {
    this.add(token);
    this.glue = ' ';
  }

  comment(text: string): void {
    if (!text.includes('}')) this.add(`{${text}}`);
    else for (const part of text.split(/\r?\n|\r/)) this.add(`;${part}\n`);
  }

  open(): void {
    this.add('(');
    this.glue = '';
  }

  close(): void {
    const last = this.list.length - 1;
    if (this.list[last].endsWith('\n')) this.list.push(')');
    else this.list[last] += ')';
  }

  wrap(maxWidth: number, newline: string): string {
    const lines: string[] = [];
    let cur = '',
      width = 0;
    for (const unit of this.list) {
      const ends = unit.endsWith('\n');
      const text = ends ? unit.slice(0, -1) : unit;
      const nl = text.indexOf('\n');
      const head = nl < 0 ? text.length : nl;
      if (cur === '') cur = text;
      else if (maxWidth > 0 && width + 1 + head > maxWidth) {
        lines.push(cur);
        cur = text;
        width = 0;
      } else {
        cur += ' ' + text;
        width += 1;
      }
      width = nl < 0 ? width + text.length : text.length - text.lastIndexOf('\n') - 1;
      if (ends) {
        lines.push(cur);
        cur = '';
        width = 0;
      }
    }
    if (cur !== '') lines.push(cur);
    return lines.join(newline);
  }
}
