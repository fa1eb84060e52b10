import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { MatrixBoard, START_MATRIX } from '../src/matrix/matrix-board.js';
import { MatrixPosition, codeOfEntry } from '../src/matrix/matrix-position.js';
import { MatrixError } from '../src/matrix/errors.js';
import { generateLegalMoves } from '../src/core/movegen.js';
import * as m8 from '../src/matrix/mat8.js';
import { randomPositions, rng } from './matrix-helpers.js';

test('the start position as a matrix: row 0 = rank 8, column 0 = file a, sign = colour, |M| = type', () => {
  const mp = MatrixPosition.fromPosition(Position.startpos());
  assert.deepEqual(Array.from(mp.matrix()), START_MATRIX);
  const board = MatrixBoard.start();
  assert.equal(board.get(7, 1), 3);   // b1 white knight
  assert.equal(board.get(0, 4), -6);  // e8 black king
  assert.equal(board.get(6, 0), 1);   // a2 white pawn
});

test('M = Σ_k k (P_k − Q_k): the board is the weighted sum of its one-hot piece matrices', () => {
  for (const fen of randomPositions(30, 31)) {
    const mp = MatrixPosition.fromPosition(Position.fromFen(fen));
    const board = new MatrixBoard(mp.matrix());
    const sum = m8.create(), p = m8.create();
    for (let k = 1; k <= 6; k++) {
      m8.addScaled(sum, sum, k, board.pieceMatrix(p, k));
      m8.addScaled(sum, sum, -k, board.pieceMatrix(p, -k));
    }
    assert.deepEqual(Array.from(sum), Array.from(board.m));
  }
});

test('the readable affine update (general matrix ops) equals the fast make on random legal moves', () => {
  const rand = rng(32);
  const moves = new Int32Array(256);
  for (const fen of randomPositions(60, 33)) {
    const pos = Position.fromFen(fen);
    const n = generateLegalMoves(pos, moves, 0);
    if (n === 0) continue;
    const move = moves[Math.floor(rand() * n)];
    const mp = MatrixPosition.fromPosition(pos);
    const board = new MatrixBoard(mp.matrix());
    const from = move & 63, to = (move >> 6) & 63, promo = (move >> 12) & 7, kind = (move >> 15) & 3;
    const r = 7 - (from >> 3), c = from & 7, r2 = 7 - (to >> 3), c2 = to & 7;
    const v = board.get(r, c);
    const step = board.applyMove(r, c, r2, c2, promo ? Math.sign(v) * promo : undefined);
    // Z really is J − E(r, c) − E(r2, c2) and E the outer product.
    assert.equal(m8.frobenius(step.z, m8.ones(m8.create())), 62);
    assert.equal(step.z[r * 8 + c] + step.z[r2 * 8 + c2], 0);
    assert.equal(step.e[r2 * 8 + c2], 1);
    if (kind === 1) board.clear(r, c2);                          // en passant: the pawn beside
    if (kind === 2) {                                            // castling: the rook's own update
      const kingSide = c2 > c;
      board.applyMove(r, kingSide ? 7 : 0, r, kingSide ? 5 : 3);
    }
    mp.makeMove(move);
    assert.deepEqual(Array.from(board.m), Array.from(mp.matrix()), `${fen} ${move}`);
  }
});

test('bad input is a typed MatrixError and leaves the board as it was', () => {
  assert.throws(() => new MatrixBoard(new Array(64).fill(7)), MatrixError);
  assert.throws(() => new MatrixBoard(new Array(60).fill(0)), MatrixError);
  const board = MatrixBoard.start();
  const before = board.m.slice();
  assert.throws(() => board.get(8, 0), MatrixError);
  assert.throws(() => board.applyMove(4, 4, 3, 4), (e: unknown) => e instanceof MatrixError && e.reason === 'empty-square');
  assert.throws(() => board.applyMove(7, 1, 5, 9), MatrixError);
  assert.deepEqual(board.m, before);

  const mp = MatrixPosition.fromPosition(Position.startpos());
  const fen = mp.toFen();
  assert.throws(() => mp.makeMove(28 | (36 << 6)), (e: unknown) => e instanceof MatrixError && e.reason === 'empty-square');
  assert.throws(() => mp.makeMove(52 | (44 << 6)), MatrixError); // black pawn, white to move
  assert.equal(mp.toFen(), fen);
  assert.throws(() => mp.unmakeMove(), MatrixError);

  const bad = Array.from(START_MATRIX);
  assert.throws(() => mp.setMatrix(bad.map((x) => (x === 6 ? 0 : x))), MatrixError);   // no white king
  assert.throws(() => mp.setMatrix(bad, 0, 15, 20), MatrixError);                     // impossible ep square
  bad[7 * 8 + 7] = 0;
  assert.throws(() => mp.setMatrix(bad, 0, 1), MatrixError);                          // K right without the h1 rook
  assert.equal(mp.toFen(), fen);
  mp.setMatrix(START_MATRIX, 0, 15);
  assert.equal(mp.toFen(), Position.startpos().toFen());
  assert.equal(codeOfEntry(-6), 14);
});
