/**
 * The search's signature, as Stockfish pins its bench: the node count of `matrix-chess bench`
 * (a fixed-depth search of fixed positions with a fresh engine) changes whenever the search tree
 * does, so a change meant to be a pure refactor or speed-up must leave it alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BENCH_DEPTH, runBench } from '../src/engine/bench.js';

// When a change is meant to alter search or evaluation: run `node bin/matrix-chess bench`, put its
// "Nodes:" count here, and name the old and new count in the commit message.
const BENCH_SIGNATURE = 444277;

test(`bench signature: depth ${BENCH_DEPTH} over the bench positions searches exactly ${BENCH_SIGNATURE} nodes`, () => {
  assert.equal(runBench().nodes, BENCH_SIGNATURE);
});
