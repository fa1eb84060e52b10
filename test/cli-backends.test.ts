/** The backend registry: names, lazy loading, and the adapter from legal-move lists to MoveSource. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKEND_NAMES, BackendError, getBackend, perftDivideWith } from '../src/backends.js';
import { legalMovesAsMoveSource } from '../src/core/backend.js';
import { MAX_MOVES, defaultGenerator } from '../src/core/movegen.js';
import { Position } from '../src/core/position.js';
import { perft } from '../src/core/perft.js';

const FENS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  'rnbqkb1r/pp1p1pPp/8/2p1pP2/1P1P4/3P3P/P1P1P3/RNBQKBNR w KQkq e6 0 1', // e.p. and promotions by capture
  'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
];

test('unknown backend names are refused with the list of valid ones', async () => {
  await assert.rejects(getBackend('gpu'), (err: unknown) => err instanceof BackendError && /unknown backend 'gpu': expected one of bitboard, matrix, bnn/.test(err.message));
});

test('bitboard backend is the core generator and the core perft', async () => {
  const b = await getBackend('bitboard');
  assert.equal(b.name, 'bitboard');
  assert.equal(b.generator, defaultGenerator);
  assert.equal(b.perft(Position.fromFen(FENS[1]), 2), 2039);
  const divide = perftDivideWith(b, Position.fromFen(FENS[0]), 3);
  assert.equal(divide.length, 20);
  assert.equal(divide.reduce((s, [, n]) => s + n, 0), 8902);
});

test('legal-move lists adapted to MoveSource: noisy moves are exactly the captures, e.p. and promotions', () => {
  const src = legalMovesAsMoveSource({ legalMoves: (pos, out, start) => defaultGenerator.generate(pos, out, start) });
  const a = new Int32Array(MAX_MOVES), b = new Int32Array(MAX_MOVES);
  for (const fen of FENS) {
    const pos = Position.fromFen(fen);
    // Offsets other than 0 must be respected too.
    const na = src.generateNoisy(pos, a, 3) - 3, nb = defaultGenerator.generateNoisy(pos, b, 0);
    assert.deepEqual([...a.subarray(3, 3 + na)].sort(), [...b.subarray(0, nb)].sort(), fen);
    assert.equal(src.generate(pos, a, 0), defaultGenerator.generate(pos, b, 0));
  }
});

test('every backend loads and agrees with the bitboard perft', async () => {
  for (const name of BACKEND_NAMES) {
    const backend = await getBackend(name);
    assert.equal(backend.name, name);
    for (const fen of FENS) {
      assert.equal(backend.perft(Position.fromFen(fen), 2), perft(Position.fromFen(fen), 2), `${name}: ${fen}`);
    }
  }
});
