/**
 * The squared activation at 256 and 512 neurons: both kernels equal the exact integer formula
 * (BigInt, exactOutput) on networks chosen to overflow a 32-bit sum, from scratch, incrementally
 * after every move of random games and lazily over search-like trees. The sums these networks reach
 * (up to 2·512·255²·128, about 2^33) are what held the old kernel to 128 neurons: its one int32
 * sum wrapped, and this file failed against it (notebook/nnue-generations.md, 2026-12-06).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { arithmeticProblem, squaredChunkNeurons } from '../src/engine/nnue/network.js';
import { nnueFromNetwork } from '../src/engine/nnue/load-node.js';
import { GAME_FENS, checkExact, exactOutput, extremeNetwork } from './nnue-helpers.js';

for (const hidden of [256, 512])
  test(`NNUE, squared activation at ${hidden} neurons: both kernels equal the exact formula (BigInt) on extreme networks, from scratch, incrementally and lazily`, () => {
    const { positions, beyond32 } = checkExact(extremeNetwork({ hidden, buckets: 8, seed: hidden + 1 }), GAME_FENS.slice(0, 4), 61, 60);
    assert.ok(positions > 150, `only ${positions} positions`);
    assert.ok(beyond32 > positions / 2, `only ${beyond32} of ${positions} positions have a squared sum beyond 2^31`);
  });

test('NNUE, squared activation: the worst cases (every neuron saturated, every weight at the bound) are exact, the int32 partial sums full to the last block', () => {
  const pos = Position.fromFen(GAME_FENS[1]);
  // QA 255: sums of 2H·255²·127 (2^32 at 256 neurons, 2^33 at 512) and the negative −128 ones.
  // QA 32767 (|w| 1): each block of 8 neurons fills an int32 lane to 2·32767², 2^31 − 131,069.
  // QA 4096 (|w| 7) and QA 255 at 2048 neurons: several int32 chunks widened into one int64 sum.
  assert.deepEqual([255, 4096, 32767].map(squaredChunkNeurons), [1024, 64, 8]);
  const cases = [
    { qa: 255, hidden: 256, w: 127 },
    { qa: 255, hidden: 512, w: 127 },
    { qa: 255, hidden: 512, w: -128 },
    { qa: 32767, hidden: 512, w: 1 },
    { qa: 32767, hidden: 256, w: -1 },
    { qa: 4096, hidden: 512, w: -7 },
    { qa: 255, hidden: 2048, w: 127 },
  ];
  for (const { qa, hidden, w } of cases) {
    const net = extremeNetwork({ hidden, buckets: 1, seed: 7, qa });
    net.b1.fill(32767);
    net.w1.fill(0);
    net.w2.fill(w);
    net.b2.fill(0);
    net.psqt.fill(0);
    assert.equal(arithmeticProblem(net), undefined);
    // Every clamp is QA, so the output is trunc(2H·QA·w · SCALE / (QA·QB)), written out here.
    const expected = Math.trunc((2 * hidden * qa * w * 400) / (qa * 64));
    assert.equal(exactOutput(net, pos).output, expected);
    for (const kernel of ['ts', 'wasm'] as const)
      assert.equal(nnueFromNetwork(net, kernel).networkOutputFresh(pos), expected, `${kernel}: QA ${qa}, ${hidden} neurons, w ${w}`);
  }
});

test('NNUE, squared activation at 512 neurons with king buckets, a residual and one output bucket: both kernels equal the exact formula', () => {
  for (const o of [
    { hidden: 512, buckets: 8, seed: 71, features: 'king-buckets' as const },
    { hidden: 512, buckets: 1, seed: 73, kind: 'residual' as const },
    { hidden: 256, buckets: 4, seed: 79, features: 'king-mirrored' as const },
  ]) {
    const { positions } = checkExact(extremeNetwork(o), GAME_FENS.slice(1, 3), 83, 40);
    assert.ok(positions > 50, `${JSON.stringify(o)}: only ${positions} positions`);
  }
});
