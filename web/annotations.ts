/**
 * How the move list shows a loaded game's annotations: NAGs as lichess's glyphs, comments as
 * plain text without their embedded commands, a `[%clk]` as a clock time. Display only: the tree
 * keeps the annotations as read, and the PGN export writes them back unchanged.
 */

/**
 * lichess's glyphs (scalachess Glyph): move assessments, position assessments, observations;
 * but $14 and $15 in their typed forms +/= and =/+, since common system fonts lack ⩲ and ⩱ (the
 * page ships no font of its own) and a missing glyph would show as an empty box.
 */
const GLYPHS: ReadonlyMap<number, readonly [symbol: string, name: string]> = new Map([
  [1, ['!', 'Good move']],
  [2, ['?', 'Mistake']],
  [3, ['!!', 'Brilliant move']],
  [4, ['??', 'Blunder']],
  [5, ['!?', 'Interesting move']],
  [6, ['?!', 'Dubious move']],
  [7, ['□', 'Only move']],
  [22, ['⨀', 'Zugzwang']],
  [10, ['=', 'Equal position']],
  [13, ['∞', 'Unclear position']],
  [14, ['+/=', 'White is slightly better']],
  [15, ['=/+', 'Black is slightly better']],
  [16, ['±', 'White is better']],
  [17, ['∓', 'Black is better']],
  [18, ['+−', 'White is winning']],
  [19, ['-+', 'Black is winning']],
  [146, ['N', 'Novelty']],
  [32, ['↑↑', 'Development']],
  [36, ['↑', 'Initiative']],
  [40, ['→', 'Attack']],
  [132, ['⇆', 'Counterplay']],
  [138, ['⊕', 'Time trouble']],
  [44, ['=∞', 'With compensation']],
  [140, ['∆', 'With the idea']],
]);

/** A NAG as shown: its glyph, or `$n` for one without (as lichess shows those). */
export function nagSymbol(nag: number): string {
  return GLYPHS.get(nag)?.[0] ?? `$${nag}`;
}

/** A NAG's meaning, for its tooltip. */
export function nagName(nag: number): string {
  return GLYPHS.get(nag)?.[1] ?? `NAG $${nag}`;
}

/** Move-quality NAGs (!, ?, …, □, zugzwang) are written against the move; the others stand apart from it. */
export function isMoveNag(nag: number): boolean {
  return (nag >= 1 && nag <= 7) || nag === 22;
}

/**
 * A comment as the move list shows it: embedded commands (`[%eval …]`, `[%clk …]` left in the
 * text, `[%csl …]`, `[%cal …]`, any `[%name …]`) taken out and the spaces collapsed; '' when
 * nothing is left to show.
 */
export function commentText(comment: string): string {
  return comment
    .replace(/\[%[^\]]*\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A `[%clk]` time (seconds) as a clock shows it: m:ss, or h:mm:ss from an hour, tenths when the PGN had them. */
export function clockText(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  const whole = Math.floor(tenths / 10),
    frac = tenths % 10;
  const h = Math.floor(whole / 3600),
    m = Math.floor((whole % 3600) / 60),
    s = whole % 60;
  const ss = `${String(s).padStart(2, '0')}${frac > 0 ? `.${frac}` : ''}`;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
