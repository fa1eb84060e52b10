/** Small DOM helpers: 8×8 matrices as labelled grids, and element construction. */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...kids: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

export interface GridOptions {
  /** CSS class for cell i (row-major, row 0 = rank 8), e.g. 'changed'. */
  cellClass?: (i: number) => string | undefined;
  /** Text for a value (default: the number, blank-free). */
  format?: (v: number, i: number) => string;
  /** Cell tooltip. */
  title?: (i: number) => string;
  /** data-testid of the figure. */
  testid?: string;
}

const FILES = 'abcdefgh';

/** An 8×8 matrix as a table with its caption; row r is rank 8 − r, column c is file c. */
export function matrixGrid(caption: string, values: ArrayLike<number>, opts: GridOptions = {}): HTMLElement {
  const table = el('table', { class: 'mgrid' });
  const head = el('tr', {}, el('th', {}, ''));
  for (let c = 0; c < 8; c++) head.append(el('th', { class: 'lbl' }, String(c)));
  table.append(head);
  for (let r = 0; r < 8; r++) {
    const tr = el('tr', {}, el('th', { class: 'lbl', title: `row ${r} = rank ${8 - r}` }, String(r)));
    for (let c = 0; c < 8; c++) {
      const i = r * 8 + c,
        v = values[i];
      const td = el('td', {}, opts.format ? opts.format(v, i) : String(v));
      const cls = opts.cellClass?.(i);
      if (cls) td.className = cls;
      if (v === 0) td.classList.add('zero');
      td.title = opts.title?.(i) ?? `[${r},${c}] = ${FILES[c]}${8 - r}`;
      tr.append(td);
    }
    table.append(tr);
  }
  const fig = el('figure', { class: 'matrix' }, el('figcaption', {}, caption), table);
  if (opts.testid) fig.dataset.testid = opts.testid;
  return fig;
}

/** Operator symbol between grids. */
export function op(text: string): HTMLElement {
  return el('span', { class: 'op' }, text);
}

export const cellOfSquare = (sq: number): number => sq ^ 56;
export const squareOfCell = (cell: number): number => cell ^ 56;
