/**
 * The 16x8x1 WebAssembly kernel against the TypeScript reference of the spec, on random
 * networks (no trained weights needed: the kernel must compute exactly what the spec says for
 * any weights and thresholds), and `bnn bench` for every layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQUARE_LAYOUTS, NETWORK_COUNT, enumerateInputs } from '../src/bnn/layout.js';
import { LAYOUT_8, thresholdOffset, weightBytes } from '../src/bnn/network.js';
import { type WeightsFile } from '../src/bnn/weights.js';
import { writeWeightsFile } from '../src/bnn/weights-node.js';
import { infer8, referenceSliders } from '../src/bnn/infer.js';
import { verifySliders, FULL_COVERAGE } from '../src/bnn/verify.js';
import { loadWasmKernel, loadWasmKernel16x8x1, wasmModule } from '../src/bnn/wasm-kernel.js';
import { benchSliders, benchThreads, benchWasmBatch } from '../src/bnn/bench.js';
import { runBnnCommand } from '../src/cli/bnn.js';
import { UsageError } from '../src/cmdline/errors.js';
import { magicAttacks } from '../src/core/magic.js';
import { Sfc32 } from '../src/core/rng.js';
import { WASM_FILE } from '../src/bnn/paths.js';

/** A 16x8x1 weights file of random networks: random weight bytes, thresholds uniform in 0..8. */
function randomFile(seed: number): WeightsFile {
  const rng = new Sfc32(seed);
  const payload = new Uint8Array(weightBytes(LAYOUT_8));
  const n = NETWORK_COUNT * LAYOUT_8.neurons;
  for (let i = 0; i < n; i++) payload[i] = rng.next() & 0xff;
  for (let i = n; i < payload.length; i++) payload[i] = rng.next() % 9;
  return { layout: LAYOUT_8, seed, pieces: 3, squaresLo: -1, squaresHi: -1, weights: payload };
}

const random = randomFile(11);
const net = random.weights;

function kernel(n: Uint8Array = net) {
  assert.ok(wasmModule(), 'dist/bnn/bnn.wasm is missing: npm run build builds it');
  return loadWasmKernel16x8x1(n)!;
}

test('16x8x1 random networks: payload sizes, and the reference fires on a fair share of inputs (the check below is not vacuous)', () => {
  assert.equal(random.weights.length, 1456 * 9);
  assert.equal(thresholdOffset(LAYOUT_8, 0, 0, 0), 1456 * 8);
  let outputs = 0,
    fired = 0;
  for (let p = 0; p < 2; p++) {
    for (let sq = 0; sq < 64; sq++) {
      const lay = SQUARE_LAYOUTS[p][sq];
      for (const word of enumerateInputs(lay)) {
        const out = infer8(lay, net, word);
        outputs += lay.targets.length;
        for (let x = out; x !== 0; x &= x - 1) fired++;
      }
    }
  }
  assert.ok(fired > 0.1 * outputs && fired < 0.9 * outputs, `${fired} of ${outputs} networks fired`);
});

test('16x8x1 WASM kernel equals the TypeScript reference of the spec on every relevant occupancy of every square, rook and bishop', () => {
  const k = kernel();
  assert.equal(k.layout.name, '16x8x1');
  assert.equal(k.sliders.name, 'bnn-wasm-16x8x1');
  const r = verifySliders(k.sliders, FULL_COVERAGE, referenceSliders(LAYOUT_8, net));
  assert.equal(r.checked, 102400 + 5248);
  assert.deepEqual(r.examples, []);
  assert.equal(r.errors, 0);
});

test('16x8x1: the comparison catches a kernel whose network differs from the reference in one threshold', () => {
  // The first network of rook a1 that fires on some input; the broken kernel never fires it (T = 8).
  const lay = SQUARE_LAYOUTS[0][0];
  const inputs = enumerateInputs(lay);
  const t = lay.targets.findIndex((target) => inputs.some((w) => (infer8(lay, net, w) >> target.bit) & 1));
  assert.ok(t >= 0, 'no rook a1 network fires');
  const payload = net.slice();
  payload[thresholdOffset(LAYOUT_8, 0, 0, t)] = 8;
  const broken = kernel(payload);
  const r = verifySliders(broken.sliders, FULL_COVERAGE, referenceSliders(LAYOUT_8, net));
  assert.ok(r.errors > 0);
  assert.match(r.examples[0], /^rook sq 0 /);
});

test('16x8x1: a layout-3 weights file loads through loadWasmKernel; the batch, per-lookup, TS reference and all-cores checksums agree', async () => {
  const k = loadWasmKernel(random)!;
  assert.equal(k.layout.id, 3);
  const batch = benchWasmBatch(k, 3000, 7);
  assert.equal(batch.queens, 36000);
  assert.equal(benchSliders(k.sliders, 3000, 7).checksum, batch.checksum);
  assert.equal(benchSliders(referenceSliders(LAYOUT_8, net), 3000, 7).checksum, batch.checksum);
  // Random networks are not attack generators: the checksum differs from the classical one.
  assert.notEqual(benchSliders(magicAttacks, 3000, 7).checksum, batch.checksum);
  // Three chunks over two threads: the threads' sums add up to the single-thread checksum.
  const count = 70000;
  const all = await benchThreads('wasm', { engine: 'wasm', weights: random, wasmFile: WASM_FILE, count, seed: 7 }, 2);
  assert.equal(all.queens, count * 12);
  assert.equal(all.checksum, benchWasmBatch(k, count, 7).checksum);
  const magicAll = await benchThreads('magic', { engine: 'magic', wasmFile: WASM_FILE, count, seed: 7 }, 2);
  assert.equal(magicAll.checksum, benchSliders(magicAttacks, count, 7).checksum);
});

test('16x8x1: a kernel file built before the 16x8x1 entry points is refused in one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bnn-old-kernel-'));
  // A valid module without the 16x8x1 exports stands in for a bnn.wasm built from an older kernel.ts.
  const empty = join(dir, 'bnn.wasm');
  writeFileSync(empty, Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  assert.throws(
    () => loadWasmKernel16x8x1(net, empty),
    (e: unknown) => e instanceof Error && e.message === `${empty} has no 16x8x1 entry points: rebuild it with npm run build:wasm`,
  );
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

const checksumOf = (out: string[], prefix: string): string => {
  const l = out.find((x) => x.trimStart().startsWith(prefix));
  assert.ok(l, `no line starting with '${prefix}' in:\n${out.join('\n')}`);
  return /checksum ([0-9a-f]{16})\)/.exec(l)![1];
};

/** The lines of one layout's section, checked for every figure. */
function assertSection(out: string[], layout: string): void {
  const from = out.findIndex((l) => l.startsWith(`${layout}: `) && !l.includes('skipped'));
  assert.ok(from >= 0, `no ${layout} section in:\n${out.join('\n')}`);
  const section = out.slice(from + 1, from + 9).map((l) => l.trimStart());
  const starts = [
    `bnn-wasm-${layout} (batch) `,
    `bnn-wasm-${layout} (batch) x2 threads`,
    'magic ',
    'magic x2 threads',
    `bnn-wasm-${layout} (per call)`,
    'ratio WASM batch / classical: one thread',
    `bnn-ts-${layout} `,
    'checksums: ',
  ];
  starts.forEach((s, i) =>
    assert.ok(section[i]?.startsWith(s), `line ${i} of the ${layout} section should start with '${s}':\n${out.join('\n')}`),
  );
  for (const l of section.slice(0, 5).concat(section[6])) assert.match(l, / M queens\/s wall/);
}

test('bnn bench: every shipped layout, one thread and all cores, classical beside it, checksums equal', async () => {
  const r = await bnnCommand(['bench', '--count', '3000', '--threads', '2']);
  assert.equal(r.code, 0, r.err.join('\n'));
  assert.deepEqual(r.err, []);
  assert.match(r.out[0], /^bnn bench: 3000 occupancies x 12 squares, .*all cores = 2 threads$/);
  for (const layout of ['16x32x1', '64x64x1']) assertSection(r.out, layout);
  // 16x8x1 is benched when its weights file is shipped, else skipped in one line.
  const skipped = r.out.filter((l) => l.startsWith('16x8x1: ') && l.includes('not found: skipped'));
  if (skipped.length === 0) assertSection(r.out, '16x8x1');
  else assert.equal(skipped.length, 1);
  const sections = r.out.filter((l) => l.trimStart().startsWith('checksums: '));
  assert.equal(sections.length, skipped.length === 0 ? 3 : 2);
  for (const l of sections) assert.equal(l.trim(), "checksums: every figure equals the classical attacks'");
  assert.equal(checksumOf(r.out, 'bnn-wasm-16x32x1 (batch) x2'), checksumOf(r.out, 'magic '));
});

test('bnn bench --file: a 16x8x1 file of random networks is benched and reported as not exact (exit 1), its figures agreeing with each other', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'bnn-bench-')), 'random-16x8x1.bin');
  writeWeightsFile(file, random);
  const r = await bnnCommand(['bench', '--count', '3000', '--threads', '2', '--file', file]);
  assert.equal(r.code, 1);
  assertSection(r.out, '16x8x1');
  assert.match(
    r.out.find((l) => l.includes('checksums: '))!,
    /MISMATCH with the classical attacks \(4\): the WASM kernel agrees with the TypeScript reference, so these networks are not exact/,
  );
  assert.equal(r.err.length, 4);
  for (const e of r.err) assert.match(e, /^bnn bench 16x8x1: checksum mismatch: /);
  const batch = checksumOf(r.out, 'bnn-wasm-16x8x1 (batch) ');
  assert.equal(checksumOf(r.out, 'bnn-wasm-16x8x1 (batch) x2 threads'), batch);
  assert.notEqual(checksumOf(r.out, 'magic '), batch);
});

test('bnn bench: bad --layout and --file with --layout are one-line usage errors', async () => {
  await assert.rejects(
    runBnnCommand(['bench', '--layout', 'bogus']),
    (e: unknown) => e instanceof UsageError && e.message === "bnn bench --layout: expected 16x32x1, 64x64x1, 16x8x1 or all, got 'bogus'",
  );
  await assert.rejects(
    runBnnCommand(['bench', '--layout', '16x32x1', '--file', 'x.bin']),
    (e: unknown) => e instanceof UsageError && /^bnn bench: --file and --layout exclude each other/.test(e.message),
  );
  await assert.rejects(runBnnCommand(['bench', '--threads', '0']), (e: unknown) => e instanceof UsageError && /--threads/.test(e.message));
});
