// Perft identity: the matrix backend against published counts and the bitboard core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { perft, perftDivide } from '../src/core/perft.js';
import { generateLegalMoves } from '../src/core/movegen.js';
import { MatrixMoveGenerator, matrixGenerator } from '../src/matrix/backend.js';
import { MatrixPosition } from '../src/matrix/matrix-position.js';
import { generateLegal } from '../src/matrix/matrix-movegen.js';
import { randomPositions, readSuite, rng } from './matrix-helpers.js';

const NODE_BUDGET = 20000;

test('matrix perft equals the published counts on the whole standard suite (≤ 20k nodes per position)', () => {
  const suite = readSuite();
  assert.equal(suite.length, 128, 'positions in the standard suite');
  let checked = 0,
    nodes = 0;
  for (const { fen, counts } of suite) {
    const pos = Position.fromFen(fen);
    for (let d = 1; d < counts.length; d++) {
      if (counts[d] === undefined || counts[d] > NODE_BUDGET) break;
      const got = perft(pos, d, matrixGenerator);
      assert.equal(got, counts[d], `${fen} depth ${d}`);
      nodes += got;
      checked++;
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
    if (core > 60000) {
      d = depth - 1;
      core = perft(pos, d);
    }
    assert.equal(perft(pos, d, matrixGenerator), core, `${fen} depth ${d}`);
  }
});

test('generate produces the same move ints as the core, and make keeps M, the packed matrices and FEN in step', () => {
  const rand = rng(23);
  const a = new Int32Array(256),
    b = new Int32Array(512);
  const mp = new MatrixPosition();
  for (const fen of randomPositions(120, 24, 40)) {
    const pos = Position.fromFen(fen);
    mp.load(pos);
    for (let ply = 0; ply < 30; ply++) {
      const n = generateLegalMoves(pos, a, 0);
      const end = matrixGenerator.generate(pos, b, 7);
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
  const pos = Position.startpos();
  assert.equal(perft(pos, 0, matrixGenerator), 1);
  assert.throws(() => perft(pos, -1, matrixGenerator), /depth/);
});

test('divide sums to perft, and MatrixPosition.fromFen agrees with loading a core Position', () => {
  const fen = 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1';
  const parts = perftDivide(Position.fromFen(fen), 3, matrixGenerator);
  assert.equal(parts.length, 6);
  assert.equal(
    parts.reduce((s, [, n]) => s + n, 0),
    9467,
  );
  assert.equal(MatrixPosition.fromFen(fen).toFen(), Position.fromFen(fen).toFen());
});

test('the matrix generator follows make, unmake and null moves without rebuilding M', () => {
  const rand = rng(25);
  const a = new Int32Array(256),
    b = new Int32Array(256);
  for (const fen of randomPositions(40, 26, 30)) {
    const gen = new MatrixMoveGenerator();
    const pos = Position.fromFen(fen);
    let made = 0,
      nulls = 0,
      unmade = 0;
    for (let step = 0; step < 120; step++) {
      const n = generateLegalMoves(pos, a, 0);
      const m = gen.generate(pos, b, 0);
      assert.deepEqual(Array.from(b.subarray(0, m)).sort(), Array.from(a.subarray(0, n)).sort(), pos.toFen());
      assert.equal(gen.mp.toFen().split(' ').slice(0, 4).join(' '), pos.toFen().split(' ').slice(0, 4).join(' '));
      const r = rand();
      // Wander like a search: mostly deeper, sometimes back up, now and then a null move.
      if (pos.ply > 0 && (n === 0 || r < 0.35 || pos.ply > 20)) {
        if (pos.moveAt(pos.ply - 1) === 0) pos.unmakeNullMove();
        else pos.unmakeMove();
        unmade++;
      } else if (r < 0.42 && !pos.inCheck()) {
        pos.makeNullMove();
        nulls++;
      } else if (n > 0) {
        pos.makeMove(a[Math.floor(rand() * n)]);
        made++;
      }
    }
    assert.ok(made > 20 && unmade > 10 && nulls > 0, `walk too short: ${made} made, ${unmade} unmade, ${nulls} nulls`);
    assert.equal(gen.loads, 1, 'M was built once, then kept in step');
  }
});
