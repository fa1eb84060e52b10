import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQUARE_LAYOUTS, NETWORK_COUNT, enumerateInputs, gatherInput, inputToOccupancy } from '../src/bnn/layout.js';
import { LAYOUT_16, LAYOUT_64, LAYOUT_8, NETWORK_LAYOUTS } from '../src/bnn/network.js';
import { decodeWeights, BnnWeightsError, weightsFileName } from '../src/bnn/weights.js';
import { readWeightsFile } from '../src/bnn/weights-node.js';
import { referenceSliders } from '../src/bnn/infer.js';
import { verifySliders } from '../src/bnn/verify.js';
import { loadWasmKernel, wasmModule } from '../src/bnn/wasm-kernel.js';
import { loadBnnSliders } from '../src/bnn/backend.js';
import { train } from '../src/bnn/trainer.js';
import { runBnnCommand } from '../src/cli/bnn.js';
import { UsageError } from '../src/cmdline/errors.js';
import { WASM_FILE, WEIGHTS_DIR } from '../src/bnn/paths.js';
import { backendLabel } from '../src/backends.js';
import { getBackend } from '../src/backends-node.js';
import { magicAttacks } from '../src/core/magic.js';

const shipped = (name: string): string => join(WEIGHTS_DIR, `bnn-${name}.bin`);

test('layout: target counts and gather/scatter round trip on every relevant occupancy', () => {
  assert.equal(NETWORK_COUNT, 64 * 14 + 560);
  const occ = new Int32Array(2);
  for (let p = 0; p < 2; p++) {
    for (let sq = 0; sq < 64; sq++) {
      const lay = SQUARE_LAYOUTS[p][sq];
      if (p === 0) assert.equal(lay.targets.length, 14);
      else assert.ok(lay.targets.length >= 7 && lay.targets.length <= 13);
      for (const word of enumerateInputs(lay)) {
        inputToOccupancy(lay, word, occ);
        assert.equal(gatherInput(lay, occ[0] | ~lay.maskLo, occ[1] | ~lay.maskHi), word);
      }
    }
  }
});

for (const layout of NETWORK_LAYOUTS) {
  test(`verify ${layout.name}: TS reference exact on every square, occupancy, rook and bishop`, () => {
    const w = readWeightsFile(shipped(layout.name));
    assert.equal(w.layout.id, layout.id);
    const r = verifySliders(referenceSliders(w.layout, w.weights));
    assert.equal(r.checked, 102400 + 5248);
    assert.deepEqual(r.examples, []);
    assert.equal(r.errors, 0);
  });

  // 16x8x1 has no kernel yet: test/bnn-small.test.ts checks that the backend and verify say so.
  test(`verify ${layout.name}: WASM kernel exact on every input`, () => {
    assert.ok(wasmModule(), 'dist/bnn/bnn.wasm is missing: npm run build builds it');
    const w = readWeightsFile(shipped(layout.name));
    const k = loadWasmKernel(w)!;
    const r = verifySliders(k.sliders);
    assert.equal(r.checked, 107648);
    assert.equal(r.errors, 0);
  });
}

test('verification detects a wrong network (the check can fail)', () => {
  const w = readWeightsFile(shipped('16x32x1'));
  const broken = w.weights.slice();
  for (let i = 0; i < 32; i++) broken[5 * 32 + i] ^= 0xff; // rook a1, sixth target
  const r = verifySliders(referenceSliders(w.layout, broken));
  assert.ok(r.errors > 0);
});

test('WASM batch checksum equals the classical attacks checksum', async () => {
  assert.ok(wasmModule(), 'dist/bnn/bnn.wasm is missing: npm run build builds it');
  const { benchWasmBatch, benchSliders } = await import('../src/bnn/bench.js');
  const k = loadWasmKernel(readWeightsFile(shipped('16x32x1')))!;
  const a = benchWasmBatch(k, 3000, 7),
    b = benchSliders(magicAttacks, 3000, 7);
  assert.equal(a.checksum, b.checksum);
});

test('corrupted and truncated weights files are rejected with one clear line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bnn-'));
  const good = readFileSync(shipped('16x32x1'));
  const corrupt = Uint8Array.from(good);
  corrupt[1000] ^= 0x10;
  writeFileSync(join(dir, weightsFileName(LAYOUT_16)), corrupt);
  assert.throws(
    () => loadBnnSliders({ weightsDir: dir }),
    (e: unknown) =>
      e instanceof BnnWeightsError && /checksum mismatch/.test(e.message) && e.message.includes(dir) && !e.message.includes('\n'),
  );
  assert.throws(() => decodeWeights(good.subarray(0, good.length - 7), 'x.bin'), /x\.bin: truncated/);
  assert.throws(() => decodeWeights(good.subarray(0, 10), 'x.bin'), /truncated/);
  const badMagic = Uint8Array.from(good);
  badMagic[0] = 0;
  assert.throws(() => decodeWeights(badMagic, 'x.bin'), /bad magic/);
  assert.throws(() => loadBnnSliders({ weightsDir: join(dir, 'missing') }), BnnWeightsError);
  assert.doesNotThrow(() => decodeWeights(good, 'ok.bin'));
});

test('loadBnnSliders gives exact attacks (spot check against magic)', () => {
  const s = loadBnnSliders();
  const ts = loadBnnSliders({ engine: 'ts', layout: '64x64x1' });
  const a = new Int32Array(2),
    b = new Int32Array(2),
    c = new Int32Array(2);
  let x = 12345;
  for (let i = 0; i < 2000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) | 0;
    const lo = x & Math.imul(x, 0x2545f491),
      hi = Math.imul(x, 0x9e3779b9) & (x >>> 3);
    const sq = (x >>> 24) & 63;
    magicAttacks.rook(sq, lo, hi, a);
    s.rook(sq, lo, hi, b);
    ts.rook(sq, lo, hi, c);
    assert.deepEqual([b[0], b[1], c[0], c[1]], [a[0], a[1], a[0], a[1]]);
    magicAttacks.bishop(sq, lo, hi, a);
    s.bishop(sq, lo, hi, b);
    ts.bishop(sq, lo, hi, c);
    assert.deepEqual([b[0], b[1], c[0], c[1]], [a[0], a[1], a[0], a[1]]);
  }
});

test('training is deterministic for a seed, independent of threads, and exact', async () => {
  const opts = { seed: 42, pieces: [0, 1], squares: [0, 27] };
  for (const layout of [LAYOUT_16, LAYOUT_64, LAYOUT_8]) {
    const one = await train({ ...opts, layout, workers: 0 });
    const two = await train({ ...opts, layout, workers: 2 });
    assert.equal(one.failed.length, 0);
    assert.deepEqual(two.file.weights, one.file.weights);
    const r = verifySliders(referenceSliders(layout, one.file.weights), one.file);
    assert.ok(r.checked > 0);
    assert.equal(r.errors, 0);
    const other = await train({ ...opts, layout, workers: 0, seed: 43, squares: [0] });
    assert.notDeepEqual(other.file.weights.subarray(0, 64), one.file.weights.subarray(0, 64));
  }
});

test('bnn CLI: user mistakes are one-line UsageErrors (exit 2), a missing weights file exits 1', async () => {
  const usage = (args: string[], re: RegExp) =>
    assert.rejects(runBnnCommand(args), (e: unknown) => e instanceof UsageError && !e.message.includes('\n') && re.test(e.message));
  await usage(['train', '--layout', 'bogus'], /^bnn --layout: expected 16x32x1, 64x64x1, 16x8x1 or all, got 'bogus'$/);
  await usage(['train', '--squares', 'z9'], /^bnn --squares: bad square 'z9'/);
  await usage(['bench', '--count', 'many'], /^bnn --count: 'many' is not a whole number/);
  await usage(['verify', '--frobnicate', 'x'], /^bnn verify: Unknown option '--frobnicate'/);
  await usage(['frobnicate'], /^bnn: unknown command 'frobnicate'/);
  await usage([], /^bnn: missing command/);
  const errors: string[] = [];
  const orig = console.error;
  console.error = (m: string) => {
    errors.push(m);
  };
  try {
    assert.equal(await runBnnCommand(['verify', '--file', '/nonexistent/w.bin']), 1);
  } finally {
    console.error = orig;
  }
  assert.equal(errors.length, 1);
  assert.ok(!errors[0].includes('\n') && errors[0].startsWith('matrix-chess bnn:'), errors[0]);
  const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'matrix-chess');
  const r = spawnSync(process.execPath, [bin, 'bnn', 'train', '--seed', '-1'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^matrix-chess: bnn train: [^\n]+\n$/);
  assert.equal(r.stdout, '');
});

/** Runs a bnn command with console output captured. */
async function bnnCommand(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [],
    err: string[] = [];
  const log = console.log,
    error = console.error;
  console.log = (m: string) => {
    out.push(m);
  };
  console.error = (m: string) => {
    err.push(m);
  };
  try {
    return { code: await runBnnCommand(args), out, err };
  } finally {
    console.log = log;
    console.error = error;
  }
}

const MISSING_WASM = join(tmpdir(), 'matrix-chess-no-such-dir', 'bnn.wasm');

test('the BNN backend says which engine it loaded; a missing kernel is the TS reference, and says so', async () => {
  assert.ok(wasmModule(), 'dist/bnn/bnn.wasm is missing: npm run build builds it');
  const wasm = loadBnnSliders();
  assert.equal(wasm.engine, 'wasm');
  assert.equal(wasm.description, 'WebAssembly kernel, 16x32x1');
  assert.equal(loadBnnSliders({ wasmFile: WASM_FILE }).engine, 'wasm');

  const fallback = loadBnnSliders({ wasmFile: MISSING_WASM, layout: '64x64x1' });
  assert.equal(fallback.engine, 'ts');
  assert.equal(fallback.name, 'bnn-ts-64x64x1');
  assert.equal(fallback.description, `TypeScript reference, 64x64x1; the WebAssembly kernel ${MISSING_WASM} is missing`);
  assert.throws(() => loadBnnSliders({ wasmFile: MISSING_WASM, requireWasm: true }), /BNN WebAssembly kernel not built \(.*is missing\)/);
  const asked = loadBnnSliders({ engine: 'ts' });
  assert.equal(asked.engine, 'ts');
  assert.equal(asked.description, 'TypeScript reference, 16x32x1');

  const backend = await getBackend('bnn');
  assert.equal(backendLabel(backend), 'bnn (WebAssembly kernel, 16x32x1)');
});

test('bnn verify fails in one line when the WASM kernel is missing, unless only the TS reference is asked for', async () => {
  const missing = await bnnCommand(['verify', '--wasm', MISSING_WASM]);
  assert.equal(missing.code, 1);
  assert.deepEqual(missing.out, [], 'nothing is verified, so nothing reads as OK');
  assert.equal(missing.err.length, 1);
  assert.ok(missing.err[0].startsWith(`matrix-chess bnn: verify: WebAssembly kernel ${MISSING_WASM} not found`), missing.err[0]);
  assert.equal((await bnnCommand(['verify', '--engine', 'wasm', '--wasm', MISSING_WASM])).code, 1);

  const tsOnly = await bnnCommand(['verify', '--engine', 'ts', '--layout', '16x32x1', '--wasm', MISSING_WASM]);
  assert.equal(tsOnly.code, 0, tsOnly.err.join('\n'));
  assert.ok(
    tsOnly.out.some((l) => /^ {2}TypeScript reference 16x32x1: 107648 inputs checked, 0 errors$/.test(l)),
    tsOnly.out.join('\n'),
  );
  assert.ok(!tsOnly.out.some((l) => l.includes('WebAssembly')), tsOnly.out.join('\n'));
  assert.equal(tsOnly.out.at(-1), 'verify: OK, 0 errors (TypeScript reference only)');

  await assert.rejects(
    bnnCommand(['verify', '--engine', 'gpu']),
    (e: unknown) => e instanceof UsageError && e.message === "bnn verify --engine: expected both, wasm or ts, got 'gpu'",
  );
});

test('bnn verify checks both engines by default and names each', async () => {
  const both = await bnnCommand(['verify', '--layout', '16x32x1']);
  assert.equal(both.code, 0, both.err.join('\n'));
  assert.ok(both.out.includes('  TypeScript reference 16x32x1: 107648 inputs checked, 0 errors'), both.out.join('\n'));
  assert.ok(both.out.includes('  WebAssembly kernel   16x32x1: 107648 inputs checked, 0 errors'), both.out.join('\n'));
  assert.equal(both.out.at(-1), 'verify: OK, 0 errors');
});
