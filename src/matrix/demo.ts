/**
 * `matrix-chess demo`: the seed's story told on this code. Every matrix printed is computed by
 * the general operations of mat8.ts (integer matrices), the same products the fast path runs
 * packed. Colour only when stdout is a TTY and NO_COLOR is unset.
 */
import * as m8 from './mat8.js';
import { MatrixBoard } from './matrix-board.js';
import { DIRECTIONS } from './basis.js';
import { FILE_NAMES } from '../core/types.js';

interface Style {
  on: boolean;
}
const style: Style = { on: false };
const paint = (code: string, s: string): string => (style.on ? `\x1b[${code}m${s}\x1b[0m` : s);

const sqName = (r: number, c: number): string => FILE_NAMES[c] + String(8 - r);

/** Shift matrix S_k as a fresh integer matrix. */
const S = (k: number): m8.Mat8 => m8.shift(m8.create(), k);
const sumM = (...xs: m8.Mat8[]): m8.Mat8 => xs.reduce((acc, x) => m8.add(acc, acc, x), m8.create());
const prod = (...xs: m8.Mat8[]): m8.Mat8 => xs.reduce((acc, x) => m8.mul(m8.create(), acc, x));
const bool = (a: m8.Mat8): m8.Mat8 => {
  for (let i = 0; i < 64; i++) a[i] = a[i] > 0 ? 1 : 0;
  return a;
};
const andNot = (a: m8.Mat8, b: m8.Mat8): m8.Mat8 => {
  const o = m8.create();
  for (let i = 0; i < 64; i++) o[i] = a[i] && !b[i] ? 1 : 0;
  return o;
};
const squares = (a: m8.Mat8): string => {
  const out: string[] = [];
  for (let i = 0; i < 64; i++) if (a[i]) out.push(sqName(i >> 3, i & 7));
  return out.length ? out.join(' ') : '(none)';
};

const H1 = sumM(S(1), S(-1)),
  H2 = sumM(S(2), S(-2));

/** A matrix as text cells: integers signed, 0/1 masks as dots and marks. */
function cells(a: ArrayLike<number>, mask: boolean): string[] {
  const lines: string[] = [];
  for (let r = 0; r < 8; r++) {
    let s = '';
    for (let c = 0; c < 8; c++) {
      const v = a[r * 8 + c];
      if (mask) s += ' ' + (v ? paint('1;32', '1') : paint('2', '·'));
      else {
        const t = v === 0 ? paint('2', '·') : v > 0 ? paint('1', String(v)) : paint('36', String(v));
        s += ' '.repeat(v < 0 ? 1 : 2) + t;
      }
    }
    lines.push(s);
  }
  return lines;
}

const visibleLength = (s: string): number => s.replace(/\x1b\[[0-9;]*m/g, '').length;

/** Prints matrices side by side under their titles. */
function show(out: string[], items: Array<{ title: string; m: ArrayLike<number>; mask?: boolean }>): void {
  const blocks = items.map((it) => ({ title: it.title, lines: cells(it.m, it.mask ?? false) }));
  const widths = blocks.map((b) => Math.max(visibleLength(b.lines[0]), b.title.length) + 4);
  out.push(blocks.map((b, i) => b.title.padEnd(widths[i])).join(''));
  for (let r = 0; r < 8; r++) {
    out.push(blocks.map((b, i) => b.lines[r] + ' '.repeat(widths[i] - visibleLength(b.lines[r]))).join(''));
  }
  out.push('');
}

function heading(out: string[], s: string): void {
  out.push(paint('1;33', s), '');
}

/** Knight targets of a one-hot P: H1·P·H2 ∨ H2·P·H1. */
const knight = (p: m8.Mat8): m8.Mat8 => bool(sumM(prod(H1, p, H2), prod(H2, p, H1)));

/** The slider ray from (r, c) in direction (dr, dc) as the seed computes it: gather, prefix, cut. */
function ray(board: MatrixBoard, r: number, c: number, dr: number, dc: number, out: string[], label: string): m8.Mat8 {
  const v = m8.createVec(),
    cellsOnRay: Array<[number, number]> = [];
  for (let t = 1; t <= 7; t++) {
    const r2 = r + t * dr,
      c2 = c + t * dc;
    if (r2 < 0 || r2 > 7 || c2 < 0 || c2 > 7) break;
    cellsOnRay.push([r2, c2]);
    v[t - 1] = board.m[r2 * 8 + c2] !== 0 ? 1 : 0;
  }
  const prefix = m8.mulVec(m8.createVec(), m8.lowerTriangular(m8.create()), v);
  const reach = m8.create();
  let first = -1;
  for (let t = 0; t < cellsOnRay.length; t++) {
    if (t === 0 || prefix[t - 1] === 0) reach[cellsOnRay[t][0] * 8 + cellsOnRay[t][1]] = 1; // nothing before it blocks
    if (first < 0 && prefix[t] > 0) first = t;
  }
  const n = cellsOnRay.length;
  if (n === 0) {
    out.push(`  ${label}: the ray leaves the board at once (empty vector)`);
    return reach;
  }
  out.push(
    `  ${label}: occ along the ray v = [${Array.from(v.subarray(0, n)).join(' ')}]   L·v = [${Array.from(prefix.subarray(0, n)).join(' ')}]` +
      (first >= 0 ? `   first non-zero at ${first}: ${sqName(...cellsOnRay[first])}` : '   no blocker'),
  );
  return reach;
}

function rookTargets(board: MatrixBoard, r: number, c: number, out: string[]): m8.Mat8 {
  const names = ['north', 'south', 'east', 'west'];
  const all = m8.create();
  for (let d = 0; d < 4; d++) m8.add(all, all, ray(board, r, c, DIRECTIONS[d][0], DIRECTIONS[d][1], out, names[d].padEnd(5)));
  out.push('');
  return bool(all);
}

function own(board: MatrixBoard, white: boolean): m8.Mat8 {
  const o = m8.create();
  for (let i = 0; i < 64; i++) o[i] = white ? (board.m[i] > 0 ? 1 : 0) : board.m[i] < 0 ? 1 : 0;
  return o;
}

export const DEMO_USAGE = 'usage: matrix-chess demo [--no-color]\n  Chess as linear algebra on an 8×8 matrix, step by step.';

/** Prints the demonstration; `color` turns on ANSI highlighting (the caller decides from the terminal). */
export function runMatrixDemo(options: { color: boolean }): number {
  style.on = options.color;
  const out: string[] = [];
  const board = MatrixBoard.start();

  heading(out, '1. The board is an 8×8 integer matrix M');
  out.push(
    '  sign = colour (+ white, − black); |M| = 1 pawn, 2 bishop, 3 knight, 4 rook, 5 queen, 6 king;',
    '  row 0 = rank 8, column 0 = file a.',
    '',
  );
  show(out, [{ title: 'M', m: board.m }]);
  out.push(`  Extraction is a product: M[7,1] = e_7ᵀ · M · e_1 = ${m8.extract(board.m, 7, 1)}  (the knight on b1)`, '');

  heading(out, '2. Where can the b1 knight go?  H1·P·H2 ∨ H2·P·H1  with H_k = S_k + S_−k');
  const pN = m8.elementary(m8.create(), 7, 1);
  const nT = knight(pN),
    nMoves = andNot(nT, own(board, true));
  show(out, [
    { title: 'P = E(7,1)', m: pN, mask: true },
    { title: 'targets', m: nT, mask: true },
    { title: 'targets ∧ ¬own', m: nMoves, mask: true },
  ]);
  out.push(`  Shifts truncate: the offsets that would leave the board simply vanish. Moves: ${squares(nMoves)}`, '');

  heading(out, '3. The boxed-in a1 rook: prefix = L · occ along each ray, the first non-zero entry is the blocker');
  const rT = rookTargets(board, 7, 0, out);
  out.push(`  Reachable squares: ${squares(rT)}; after removing its own pieces: ${squares(andNot(rT, own(board, true)))}`, '');

  heading(out, '4. The a2 pawn: forward is S_−1 · P (pawns are control flow, their squares still come from shifts)');
  const pP = m8.elementary(m8.create(), 6, 0);
  const f1 = prod(S(-1), pP),
    f2 = prod(S(-1), f1);
  show(out, [
    { title: 'P = E(6,0)', m: pP, mask: true },
    { title: 'S_−1 · P', m: f1, mask: true },
    { title: 'S_−1 · S_−1 · P', m: f2, mask: true },
  ]);
  out.push('  The double step is allowed (a rule, not a map) because the pawn is on its start row and a3 is empty.', '');

  heading(out, '5. a2–a4 as one affine update: M′ = (M ⊙ Z) + v · E(r2,c2),  Z = J − E(6,0) − E(4,0)');
  const step = board.applyMove(6, 0, 4, 0);
  show(out, [
    { title: 'Z', m: step.z, mask: true },
    { title: 'E(4,0) = e_4 e_0ᵀ', m: step.e, mask: true },
    { title: `M′ (v = ${step.v})`, m: step.after },
  ]);
  const rT2 = andNot(rookTargets(board, 7, 0, out), own(board, true));
  out.push(`  The rook now reaches: ${squares(rT2)}`);
  const f3 = andNot(prod(S(-1), m8.elementary(m8.create(), 4, 0)), own(board, true));
  out.push(`  The pawn's single step: S_−1 · E(4,0) = ${squares(f3)} (no double step: it has left its start row)`, '');

  heading(out, '6. Black replies d7–d5, then Nb1–c3 and its targets from c3');
  board.applyMove(1, 3, 3, 3);
  board.applyMove(7, 1, 5, 2);
  const pC3 = m8.elementary(m8.create(), 5, 2);
  const c3T = knight(pC3),
    c3Moves = andNot(c3T, own(board, true));
  show(out, [
    { title: 'M', m: board.m },
    { title: 'targets from c3', m: c3T, mask: true },
    { title: '∧ ¬own', m: c3Moves, mask: true },
  ]);
  out.push(`  Knight moves: ${squares(c3Moves)}  (d5 holds a black pawn: a capture)`, '');

  heading(out, '7. A capture is the same update: Nc3×d5');
  const cap = board.applyMove(5, 2, 3, 3);
  show(out, [
    { title: 'M', m: cap.before },
    { title: 'Z = J − E(5,2) − E(3,3)', m: cap.z, mask: true },
    { title: 'M ⊙ Z', m: m8.hadamard(m8.create(), cap.before, cap.z) },
  ]);
  show(out, [
    { title: 'E(3,3) = e_3 e_3ᵀ', m: cap.e, mask: true },
    { title: `v · E(3,3), v = ${cap.v}`, m: m8.scale(m8.create(), cap.e, cap.v) },
    { title: 'M′ = (M ⊙ Z) + v·E', m: cap.after },
  ]);
  out.push('  No piece-specific branch: the pawn on d5 is masked out by Z exactly like an empty square would be.', '');
  out.push(board.toString(), '');
  out.push(
    '  Turn order, legality (own king not left attacked), castling, en passant, promotion and game end are',
    '  explicit control flow: see docs/the-line.md.',
    '',
  );

  process.stdout.write(out.join('\n') + '\n');
  return 0;
}
