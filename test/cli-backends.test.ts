/** The backend registry: names, lazy loading, loaders, and every backend agreeing with the core. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKEND_NAMES, BackendError } from '../src/backends.js';
import { getBackend } from '../src/backends-node.js';
import { MAX_MOVES, defaultGenerator } from '../src/core/movegen.js';
import { Position } from '../src/core/position.js';
import { perft, perftDivide } from '../src/core/perft.js';

const FENS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  'rnbqkb1r/pp1p1pPp/8/2p1pP2/1P1P4/3P3P/P1P1P3/RNBQKBNR w KQkq e6 0 1', // e.p. and promotions by capture
  'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
];

// Runs first: once a backend is loaded the registry keeps it and no loader is asked again.
test('a failing BNN loader (the page without weights) is a BackendError naming the cause, and nothing is kept', async () => {
  const loaders = { bnnSliders: () => Promise.reject(new Error('no weights at /weights/bnn-16x32x1.bin')) };
  await assert.rejects(
    getBackend('bnn', loaders),
    (err: unknown) =>
      err instanceof BackendError &&
      err.kind === 'unavailable' &&
      err.backend === 'bnn' &&
      err.message === 'the bnn backend cannot start: no weights at /weights/bnn-16x32x1.bin',
  );
  const bnn = await getBackend('bnn');
  assert.equal(bnn.name, 'bnn');
});

test('unknown backend names are refused with the list of valid ones', async () => {
  await assert.rejects(
    getBackend('gpu'),
    (err: unknown) =>
      err instanceof BackendError &&
      err.kind === 'unknown' &&
      /unknown backend 'gpu': expected one of bitboard, matrix, bnn/.test(err.message),
  );
});

test('bitboard backend is the core generator; perftDivide over a backend sums to perft', async () => {
  const b = await getBackend('bitboard');
  assert.equal(b.name, 'bitboard');
  assert.equal(b, defaultGenerator);
  for (const name of ['bitboard', 'matrix']) {
    const divide = perftDivide(Position.fromFen(FENS[0]), 3, await getBackend(name));
    assert.equal(divide.length, 20, name);
    assert.equal(
      divide.reduce((s, [, n]) => s + n, 0),
      8902,
      name,
    );
  }
});

test('every backend loads, is named, and agrees with the bitboard core on perft and on noisy moves', async () => {
  const a = new Int32Array(MAX_MOVES),
    b = new Int32Array(MAX_MOVES);
  for (const name of BACKEND_NAMES) {
    const backend = await getBackend(name);
    assert.equal(backend.name, name);
    for (const fen of FENS) {
      assert.equal(perft(Position.fromFen(fen), 2, backend), perft(Position.fromFen(fen), 2), `${name}: ${fen}`);
      const pos = Position.fromFen(fen);
      // Offsets other than 0 must be respected too.
      const na = backend.generateNoisy(pos, a, 3) - 3,
        nb = defaultGenerator.generateNoisy(pos, b, 0);
      assert.ok(nb > 0 || fen === FENS[0], `${fen} has noisy moves`);
      assert.deepEqual([...a.subarray(3, 3 + na)].sort(), [...b.subarray(0, nb)].sort(), `${name}: ${fen}`);
    }
  }
});
