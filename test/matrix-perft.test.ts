// Perft identity: the matrix backend against published counts and the bitboard core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { perft } from '../src/core/perft.js';
import { generateLegalMoves } from '../src/core/movegen.js';
import { matrixBackend } from '../src/matrix/backend.js';
import { MatrixPosition } from '../src/matrix/matrix-position.js';
import { generateLegal } from '../src/matrix/matrix-movegen.js';
import { matrixPerft, matrixPerftDivide } from '../src/matrix/matrix-perft.js';
import { randomPositions, readSuite, rng } from './matrix-helpers.js';

const NODE_BUDGET = 20000;

test('matrix perft equals the published counts on the whole standard suite (≤ 20k nodes per position)', () => {
  const suite = readSuite();
  assert.equal(suite.length, 128, 'positions in the standard suite');
  let checked = 0, nodes = 0;
  for (const { fen, counts } of suite) {
    const pos = Position.fromFen(fen);
    for (let d = 1; d < counts.length; d++) {
      if (counts[d] === undefined || counts[d] > NODE_BUDGET) break;
      const got = matrixBackend.perft(pos, d);
      assert.equal(got, counts[d], `${fen} depth ${d}`);
      nodes += got; checked++;
    }
    assert.equal(pos.toFen(), Position.fromFen(fen).toFen(), 'the core position is left untouched');
  }
  assert.equal(checked, 527, '(position, depth) pairs up to the first depth over the budget');
  assert.equal(nodes, 983096);
});

test('matrix perft equals the bitboard core on random positions', () => {
  const rand = rng(21);
  for (const fen of randomPositions(150, 22, 60)) {
    const pos = Position.fromFen(fen);
    const depth = 1 + Math.floor(rand() * 3);
    let core = perft(pos, depth);
    let d = depth;
    if (core > 60000) { d = depth - 1; core = perft(pos, d); }
    assert.equal(matrixBackend.perft(pos, d), core, `${fen} depth ${d}`);
  }
});

test('legalMoves produces the same move ints as the core, and make keeps M, the packed matrices and FEN in step', () => {
  const rand = rng(23);
  const a = new Int32Array(256), b = new Int32Array(512);
  const mp = new MatrixPosition();
  for (const fen of randomPositions(120, 24, 40)) {
    const pos = Position.fromFen(fen);
    mp.load(pos);
    for (let ply = 0; ply < 30; ply++) {
      const n = generateLegalMoves(pos, a, 0);
      const end = matrixBackend.legalMoves(pos, b, 7);
      assert.deepEqual(Array.from(b.subarray(7, end)).sort(), Array.from(a.subarray(0, n)).sort(), pos.toFen());
      const m2 = generateLegal(mp, b, 0);
      assert.equal(m2, n);
      if (n === 0) break;
      const move = a[Math.floor(rand() * n)];
      pos.makeMove(move);
      mp.makeMove(move);
      mp.assertConsistent();
      assert.equal(mp.toFen(), pos.toFen());
    }
    // Unmake all the way back restores the root exactly.
    while (mp.ply > 0) mp.unmakeMove();
    assert.equal(mp.toFen(), Position.fromFen(fen).toFen());
  }
});

test('perft depth 0 is 1 and a bad depth is refused', () => {
  const mp = MatrixPosition.fromPosition(Position.startpos());
  assert.equal(matrixPerft(mp, 0), 1);
  assert.throws(() => matrixPerft(mp, -1), /depth/);
});

test('divide sums to perft, and MatrixPosition.fromFen agrees with loading a core Position', () => {
  const fen = 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1';
  const mp = MatrixPosition.fromFen(fen);
  const parts = matrixPerftDivide(mp, 3);
  assert.equal(parts.length, 6);
  assert.equal(parts.reduce((s, [, n]) => s + n, 0), 9467);
  assert.equal(matrixPerft(mp, 3), perft(Position.fromFen(fen), 3));
  assert.equal(mp.toFen(), Position.fromFen(fen).toFen());
});
