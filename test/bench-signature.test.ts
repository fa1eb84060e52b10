/**
 * The search's signature, as Stockfish pins its bench: the node count of `matrix-chess bench`
 * (a fixed-depth search of fixed positions with a fresh engine) changes whenever the search tree
 * does, so a change meant to be a pure refactor or speed-up must leave it alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BENCH_DEPTH, runBench } from '../src/engine/bench.js';
import { loadNnue } from '../src/engine/nnue/load-node.js';

// When a change is meant to alter search or evaluation: run `node bin/matrix-chess bench --eval
// both`, put its "Nodes:" counts here, and name the old and new counts in the commit message.
// `matrix-chess bench` prints the first: the engine evaluates with the shipped network by default.
const BENCH_SIGNATURE = 410407;
const BENCH_SIGNATURE_CLASSICAL = 374345;

test(`bench signature: depth ${BENCH_DEPTH} over the bench positions searches exactly ${BENCH_SIGNATURE} nodes with the shipped network, ${BENCH_SIGNATURE_CLASSICAL} with the classical evaluation`, () => {
  assert.equal(runBench({ nnue: loadNnue() }).nodes, BENCH_SIGNATURE);
  assert.equal(runBench().nodes, BENCH_SIGNATURE_CLASSICAL);
});
