/**
 * The "see inside: matrix model" panels, computed with the real src/matrix code:
 *   - the last move as the affine update M′ = (M ⊙ Z) + v·E(r2,c2), Z = J − E(r,c) − E(r2,c2),
 *     computed entry by entry with mat8 and checked against MatrixPosition.makeMove;
 *   - a selected piece's targets as the shift-matrix products that produce them (knight, king,
 *     pawn), or a slider's rays as L·occ prefix sums with the first blocker, each checked against
 *     the packed products the matrix move generator uses (matrix-attacks.ts).
 */
import type { Position } from '../src/core/position.js';
import { KIND_CASTLE, KIND_EN_PASSANT, castleRookTo, moveFrom, moveKind, movePromo, moveTo } from '../src/core/move.js';
import { BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, PIECE_NAMES, squareName } from '../src/core/types.js';
import * as m8 from '../src/matrix/mat8.js';
import { support } from '../src/matrix/bitmat.js';
import { MatrixPosition } from '../src/matrix/matrix-position.js';
import { MatrixBoard, type AffineStep } from '../src/matrix/matrix-board.js';
import { DIRECTIONS, DIRECTION_NAMES } from '../src/matrix/basis.js';
import { kingTargets, knightTargets, pawnCaptureTargets, pawnForward, rayAttacks } from '../src/matrix/matrix-attacks.js';
import { el, matrixGrid, op } from './grid.js';

const FILES = 'abcdefgh';
const cellName = (i: number): string => `${FILES[i & 7]}${8 - (i >> 3)}`;

// ---------- last move: the affine update ----------

export interface MoveUpdate {
  M: Int8Array;
  Z: m8.Mat8;
  vE: m8.Mat8;
  Mprime: m8.Mat8;
  v: number;
  fromCell: number;
  toCell: number;
  /** After the second update of castling (rook) or en passant (captured pawn), from MatrixPosition. */
  extra: { label: string; M: Int8Array } | null;
  /** The final board equals the fast matrix position's own update. */
  agrees: boolean;
}

/**
 * `before` is the position before `move` (not changed). The update is MatrixBoard.applyMove (the
 * seed's readable operations, mat8.ts); castling's rook and the en-passant pawn are one more
 * update of the same form. The result is compared with the fast MatrixPosition.makeMove.
 */
export function moveUpdate(before: Position, move: number): MoveUpdate {
  const mp = MatrixPosition.fromPosition(before);
  const M = mp.matrix();
  const from = moveFrom(move),
    to = moveTo(move),
    promo = movePromo(move),
    kind = moveKind(move);
  const fromCell = from ^ 56,
    toCell = to ^ 56;
  const board = new MatrixBoard(M);
  const value = promo ? (M[fromCell] > 0 ? promo : -promo) : undefined;
  let step: AffineStep,
    extra: MoveUpdate['extra'] = null;
  if (kind === KIND_CASTLE) {
    // Two updates; the king's also lifts the rook, so Chess960 castles where the pieces swap squares work too.
    const rf = before.castleRookFrom(move) ^ 56,
      rt = castleRookTo(move) ^ 56;
    const [kingStep] = board.castle([fromCell >> 3, fromCell & 7], [toCell >> 3, toCell & 7], [rf >> 3, rf & 7], [rt >> 3, rt & 7]);
    step = kingStep;
    extra = { label: 'M″: the rook’s update, same form', M: board.m.slice() };
  } else {
    step = board.applyMove(fromCell >> 3, fromCell & 7, toCell >> 3, toCell & 7, value);
  }
  const Z = step.z;
  const vE = m8.scale(m8.create(), step.e, step.v) as m8.Mat8;
  const Mprime = m8.copy(m8.create(), step.after) as m8.Mat8;
  if (kind === KIND_EN_PASSANT) {
    const cap = (M[fromCell] > 0 ? to - 8 : to + 8) ^ 56;
    board.clear(cap >> 3, cap & 7);
    extra = { label: 'M″ = M′ ⊙ (J − E(captured pawn))', M: board.m.slice() };
  }
  mp.makeMove(move);
  const agrees = m8.equals(board.m, mp.matrix());
  return { M, Z, vE, Mprime, v: step.v, fromCell, toCell, extra, agrees };
}

export function renderMoveUpdate(u: MoveUpdate, san: string): HTMLElement {
  const changed = (a: ArrayLike<number>, b: ArrayLike<number>) => (i: number) => (a[i] !== b[i] ? 'changed' : undefined);
  const mark = (i: number) => (i === u.fromCell ? 'from' : i === u.toCell ? 'to' : undefined);
  const sign = (v: number) => (v > 0 ? `+${v}` : String(v));
  const fmt = (v: number) => (v === 0 ? '·' : String(v));
  const r = u.fromCell >> 3,
    c = u.fromCell & 7,
    r2 = u.toCell >> 3,
    c2 = u.toCell & 7;
  const box = el('div', { class: 'panel-body', 'data-testid': 'move-update' });
  box.append(
    el(
      'p',
      { class: 'formula' },
      `${san}: M′ = (M ⊙ Z) + v·E(${r2},${c2}),  Z = J − E(${r},${c}) − E(${r2},${c2}),  v = ${sign(u.v)} (${PIECE_NAMES[Math.abs(u.v)]})`,
    ),
  );
  const row = el('div', { class: 'grids' });
  row.append(
    matrixGrid('M', u.M, { cellClass: mark, format: fmt, testid: 'grid-M' }),
    op('⊙'),
    matrixGrid('Z', u.Z, { cellClass: (i) => (u.Z[i] === 0 ? 'changed' : undefined), format: fmt, testid: 'grid-Z' }),
    op('+'),
    matrixGrid('v·E', u.vE, { cellClass: (i) => (u.vE[i] !== 0 ? 'changed' : undefined), format: fmt, testid: 'grid-vE' }),
    op('='),
    matrixGrid('M′', u.Mprime, { cellClass: changed(u.M, u.Mprime), format: fmt, testid: 'grid-Mprime' }),
  );
  if (u.extra) row.append(op('→'), matrixGrid(u.extra.label, u.extra.M, { cellClass: changed(u.M, u.extra.M), format: fmt }));
  box.append(row);
  box.append(
    el(
      'p',
      { class: u.agrees ? 'ok' : 'bad' },
      u.agrees
        ? '✓ computed by MatrixBoard.applyMove and equal to the fast MatrixPosition.makeMove (src/matrix). Sign = colour (+ white), |M|: 1 pawn 2 bishop 3 knight 4 rook 5 queen 6 king; row 0 = rank 8.'
        : '✗ differs from MatrixPosition.makeMove — please report',
    ),
  );
  return box;
}

// ---------- selected piece: target products ----------

export interface PieceProducts {
  /** Squares (core numbering) the product says the piece reaches (pseudo-moves: before the control-flow rules). */
  targets: number[];
  element: HTMLElement;
}

function packedSquares(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let s = 0; s < 64; s++) if (s < 32 ? (lo >>> s) & 1 : (hi >>> (s - 32)) & 1) out.push(s);
  return out;
}

function nonzeroSquares(a: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < 64; i++) if (a[i] !== 0) out.push(i ^ 56);
  return out.sort((x, y) => x - y);
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function shiftSum(ks: number[]): m8.Mat8 {
  const out = m8.create(),
    t = m8.create();
  for (const k of ks) m8.add(out, out, m8.shift(t, k));
  return out;
}

const mul3 = (a: ArrayLike<number>, b: ArrayLike<number>, c: ArrayLike<number>): m8.Mat8 =>
  m8.mul(m8.create(), m8.mul(m8.create(), a, b), c) as m8.Mat8;

const fmt01 = (v: number) => (v === 0 ? '·' : String(v));
const pk = new Int32Array(2);

export function pieceProducts(pos: Position, sq: number): PieceProducts | null {
  const piece = pos.board[sq];
  if (!piece) return null;
  const type = piece & 7,
    color = piece >> 3;
  const cell = sq ^ 56,
    r = cell >> 3,
    c = cell & 7;
  const P = m8.elementary(m8.create(), r, c) as m8.Mat8;
  const box = el('div', { class: 'panel-body', 'data-testid': 'piece-products' });
  const name = `${color ? 'black' : 'white'} ${PIECE_NAMES[type]} on ${squareName(sq)}`;
  const sel = (i: number) => (i === cell ? 'from' : undefined);

  if (type === KNIGHT || type === KING) {
    let targets: number[];
    const row = el('div', { class: 'grids' });
    if (type === KNIGHT) {
      const H1 = shiftSum([1, -1]),
        H2 = shiftSum([2, -2]);
      const A = mul3(H1, P, H2),
        B = mul3(H2, P, H1);
      const N = m8.add(m8.create(), A, B);
      targets = nonzeroSquares(N);
      box.append(
        el('p', { class: 'formula' }, `${name}: N(P) = H1·P·H2 + H2·P·H1,  H1 = S₁ + S₋₁ (one step either way), H2 = S₂ + S₋₂ (two steps)`),
      );
      row.append(
        matrixGrid('P = E(r,c)', P, { cellClass: sel, format: fmt01 }),
        op('→'),
        matrixGrid('H1·P·H2', A, { cellClass: (i) => (A[i] ? 'target' : sel(i)), format: fmt01, testid: 'grid-H1PH2' }),
        op('+'),
        matrixGrid('H2·P·H1', B, { cellClass: (i) => (B[i] ? 'target' : sel(i)), format: fmt01, testid: 'grid-H2PH1' }),
        op('='),
        matrixGrid('N(P)', N, { cellClass: (i) => (N[i] ? 'target' : sel(i)), format: fmt01 }),
      );
      knightTargets(pk, 0, sq < 32 ? 1 << sq : 0, sq < 32 ? 0 : 1 << (sq - 32));
    } else {
      const T1 = shiftSum([-1, 0, 1]);
      const K = mul3(T1, P, T1);
      const Kx = m8.sub(m8.create(), K, P);
      targets = nonzeroSquares(Kx);
      box.append(el('p', { class: 'formula' }, `${name}: K(P) = T1·P·T1 − P,  T1 = S₋₁ + I + S₁ (at most one step either way)`));
      row.append(
        matrixGrid('P = E(r,c)', P, { cellClass: sel, format: fmt01 }),
        op('→'),
        matrixGrid('T1·P·T1', K, { cellClass: (i) => (K[i] ? 'target' : undefined), format: fmt01, testid: 'grid-T1PT1' }),
        op('−'),
        matrixGrid('P', P, { cellClass: sel, format: fmt01 }),
        op('='),
        matrixGrid('K(P)', Kx, { cellClass: (i) => (Kx[i] ? 'target' : sel(i)), format: fmt01 }),
      );
      kingTargets(pk, 0, sq < 32 ? 1 << sq : 0, sq < 32 ? 0 : 1 << (sq - 32));
    }
    box.append(row);
    const agree = sameSet(targets, packedSquares(pk[0], pk[1]));
    box.append(
      el(
        'p',
        { class: agree ? 'ok' : 'bad' },
        agree
          ? `✓ same squares as the packed Boolean product in src/matrix/matrix-attacks.ts (${type === KNIGHT ? 'knightTargets' : 'kingTargets'}). Own pieces are then removed, and for the king the attacked squares and castling: that part is control flow.`
          : '✗ differs from matrix-attacks.ts — please report',
      ),
    );
    return { targets, element: box };
  }

  if (type === PAWN) {
    const S = m8.shift(m8.create(), color === 0 ? -1 : 1) as m8.Mat8;
    const F = m8.mul(m8.create(), S, P) as m8.Mat8;
    const H1 = shiftSum([1, -1]);
    const X = m8.mul(m8.create(), F, H1) as m8.Mat8;
    box.append(el('p', { class: 'formula' }, `${name}: forward F(P) = S${color === 0 ? '₋₁' : '₁'}·P, capture squares F(P)·H1`));
    box.append(
      el(
        'div',
        { class: 'grids' },
        matrixGrid('P', P, { cellClass: sel, format: fmt01 }),
        op('→'),
        matrixGrid(`F(P) = S${color === 0 ? '₋₁' : '₁'}·P`, F, { cellClass: (i) => (F[i] ? 'target' : sel(i)), format: fmt01 }),
        op('·H1 →'),
        matrixGrid('F(P)·H1', X, { cellClass: (i) => (X[i] ? 'target' : sel(i)), format: fmt01 }),
      ),
    );
    const b = new Int32Array(4);
    const lo = sq < 32 ? 1 << sq : 0,
      hi = sq < 32 ? 0 : 1 << (sq - 32);
    pawnForward(b, 0, color, lo, hi);
    pawnCaptureTargets(b, 2, color, lo, hi);
    const agree = sameSet(nonzeroSquares(F), packedSquares(b[0], b[1])) && sameSet(nonzeroSquares(X), packedSquares(b[2], b[3]));
    box.append(
      el(
        'p',
        { class: 'control-flow', 'data-testid': 'pawn-control-flow' },
        'Pawns are mostly on the control-flow side of the line: a push needs an empty square, the double push needs the start row and two empty squares, ' +
          'a capture needs an enemy piece (or the en-passant square), and reaching the last row means choosing a promotion piece. ' +
          'Only the two shifts above are linear algebra.',
      ),
    );
    box.append(
      el(
        'p',
        { class: agree ? 'ok' : 'bad' },
        agree ? '✓ same as pawnForward / pawnCaptureTargets in src/matrix/matrix-attacks.ts' : '✗ differs from matrix-attacks.ts',
      ),
    );
    return { targets: [...nonzeroSquares(F), ...nonzeroSquares(X)].sort((x, y) => x - y), element: box };
  }

  // Sliders: one ray per direction with the prefix sums L·occ along it.
  const dirs = type === ROOK ? [0, 1, 2, 3] : type === BISHOP ? [4, 5, 6, 7] : [0, 1, 2, 3, 4, 5, 6, 7];
  const occ = new Int32Array(2);
  support(occ, 0, MatrixPosition.fromPosition(pos).matrix());
  const L = m8.lowerTriangular(m8.create());
  const o = m8.createVec(),
    pre = m8.createVec();
  const targets: number[] = [];
  box.append(
    el(
      'p',
      { class: 'formula' },
      `${name}: along each ray, occ = occupancy of the ray’s squares, L·occ = its prefix sums (L lower-triangular ones). ` +
        'A square is reached when no blocker comes before it: (L·occ)ᵢ − occᵢ = 0; the first 1 in occ is the first blocker (included).',
    ),
  );
  const rays = el('div', { class: 'rays', 'data-testid': 'slider-rays' });
  let agree = true;
  const t = new Int32Array(2);
  for (const d of dirs) {
    const [dr, dc] = DIRECTIONS[d];
    const cells: number[] = [];
    for (let rr = r + dr, cc = c + dc; rr >= 0 && rr < 8 && cc >= 0 && cc < 8; rr += dr, cc += dc) cells.push(rr * 8 + cc);
    if (cells.length === 0) continue;
    o.fill(0);
    cells.forEach((ci, k) => {
      o[k] = pos.board[ci ^ 56] !== 0 ? 1 : 0;
    });
    m8.mulVec(pre, L, o);
    const reached: number[] = [];
    let blocker = -1;
    const table = el('table', { class: 'ray' });
    const trSq = el('tr', {}, el('th', {}, 'square'));
    const trOcc = el('tr', {}, el('th', {}, 'occ'));
    const trPre = el('tr', { 'data-testid': 'prefix-row' }, el('th', {}, 'L·occ'));
    const trHit = el('tr', {}, el('th', {}, 'reached'));
    cells.forEach((ci, k) => {
      const hit = pre[k] - o[k] === 0;
      if (hit) reached.push(ci ^ 56);
      if (blocker < 0 && o[k]) blocker = k;
      const cls = k === blocker ? 'blocker' : hit ? 'target' : 'beyond';
      trSq.append(el('td', { class: cls }, cellName(ci)));
      trOcc.append(el('td', { class: cls }, String(o[k])));
      trPre.append(el('td', { class: cls }, String(pre[k])));
      trHit.append(el('td', { class: cls }, hit ? '✓' : ''));
    });
    table.append(trSq, trOcc, trPre, trHit);
    rayAttacks(t, 0, d, sq, occ[0], occ[1]);
    const packed = packedSquares(t[0], t[1]);
    if (
      !sameSet(
        [...reached].sort((x, y) => x - y),
        packed,
      )
    )
      agree = false;
    targets.push(...reached);
    rays.append(
      el(
        'div',
        { class: 'ray-box' },
        el(
          'div',
          { class: 'ray-title' },
          `${DIRECTION_NAMES[d]}${blocker >= 0 ? ` — first blocker ${cellName(cells[blocker])}` : ' — open to the edge'}`,
        ),
        table,
      ),
    );
  }
  box.append(rays);
  box.append(
    el(
      'p',
      { class: agree ? 'ok' : 'bad' },
      agree
        ? '✓ every ray equals rayAttacks in src/matrix/matrix-attacks.ts: R ∧ ¬(L_d·(occ ∧ R)) with the 64×64 ray operator L_d.'
        : '✗ differs from matrix-attacks.ts — please report',
    ),
  );
  if (type === QUEEN) box.append(el('p', {}, 'A queen is a rook and a bishop: the union of all eight rays.'));
  return { targets: targets.sort((x, y) => x - y), element: box };
}
