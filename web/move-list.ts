/**
 * The move list of the game tree, lichess style: the main line in numbered pairs, each move's
 * variations on their own indented line in parentheses right after it (deeper variations inline
 * in nested parentheses). Every move is clickable (`data-node`); main-line moves also carry their
 * ply (`data-ply`, the index analysis results use). The shown move is `.active`.
 *
 * A loaded game's annotations (web/annotations.ts): NAGs as glyphs in the move (`.nag`), its
 * `[%clk]` as a time beside it (`.clk`), its `[%eval]` in its tooltip, comments as text (`.comment`;
 * on the main line a line of their own, the game comment first; inline in a variation). A move
 * the analysis judged shows the judgement (`.nag.judgement`) in place of its own move-quality
 * glyph, as the annotated PGN writes it; its other glyphs stay. Everything is text nodes: a
 * comment's markup is shown, never interpreted.
 */
import { JUDGEMENT_NAG, type Judgement } from '../src/analysis/win-probability.js';
import { formatEval } from '../src/analysis/analyse-game.js';
import type { Game } from './game.js';
import type { TreeNode } from './game-tree.js';
import { clockText, commentText, isMoveNag, nagName, nagSymbol } from './annotations.js';
import { el } from './grid.js';

export interface MoveListOptions {
  /** The analysis's judgement of a main-line ply, if it judged it. */
  judgementAt(ply: number): Judgement | undefined;
  /** The main-line ply picked on the evaluation graph, if any. */
  picked: number | null;
}

/** The comments of `list` that have something to show, as text. */
const shownComments = (list: readonly string[] | undefined): string[] => (list ?? []).map(commentText).filter((t) => t !== '');

const open = (): HTMLElement => el('span', { class: 'paren' }, '(');
const close = (): HTMLElement => el('span', { class: 'paren' }, ')');

/** A variation's tokens with a space between them, none inside the parentheses: `(2. d4 exd4)`. */
function spaced(items: HTMLElement[]): Array<HTMLElement | string> {
  const out: Array<HTMLElement | string> = [];
  items.forEach((e, i) => {
    const prev = items[i - 1];
    if (prev && prev.textContent !== '(' && e.textContent !== ')') out.push(' ');
    out.push(e);
  });
  return out;
}

export function renderMoveList(box: HTMLElement, game: Game, opts: MoveListOptions): void {
  const fields = game.startFen.split(/\s+/);
  const blackFirst = fields[1] === 'b';
  const firstNumber = Math.max(1, Number(fields[5]) || 1);
  const isWhite = (ply: number) => (ply + (blackFirst ? 1 : 0)) % 2 === 0;
  const number = (ply: number) => firstNumber + Math.floor((ply + (blackFirst ? 1 : 0)) / 2);
  const shown = game.cursor;

  const moveSpan = (node: TreeNode, cls: string, ply: number | null): HTMLElement => {
    const active = node === shown ? ' active' : '';
    const picked = ply !== null && opts.picked === ply ? ' picked' : '';
    const attrs: Record<string, string> = { class: `${cls}${active}${picked}`, 'data-node': String(node.id) };
    if (ply !== null) attrs['data-ply'] = String(ply);
    const a = node.annotations;
    if (a.eval !== undefined) attrs.title = `eval ${formatEval(a.eval)}${a.eval.depth !== undefined ? ` (depth ${a.eval.depth})` : ''}`;
    const span = el('span', attrs, node.san);
    const judged = ply !== null ? opts.judgementAt(ply) : undefined;
    if (judged) span.append(el('span', { class: `nag judgement ${judged}`, title: `analysis: ${judged}` }, JUDGEMENT_NAG[judged]));
    for (const nag of a.nags ?? []) {
      if (judged && nag <= 6) continue; // the judgement replaces the move's own !/?/!!/??/!?/?!
      span.append(el('span', { class: isMoveNag(nag) ? 'nag' : 'nag apart', title: nagName(nag) }, nagSymbol(nag)));
    }
    return span;
  };
  /** What follows a move: its clock time, if the PGN gave one. */
  const clockSpan = (node: TreeNode): HTMLElement[] =>
    node.annotations.clock !== undefined
      ? [el('span', { class: 'clk', title: 'clock after the move' }, clockText(node.annotations.clock))]
      : [];
  const commentSpans = (list: readonly string[] | undefined): HTMLElement[] =>
    shownComments(list).map((t) => el('span', { class: 'comment' }, t));
  const commentItems = (list: readonly string[] | undefined): HTMLElement[] =>
    shownComments(list).map((t) => el('li', { class: 'comment' }, t));

  /** A variation from `first` (an alternative move at `ply`), inline: numbers, moves and nested variations. */
  const inline = (first: TreeNode, ply: number): HTMLElement[] => {
    const out: HTMLElement[] = [];
    let node: TreeNode | null = first,
      force = true;
    while (node) {
      const before = commentSpans(node.annotations.commentsBefore);
      out.push(...before);
      if (isWhite(ply)) out.push(el('span', { class: 'num' }, `${number(ply)}.`));
      else if (force || before.length > 0) out.push(el('span', { class: 'num' }, `${number(ply)}…`));
      out.push(moveSpan(node, 'san var', null), ...clockSpan(node));
      const after = commentSpans(node.annotations.commentsAfter);
      out.push(...after);
      force = after.length > 0;
      const parent: TreeNode = node.parent!;
      // Alternatives to `node` (its later siblings) follow it, unless `node` is itself the alternative being written.
      if (node !== first) {
        for (const alt of parent.children.slice(1)) {
          out.push(open(), ...inline(alt, ply), close());
          force = true;
        }
      }
      node = node.children[0] ?? null;
      ply++;
    }
    return out;
  };

  // The game comment first; a main-line move's comments are lines of their own around its row.
  const items: HTMLElement[] = commentItems(game.tree.root.annotations.commentsAfter);
  let row: HTMLElement | null = null;
  let node = game.tree.root,
    ply = 0;
  while (node.children.length > 0) {
    const [main, ...alternatives] = node.children;
    const before = commentItems(main.annotations.commentsBefore);
    if (before.length > 0) {
      items.push(...before);
      row = null;
    }
    if (isWhite(ply) || !row) {
      row = el('li', { class: 'row' }, el('span', { class: 'num' }, `${number(ply)}.`));
      if (!isWhite(ply)) row.append(el('span', { class: 'dots' }, '…'));
      items.push(row);
    }
    row.append(moveSpan(main, 'san', ply), ...clockSpan(main));
    const after = commentItems(main.annotations.commentsAfter);
    if (after.length > 0) {
      items.push(...after);
      row = null; // Black's move after a comment starts a row of its own, as after a variation.
    }
    if (alternatives.length > 0) {
      for (const alt of alternatives) {
        items.push(el('li', { class: 'variation' }, ...spaced([open(), ...inline(alt, ply), close()])));
      }
      row = null; // Black's move after the variations starts a row of its own: "5. … Nf6".
    }
    node = main;
    ply++;
  }
  box.replaceChildren(...items);
  // Keep the shown move in view (the box scrolls, not the page).
  const active = box.querySelector<HTMLElement>('.active');
  if (!active || shown === game.tree.mainEnd()) box.scrollTop = box.scrollHeight;
  else if (active.offsetTop < box.scrollTop || active.offsetTop + active.offsetHeight > box.scrollTop + box.clientHeight)
    box.scrollTop = active.offsetTop - box.clientHeight / 2;
}
