/**
 * PGN export of match games: the seven-tag roster, SetUp/FEN when the game did not start from
 * the standard position, TimeControl and Termination, SAN movetext wrapped at 80 columns, and
 * optional per-move comments (engine score/depth/time).
 */
import { START_FEN } from './fen.js';
import type { Score } from './types.js';

export type PgnResult = '1-0' | '0-1' | '1/2-1/2' | '*';

export interface PgnGame {
  event: string;
  site: string;
  /** YYYY.MM.DD */
  date: string;
  round: string;
  white: string;
  black: string;
  result: PgnResult;
  /** FEN the game started from (START_FEN for the standard start). */
  fen: string;
  san: string[];
  /** Comment after each move (same index as `san`), or undefined for none. */
  comments?: Array<string | undefined>;
  /** Suffix annotation after each move ('?!', '?', '??'), or undefined for none. */
  nags?: Array<string | undefined>;
  /** SAN moves to play instead of move i (a variation after it), or undefined for none. */
  variations?: Array<string[] | undefined>;
  /** PGN TimeControl value, e.g. "10+0.1". */
  timeControl?: string;
  /** Standard Termination value: normal, time forfeit, rules infraction, adjudication, abandoned. */
  termination?: string;
  /** Comment after the last move saying how the game ended, e.g. "Black loses on time". */
  finalComment?: string;
  /** Extra tags written after the standard ones. */
  extraTags?: Array<[string, string]>;
}

/** An engine score as PGN comments carry it: pawns from the mover's view ("+0.35") or mate ("-M3"). */
export function pgnScore(s: Score): string {
  if ('mate' in s) return `${s.mate > 0 ? '+' : '-'}M${Math.abs(s.mate)}`;
  return `${s.cp >= 0 ? '+' : ''}${(s.cp / 100).toFixed(2)}`;
}

export function pgnDate(d = new Date()): string {
  return d.toISOString().slice(0, 10).replace(/-/g, '.');
}

/** Tag values lose double quotes and backslashes: escapes are legal PGN but many readers reject them. */
function tag(name: string, value: string): string {
  return `[${name} "${value.replace(/"/g, "'").replace(/\\/g, '/')}"]`;
}

/** Braces cannot be nested or escaped in PGN comments, so they are replaced. */
function comment(text: string): string {
  return `{${text.replace(/[{}]/g, (c) => (c === '{' ? '(' : ')'))}}`;
}

/** Movetext tokens of a variation starting at move `moveNo` with white (or black) to move. */
function variationTokens(san: string[], moveNo: number, white: boolean): string[] {
  const tokens: string[] = [];
  san.forEach((m, i) => {
    if (white) tokens.push(`${moveNo}.`);
    else if (i === 0) tokens.push(`${moveNo}...`);
    tokens.push(m);
    if (!white) moveNo++;
    white = !white;
  });
  return tokens;
}

export function writePgnGame(g: PgnGame): string {
  const lines = [
    tag('Event', g.event),
    tag('Site', g.site),
    tag('Date', g.date),
    tag('Round', g.round),
    tag('White', g.white),
    tag('Black', g.black),
    tag('Result', g.result),
  ];
  if (g.fen !== START_FEN) lines.push(tag('SetUp', '1'), tag('FEN', g.fen));
  if (g.timeControl) lines.push(tag('TimeControl', g.timeControl));
  if (g.termination) lines.push(tag('Termination', g.termination));
  lines.push(tag('PlyCount', String(g.san.length)));
  for (const [k, v] of g.extraTags ?? []) lines.push(tag(k, v));

  const fields = g.fen.split(/\s+/);
  let white = fields[1] !== 'b';
  let moveNo = Number(fields[5]) || 1;
  const tokens: string[] = [];
  g.san.forEach((san, i) => {
    if (white) tokens.push(`${moveNo}.`);
    else if (i === 0 || g.comments?.[i - 1] !== undefined || g.variations?.[i - 1] !== undefined) tokens.push(`${moveNo}...`);
    tokens.push(san + (g.nags?.[i] ?? ''));
    // One comment per move: some readers reject two in a row, so the ending joins the last one.
    let c = g.comments?.[i];
    if (i === g.san.length - 1 && g.finalComment) c = c === undefined ? g.finalComment : `${c}, ${g.finalComment}`;
    if (c !== undefined) tokens.push(comment(c));
    const variation = g.variations?.[i];
    if (variation !== undefined && variation.length > 0) {
      const line = variationTokens(variation, moveNo, white);
      line[0] = `(${line[0]}`;
      line[line.length - 1] += ')';
      tokens.push(...line);
    }
    if (!white) moveNo++;
    white = !white;
  });
  if (g.finalComment && g.san.length === 0) tokens.push(comment(g.finalComment));
  tokens.push(g.result);

  // Wrap movetext at 80 columns; a long comment may exceed it on its own line, which is legal.
  const text: string[] = [];
  let line = '';
  for (const t of tokens) {
    if (line.length > 0 && line.length + 1 + t.length > 80) {
      text.push(line);
      line = t;
    } else line = line ? `${line} ${t}` : t;
  }
  if (line) text.push(line);
  return `${lines.join('\n')}\n\n${text.join('\n')}\n\n`;
}
