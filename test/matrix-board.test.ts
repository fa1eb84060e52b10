import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { MatrixBoard, START_MATRIX } from '../src/matrix/matrix-board.js';
import { MatrixPosition, codeOfEntry } from '../src/matrix/matrix-position.js';
import { MatrixError } from '../src/matrix/errors.js';
import { generateLegalMoves } from '../src/core/movegen.js';
import { parseUciMove } from '../src/core/notation.js';
import { KIND_CASTLE, KIND_EN_PASSANT, KIND_NORMAL, moveFrom, moveKind, movePromo, moveTo } from '../src/core/move.js';
import { BISHOP, KNIGHT, QUEEN, ROOK } from '../src/core/types.js';
import * as m8 from '../src/matrix/mat8.js';
import { randomPositions, rng } from './matrix-helpers.js';

test('the start position as a matrix: row 0 = rank 8, column 0 = file a, sign = colour, |M| = type', () => {
  const mp = MatrixPosition.fromPosition(Position.startpos());
  assert.deepEqual(Array.from(mp.matrix()), START_MATRIX);
  const board = MatrixBoard.start();
  assert.equal(board.get(7, 1), 3); // b1 white knight
  assert.equal(board.get(0, 4), -6); // e8 black king
  assert.equal(board.get(6, 0), 1); // a2 white pawn
});

test('M = Σ_k k (P_k − Q_k): the board is the weighted sum of its one-hot piece matrices', () => {
  for (const fen of randomPositions(30, 31)) {
    const mp = MatrixPosition.fromPosition(Position.fromFen(fen));
    const board = new MatrixBoard(mp.matrix());
    const sum = m8.create(),
      p = m8.create();
    for (let k = 1; k <= 6; k++) {
      m8.addScaled(sum, sum, k, board.pieceMatrix(p, k));
      m8.addScaled(sum, sum, -k, board.pieceMatrix(p, -k));
    }
    assert.deepEqual(Array.from(sum), Array.from(board.m));
  }
});

/**
 * Plays `move` on the readable board with the general operations only: the affine update
 * M' = (M ⊙ Z) + v·E for the piece (v = ± promoted type on a promotion), M ⊙ (J − E) for the
 * pawn taken en passant, a second affine update for the castling rook.
 */
function playReadable(board: MatrixBoard, move: number): void {
  const from = moveFrom(move),
    to = moveTo(move),
    promo = movePromo(move),
    kind = moveKind(move);
  const r = 7 - (from >> 3),
    c = from & 7,
    r2 = 7 - (to >> 3),
    c2 = to & 7;
  const v = board.get(r, c);
  const step = board.applyMove(r, c, r2, c2, promo ? Math.sign(v) * promo : undefined);
  // Z really is J − E(r, c) − E(r2, c2) and E the outer product.
  assert.equal(m8.frobenius(step.z, m8.ones(m8.create())), 62);
  assert.equal(step.z[r * 8 + c] + step.z[r2 * 8 + c2], 0);
  assert.equal(step.e[r2 * 8 + c2], 1);
  if (kind === KIND_EN_PASSANT) board.clear(r, c2); // the pawn beside
  if (kind === KIND_CASTLE) {
    // the rook's own update
    const kingSide = c2 > c;
    board.applyMove(r, kingSide ? 7 : 0, r, kingSide ? 5 : 3);
  }
}

const matrixOf = (fen: string): number[] => Array.from(MatrixPosition.fromPosition(Position.fromFen(fen)).matrix());

test('castling, en passant and promotion by affine updates: the readable board, the fast make and the expected board agree', () => {
  const cases: Array<{ fen: string; uci: string; kind: number; promo: number; after: string }> = [
    { fen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', uci: 'e1g1', kind: KIND_CASTLE, promo: 0, after: 'r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1' },
    { fen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', uci: 'e1c1', kind: KIND_CASTLE, promo: 0, after: 'r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1' },
    { fen: 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1', uci: 'e8g8', kind: KIND_CASTLE, promo: 0, after: 'r4rk1/8/8/8/8/8/8/R3K2R w KQ - 1 2' },
    { fen: 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1', uci: 'e8c8', kind: KIND_CASTLE, promo: 0, after: '2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2' },
    {
      fen: 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
      uci: 'e5d6',
      kind: KIND_EN_PASSANT,
      promo: 0,
      after: 'rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3',
    },
    {
      fen: 'rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 3',
      uci: 'd4c3',
      kind: KIND_EN_PASSANT,
      promo: 0,
      after: 'rnbqkbnr/ppp1pppp/8/8/8/2p5/PP1PPPPP/RNBQKBNR w KQkq - 0 4',
    },
    {
      fen: 'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1',
      uci: 'b7b8q',
      kind: KIND_NORMAL,
      promo: QUEEN,
      after: 'nQn5/P1Pk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
    },
    {
      fen: 'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1',
      uci: 'b7a8n',
      kind: KIND_NORMAL,
      promo: KNIGHT,
      after: 'N1n5/P1Pk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
    },
    {
      fen: 'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
      uci: 'g2h1r',
      kind: KIND_NORMAL,
      promo: ROOK,
      after: 'n1n5/PPPk4/8/8/8/8/4Kp1p/5N1r w - - 0 2',
    },
    {
      fen: 'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
      uci: 'g2g1b',
      kind: KIND_NORMAL,
      promo: BISHOP,
      after: 'n1n5/PPPk4/8/8/8/8/4Kp1p/5NbN w - - 0 2',
    },
  ];
  for (const { fen, uci, kind, promo, after } of cases) {
    const pos = Position.fromFen(fen);
    const move = parseUciMove(pos, uci);
    assert.equal(moveKind(move), kind, `${uci}: move kind`);
    assert.equal(movePromo(move), promo, `${uci}: promotion piece`);
    const mp = MatrixPosition.fromPosition(pos);
    const board = new MatrixBoard(mp.matrix());
    playReadable(board, move);
    mp.makeMove(move);
    const expected = matrixOf(after);
    assert.deepEqual(Array.from(board.m), expected, `${fen} ${uci}: readable affine updates`);
    assert.deepEqual(Array.from(mp.matrix()), expected, `${fen} ${uci}: fast make`);
    pos.makeMove(move);
    assert.equal(pos.toFen(), after, `${fen} ${uci}: the core agrees with the expected position`);
  }
});

test('the readable affine update (general matrix ops) equals the fast make on random legal moves', () => {
  const rand = rng(32);
  const moves = new Int32Array(256);
  let played = 0;
  for (const fen of randomPositions(60, 33)) {
    const pos = Position.fromFen(fen);
    const n = generateLegalMoves(pos, moves, 0);
    if (n === 0) continue;
    const move = moves[Math.floor(rand() * n)];
    const mp = MatrixPosition.fromPosition(pos);
    const board = new MatrixBoard(mp.matrix());
    playReadable(board, move);
    mp.makeMove(move);
    assert.deepEqual(Array.from(board.m), Array.from(mp.matrix()), `${fen} ${move}`);
    pos.makeMove(move);
    assert.deepEqual(Array.from(mp.matrix()), matrixOf(pos.toFen()), `${fen} ${move}: the core's position`);
    played++;
  }
  assert.ok(played >= 50, `only ${played} of 60 random positions had a legal move`);
});

test('bad input is a typed MatrixError and leaves the board as it was', () => {
  assert.throws(() => new MatrixBoard(new Array(64).fill(7)), MatrixError);
  assert.throws(() => new MatrixBoard(new Array(60).fill(0)), MatrixError);
  const board = MatrixBoard.start();
  const before = board.m.slice();
  assert.throws(() => board.get(8, 0), MatrixError);
  assert.throws(
    () => board.applyMove(4, 4, 3, 4),
    (e: unknown) => e instanceof MatrixError && e.reason === 'empty-square',
  );
  assert.throws(() => board.applyMove(7, 1, 5, 9), MatrixError);
  assert.deepEqual(board.m, before);

  const mp = MatrixPosition.fromPosition(Position.startpos());
  const fen = mp.toFen();
  assert.throws(
    () => mp.makeMove(28 | (36 << 6)),
    (e: unknown) => e instanceof MatrixError && e.reason === 'empty-square',
  );
  assert.throws(() => mp.makeMove(52 | (44 << 6)), MatrixError); // black pawn, white to move
  assert.equal(mp.toFen(), fen);
  assert.throws(() => mp.unmakeMove(), MatrixError);

  const bad = Array.from(START_MATRIX);
  assert.throws(() => mp.setMatrix(bad.map((x) => (x === 6 ? 0 : x))), MatrixError); // no white king
  assert.throws(() => mp.setMatrix(bad, 0, 15, 20), MatrixError); // impossible ep square
  bad[7 * 8 + 7] = 0;
  assert.throws(() => mp.setMatrix(bad, 0, 1), MatrixError); // K right without the h1 rook
  assert.equal(mp.toFen(), fen);
  mp.setMatrix(START_MATRIX, 0, 15);
  assert.equal(mp.toFen(), Position.startpos().toFen());
  assert.equal(codeOfEntry(-6), 14);
});
