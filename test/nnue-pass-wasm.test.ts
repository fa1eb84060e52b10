import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadNnueData } from '../src/tune/nnue/dataset.js';
import { initNetwork, train, type TrainOptions } from '../src/tune/nnue/train.js';
import { labelsOf, Pass, type FloatNetwork } from '../src/tune/nnue/pass.js';
import { HELD_PARTS, WasmPass } from '../src/tune/nnue/pass-wasm.js';
import { PARTS, updateRange, weightBuffers } from '../src/tune/nnue/gradients.js';

// One shard of `tune datagen` (100 self-play games at 5000 nodes, seed 1).
const SAMPLE = fileURLToPath(new URL('../../test/data/nnue-sample.mcgr.gz', import.meta.url));

/** Bit for bit: the same float32 patterns (so -0 against 0, or two NaNs, would count as different). */
function assertSameBits(a: FloatNetwork, b: FloatNetwork, what: string): void {
  for (const k of PARTS) {
    const x = new Uint32Array(a[k].buffer, a[k].byteOffset, a[k].length),
      y = new Uint32Array(b[k].buffer, b[k].byteOffset, b[k].length);
    let differ = 0;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) differ++;
    assert.equal(differ, 0, `${what}: ${differ} of ${x.length} ${k} values differ`);
  }
}

test('NNUE trainer pass: the WebAssembly kernel gives the TypeScript reference gradients and loss bit for bit (both activations, all three feature sets, residual)', () => {
  const { train: tr } = loadNnueData([SAMPLE], { buckets: 4, holdOutEvery: 5, mirror: true });
  const idx = new Uint32Array(tr.count).map((_, i) => (i * 7919) % tr.count);
  const cases = [
    { activation: 'crelu', features: 'plain', kind: 'evaluation' },
    { activation: 'screlu', features: 'plain', kind: 'evaluation' },
    { activation: 'crelu', features: 'king-mirrored', kind: 'evaluation' },
    { activation: 'crelu', features: 'king-buckets', kind: 'evaluation' },
    { activation: 'crelu', features: 'plain', kind: 'residual' },
  ] as const;
  for (const c of cases) {
    const net = initNetwork(32, 4, 7, c.kind, c.activation, c.features);
    // Random first-layer weights and biases put accumulators on both sides of the clip (0, 1).
    for (const k of ['w1', 'b1', 'w2'] as const) for (let i = 0; i < net[k].length; i++) net[k][i] = Math.sin(i * 12.9898 + k.length) * 0.3;
    const labels = labelsOf(0.1, 175, 0.6, 4); // λ by bucket, as --endgame-result-weight sets it
    const gTs = weightBuffers(net, false),
      gWasm = weightBuffers(net, false);
    // Non-zero starting gradients: the pass adds to what it is given.
    for (const g of [gTs, gWasm]) for (const k of PARTS) g[k].fill(0.25);
    const from = 100,
      to = Math.min(tr.count, 2100);
    const lossTs = new Pass(net).run(tr, idx, from, to, labels, gTs);
    const wasm = new WasmPass(net);
    const lossWasm = wasm.run(tr, idx, from, to, labels, gWasm);
    const what = `${c.activation} ${c.features} ${c.kind}`;
    assert.equal(lossWasm, lossTs, what);
    assertSameBits(gWasm, gTs, what);
    // The gradient is not trivially zero or untouched.
    let moved = 0;
    for (const k of PARTS) for (let i = 0; i < gTs[k].length; i++) if (gTs[k][i] !== 0.25) moved++;
    assert.ok(moved > 1000, `${what}: only ${moved} gradient values changed`);
    // Forward only (held-out loss): the same, and the instance is reusable.
    assert.equal(wasm.run(tr, idx, 0, tr.count, labels, null), new Pass(net).run(tr, idx, 0, tr.count, labels, null), what);
  }
});

test('NNUE trainer: a run on the WebAssembly kernel ends bit for bit where the TypeScript one does (one thread and two)', () => {
  const { train: tr, validation: va } = loadNnueData([SAMPLE], { buckets: 2, holdOutEvery: 5 });
  const opts: TrainOptions = { hidden: 32, buckets: 2, epochs: 2, batch: 300, lr: 0.002, resultWeight: 0.1, seed: 3, weightDecay: 0.1 };
  for (const threads of [1, 2]) {
    const ts = train(tr, va, { ...opts, threads, kernel: 'ts' }),
      wasm = train(tr, va, { ...opts, threads, kernel: 'wasm' });
    assertSameBits(wasm.net, ts.net, `${threads} thread(s)`);
    assert.deepEqual(
      wasm.history.map((h) => [h.trainLoss, h.validationLoss]),
      ts.history.map((h) => [h.trainLoss, h.validationLoss]),
    );
  }
});

test("NNUE trainer: the kernel's Adam is updateRange bit for bit (zero gradients and moments skipped, the clip hit, an odd length)", () => {
  const net = initNetwork(16, 3, 5, 'evaluation', 'crelu', 'king-buckets');
  const pass = new WasmPass(net, true);
  const r = (i: number): number => Math.sin(i * 78.233 + 1.7);
  // Reference copies of the held arrays, their gradients and moments, updated by updateRange.
  const ref = {
    net: weightBuffers(net, false),
    grads: weightBuffers(net, false),
    m: weightBuffers(net, false),
    v: weightBuffers(net, false),
  };
  for (const k of HELD_PARTS) {
    const n = net[k].length;
    for (let i = 0; i < n; i++) {
      pass.weights[k][i] = i % 11 === 0 ? 0.49 : r(i) * 0.5; // 0.49 sits at the clip below
      // No gradient at 4, 9, 14, …; no first moment at 0, 9, 10, 19, …: both (skipped) at 9, 19, ….
      pass.grads[k][i] = i % 5 === 4 ? 0 : r(i + 7) * 3;
      pass.moment(k, 0)[i] = i % 10 === 0 || i % 10 === 9 ? 0 : r(i + 3) * 0.01;
      pass.moment(k, 1)[i] = Math.abs(r(i + 5)) * 1e-4;
    }
    ref.net[k].set(pass.weights[k]);
    ref.grads[k].set(pass.grads[k]);
    ref.m[k].set(pass.moment(k, 0));
    ref.v[k].set(pass.moment(k, 1));
  }
  const rule = { clip: [0.5, 60, 0.5, 60, 10], decayed: [true, false, true, false, false], decay: 0.1 };
  for (let t = 1; t <= 3; t++) {
    const lr = 0.01 * t,
      scale = 1 / 300;
    HELD_PARTS.forEach((k) => {
      // b1 updated in its first 15 values only: the kernel's scalar tail after the pairs.
      const p = PARTS.indexOf(k),
        n = k === 'b1' ? 15 : ref.net[k].length;
      updateRange(ref.net, ref.grads, [ref.grads], { m: ref.m, v: ref.v }, rule, p, 0, n, lr, scale, t);
      pass.adam(k, rule.clip[p], 1 - lr * (rule.decayed[p] ? rule.decay : 0), lr, scale, 1 - Math.pow(0.9, t), 1 - Math.pow(0.999, t), n);
    });
  }
  let clipped = 0;
  for (const k of HELD_PARTS) {
    for (const [a, b, what] of [
      [pass.weights[k], ref.net[k], 'weights'],
      [pass.moment(k, 0), ref.m[k], 'first moment'],
      [pass.moment(k, 1), ref.v[k], 'second moment'],
    ] as const) {
      let differ = 0;
      for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) differ++;
      assert.equal(differ, 0, `${k} ${what}: ${differ} of ${a.length} differ`);
    }
    for (let i = 0; i < ref.net[k].length; i++) if (Math.abs(ref.net[k][i]) === Math.fround(rule.clip[PARTS.indexOf(k)])) clipped++;
  }
  assert.ok(clipped > 10, `the clip was hit ${clipped} times`);
  // The 16th b1 value was left alone, and the rest moved.
  assert.equal(pass.weights.b1[15], ref.net.b1[15]);
  assert.ok(pass.weights.w1.some((x, i) => x !== Math.fround(i % 11 === 0 ? 0.49 : r(i) * 0.5)));
});
