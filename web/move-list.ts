/**
 * The move list of the game tree, lichess style: the main line in numbered pairs, each move's
 * variations on their own indented line in parentheses right after it (deeper variations inline
 * in nested parentheses). Every move is clickable (`data-node`); main-line moves also carry their
 * ply (`data-ply`, the index analysis results use). The shown move is `.active`.
 */
import type { Game } from './game.js';
import type { TreeNode } from './game-tree.js';
import { el } from './grid.js';

export interface MoveListOptions {
  /** `??`, `?`, `?!` of an analysed main-line ply, or ''. */
  nagAt(ply: number): string;
  /** The main-line ply picked on the evaluation graph, if any. */
  picked: number | null;
}

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
    return el('span', attrs, node.san + (ply !== null ? opts.nagAt(ply) : ''));
  };

  /** A variation from `first` (an alternative move at `ply`), inline: numbers, moves and nested variations. */
  const inline = (first: TreeNode, ply: number): HTMLElement[] => {
    const out: HTMLElement[] = [];
    let node: TreeNode | null = first,
      force = true;
    while (node) {
      if (isWhite(ply)) out.push(el('span', { class: 'num' }, `${number(ply)}.`));
      else if (force) out.push(el('span', { class: 'num' }, `${number(ply)}…`));
      out.push(moveSpan(node, 'san var', null));
      force = false;
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

  const items: HTMLElement[] = [];
  let row: HTMLElement | null = null;
  let node = game.tree.root,
    ply = 0;
  while (node.children.length > 0) {
    const [main, ...alternatives] = node.children;
    if (isWhite(ply) || !row) {
      row = el('li', { class: 'row' }, el('span', { class: 'num' }, `${number(ply)}.`));
      if (!isWhite(ply)) row.append(el('span', { class: 'dots' }, '…'));
      items.push(row);
    }
    row.append(moveSpan(main, 'san', ply));
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
