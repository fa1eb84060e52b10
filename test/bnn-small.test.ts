/**
 * The small networks (issue 13): the 16x8x1 layout (exhaustive verification, its file's
 * refusals, the backend that has no WebAssembly kernel yet and says so, perft identical to the
 * core) and the minimal-size study (deterministic, sane, its searches correct).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SQUARE_LAYOUTS, NETWORK_COUNT, enumerateInputs, gatherInput, inputToOccupancy } from '../src/bnn/layout.js';
import { LAYOUT_8, NEURON_THRESHOLD, POPCOUNT8, networkOffset, thresholdOffset, weightBytes } from '../src/bnn/network.js';
import { decodeWeights, BnnWeightsError, HEADER_BYTES } from '../src/bnn/weights.js';
import { readWeightsFile } from '../src/bnn/weights-node.js';
import { infer8, referenceSliders } from '../src/bnn/infer.js';
import { verifySliders } from '../src/bnn/verify.js';
import { loadBnnSliders } from '../src/bnn/backend.js';
import { OwnByteSolver, ownByteProblem } from '../src/bnn/own-byte-network.js';
import { runStudy, studyRows, STUDY_MAX_NEURONS, type StudyResult } from '../src/bnn/study.js';
import { runBnnCommand } from '../src/cli/bnn.js';
import { crc32 } from '../src/core/crc32.js';
import { WEIGHTS_DIR } from '../src/bnn/paths.js';
import { backendLabel } from '../src/backends.js';
import { getBackend } from '../src/backends-node.js';
import { Position } from '../src/core/position.js';
import { perft } from '../src/core/perft.js';
import { chess960SuitePath, readPerftEpd } from '../scripts/perft-files.js';

const SMALL_FILE = join(WEIGHTS_DIR, 'bnn-16x8x1.bin');
const BIN = fileURLToPath(new URL('../../bin/matrix-chess', import.meta.url));

test('16x8x1 file: layout 3, 8 neurons, 13104-byte payload (weights, then one threshold per network)', () => {
  const buf = readFileSync(SMALL_FILE);
  assert.equal(weightBytes(LAYOUT_8), 13104);
  assert.equal(buf.length, HEADER_BYTES + 13104);
  assert.equal(buf[8], 3);
  assert.equal(buf.readUInt16LE(10), 8);
  assert.equal(buf.readUInt32LE(24), 13104);
  const w = readWeightsFile(SMALL_FILE);
  assert.equal(w.layout, LAYOUT_8);
  assert.equal(w.seed, 1);
  const thresholds = w.weights.subarray(NETWORK_COUNT * 8);
  assert.ok(
    thresholds.every((t) => t <= 8),
    'every T is 0..8',
  );
  assert.equal(thresholdOffset(LAYOUT_8, 1, 63, SQUARE_LAYOUTS[1][63].targets.length - 1), weightBytes(LAYOUT_8) - 1);
});

test('verify 16x8x1: TS reference exact on every square, occupancy, rook and bishop', () => {
  const w = readWeightsFile(SMALL_FILE);
  const r = verifySliders(referenceSliders(w.layout, w.weights));
  assert.equal(r.checked, 102400 + 5248);
  assert.deepEqual(r.examples, []);
  assert.equal(r.errors, 0);
});

test('16x8x1 inference is the spec: 8 neurons on the own line byte, fires when more than T fire; a wrong T is caught', () => {
  const w = readWeightsFile(SMALL_FILE).weights;
  const occ = new Int32Array(2);
  for (const [p, sq] of [
    [0, 0],
    [0, 27],
    [1, 18],
    [1, 63],
  ]) {
    const lay = SQUARE_LAYOUTS[p][sq];
    for (const word of enumerateInputs(lay)) {
      inputToOccupancy(lay, word, occ);
      let want = 0;
      lay.targets.forEach((t, ti) => {
        const byte = t.bit < 8 ? word & 0xff : word >>> 8;
        const off = networkOffset(LAYOUT_8, p, sq, ti);
        let fired = 0;
        for (let i = 0; i < 8; i++) if (POPCOUNT8[byte ^ w[off + i]] < NEURON_THRESHOLD) fired++;
        if (fired > w[thresholdOffset(LAYOUT_8, p, sq, ti)]) want |= 1 << t.bit;
      });
      assert.equal(infer8(lay, w, gatherInput(lay, occ[0], occ[1])), want);
    }
  }
  const broken = w.slice();
  broken[thresholdOffset(LAYOUT_8, 0, 27, 3)] = 8; // a network that never fires
  assert.ok(verifySliders(referenceSliders(LAYOUT_8, broken)).errors > 0);
});

/** The shipped file with `edit` applied to its payload, the CRC recomputed, so only the edit is wrong. */
function resealed(edit: (payload: Uint8Array) => void): Uint8Array {
  const buf = Uint8Array.from(readFileSync(SMALL_FILE));
  edit(buf.subarray(HEADER_BYTES));
  new DataView(buf.buffer).setUint32(36, crc32(buf.subarray(HEADER_BYTES), crc32(buf.subarray(0, 36))), true);
  return buf;
}

test('16x8x1 files that are corrupt, truncated, mismatched or hold a bad threshold are refused in one line naming the file', () => {
  const good = readFileSync(SMALL_FILE);
  const oneLine = (re: RegExp) => (e: unknown) => e instanceof BnnWeightsError && re.test(e.message) && !e.message.includes('\n');
  assert.doesNotThrow(() =>
    decodeWeights(
      resealed(() => {}),
      'same.bin',
    ),
  );
  const corrupt = Uint8Array.from(good);
  corrupt[HEADER_BYTES + NETWORK_COUNT * 8 + 5] ^= 1; // a threshold byte
  assert.throws(
    () => decodeWeights(corrupt, 'c.bin'),
    oneLine(/^c\.bin: checksum mismatch \(stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\)/),
  );
  assert.throws(
    () => decodeWeights(good.subarray(0, good.length - 1456), 't.bin'),
    oneLine(/^t\.bin: truncated: 11688 bytes, expected 13144$/),
  );
  assert.throws(
    () => decodeWeights(Buffer.concat([good, Buffer.alloc(3)]), 'l.bin'),
    oneLine(/^l\.bin: too long: 13147 bytes, expected 13144$/),
  );
  const wrongNeurons = Uint8Array.from(good);
  wrongNeurons[10] = 32;
  assert.throws(() => decodeWeights(wrongNeurons, 'n.bin'), oneLine(/^n\.bin: header does not match layout 16x8x1/));
  const badT = resealed((p) => (p[NETWORK_COUNT * 8 + 100] = 9));
  assert.throws(() => decodeWeights(badT, 'T.bin'), oneLine(/^T\.bin: threshold of network 100 is 9, expected 0\.\.8$/));
  // The loader refuses another layout's file under this layout's name.
  const dir = mkdtempSync(join(tmpdir(), 'bnn-small-'));
  try {
    writeFileSync(join(dir, 'bnn-16x8x1.bin'), readFileSync(join(WEIGHTS_DIR, 'bnn-16x32x1.bin')));
    assert.throws(
      () => loadBnnSliders({ layout: '16x8x1', weightsDir: dir }),
      oneLine(/bnn-16x8x1\.bin: holds layout 16x32x1, expected 16x8x1$/),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the 16x8x1 backend runs on the WebAssembly kernel and says so; the TS engine on request; verify passes with both engines', async () => {
  const s = loadBnnSliders({ layout: '16x8x1' });
  assert.equal(s.engine, 'wasm');
  assert.equal(s.description, 'WebAssembly kernel, 16x8x1');
  assert.equal(loadBnnSliders({ layout: '16x8x1', engine: 'ts' }).engine, 'ts');
  assert.equal(backendLabel(await getBackend('bnn-16x8x1')), 'bnn-16x8x1 (WebAssembly kernel, 16x8x1)');
  const r = spawnSync(process.execPath, [BIN, 'bnn', 'verify', '--layout', '16x8x1', '--engine', 'both'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /WebAssembly kernel +16x8x1: 107648 inputs checked, 0 errors/);
  assert.match(r.stdout, /verify: OK, 0 errors/);
});

test('the bnn-16x8x1 backend is perft-identical to the core (start, Kiwipete, positions 3-5, two Chess960 positions)', async () => {
  const backend = await getBackend('bnn-16x8x1');
  const cases: Array<[string, number]> = [
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 4],
    ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 3],
    ['8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 4],
    ['r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 3],
    ['rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', 3],
  ];
  const published = readPerftEpd(chess960SuitePath());
  for (const i of [0, 700]) cases.push([published[i].fen, 3]);
  for (const [fen, depth] of cases) {
    const core = perft(Position.fromFen(fen), depth);
    assert.ok(core > 1000, `${fen}: ${core} nodes`);
    const listed = published.find((c) => c.fen === fen)?.counts.get(depth);
    if (listed !== undefined) assert.equal(core, listed, `${fen}: the published count`);
    assert.equal(perft(Position.fromFen(fen), depth, backend), core, `${fen} depth ${depth}`);
  }
});

/** Whether weights w[0..k) with T are exact on the problem, counted value by value (independent of the solver). */
function exactOn(mask: number, between: number, w: number[], threshold: number): boolean {
  let x = 0;
  do {
    let fired = 0;
    for (const wi of w) if (POPCOUNT8[x ^ wi] < NEURON_THRESHOLD) fired++;
    if (fired > threshold !== ((x & between) === 0)) return false;
    x = (x - mask) & mask;
  } while (x !== 0);
  return true;
}

let study: StudyResult | undefined;
const theStudy = (): StudyResult => (study ??= runStudy(1));

test('study: every network has an exact network of at most 8 own-byte neurons; the distribution sums to 1456; each answer is exact', () => {
  const r = theStudy();
  assert.equal(r.networks.length, NETWORK_COUNT);
  for (const p of r.problems) {
    assert.ok(p.neurons >= 1 && p.neurons <= STUDY_MAX_NEURONS, `problem ${p.mask}/${p.between}: ${p.neurons}`);
    assert.equal(p.weights.length, p.neurons);
    assert.ok(exactOn(p.mask, p.between, p.weights, p.threshold), `problem ${p.mask}/${p.between}`);
    assert.equal(p.proven, p.neurons <= 4);
  }
  // Every network's problem is its own (mask, between).
  for (let i = 0; i < r.networks.length; i += 37) {
    const n = r.networks[i];
    const lay = SQUARE_LAYOUTS[n.piece === 'rook' ? 0 : 1][n.square];
    const ti = lay.targets.findIndex((t) => t.square === n.target);
    const prob = ownByteProblem(n.piece === 'rook' ? 0 : 1, n.square, ti);
    assert.deepEqual([r.problems[n.problem].mask, r.problems[n.problem].between], [prob.mask, prob.between]);
  }
  const rows = studyRows(r);
  const all = rows.find((x) => x.label === 'all networks')!;
  assert.equal(all.total, NETWORK_COUNT);
  assert.equal(
    all.counts.reduce((a, b) => a + b, 0),
    NETWORK_COUNT,
  );
  assert.equal(all.counts[0], 0, 'no network unsolved');
  const rook = rows.find((x) => x.label.startsWith('rook'))!,
    bishop = rows.find((x) => x.label === 'bishop')!;
  assert.deepEqual([rook.total, bishop.total], [896, 560]);
  assert.deepEqual(
    all.counts,
    rook.counts.map((c, k) => c + bishop.counts[k]),
  );
  // A target next to the slider is always attacked: with at most 3 relevant bits, w = 0 fires on every value.
  const adjacent = r.problems.filter((p) => p.between === 0 && POPCOUNT8[p.mask] <= 3);
  assert.ok(adjacent.length > 0 && adjacent.every((p) => p.neurons === 1));
});

test('study: the exhaustive search agrees with brute force over raw weights (k = 1 on every problem, k = 2 on a sample)', () => {
  const solver = new OwnByteSolver();
  const out = new Uint8Array(8);
  const r = theStudy();
  r.problems.forEach((p, i) => {
    solver.setProblem(p);
    let any1 = false;
    for (let a = 0; a < 256 && !any1; a++) any1 = exactOn(p.mask, p.between, [a], 0);
    assert.equal(solver.exhaustive(1, out), any1, `k=1 problem ${i}`);
    if (i % 8 !== 0 || p.neurons === 1) return;
    let any2 = false;
    for (let a = 0; a < 256 && !any2; a++) {
      for (let b = a; b < 256 && !any2; b++) any2 = exactOn(p.mask, p.between, [a, b], 0) || exactOn(p.mask, p.between, [a, b], 1);
    }
    assert.equal(solver.exhaustive(2, out), any2, `k=2 problem ${i}`);
    assert.equal(any2, p.neurons === 2, `problem ${i}: minimal k ${p.neurons}`);
  });
});

test('bnn study is deterministic: the command writes the same JSON as an in-process run, and prints the table', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bnn-study-'));
  try {
    const file = join(dir, 'study.json');
    const r = spawnSync(process.execPath, [BIN, 'bnn', 'study', '--seed', '1', '--json', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const { seconds: _s, ...mine } = theStudy();
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), JSON.parse(JSON.stringify(mine)));
    const lines = r.stdout.split('\n');
    const all = lines.find((l) => l.startsWith('all networks'));
    assert.ok(all, r.stdout);
    assert.match(all, /\s1456$/);
    assert.ok(
      lines.some((l) => /^\d+ distinct \(relevant bits, between bits\) problems, [\d.]+ s$/.test(l)),
      r.stdout,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await assert.rejects(runBnnCommand(['study', '--seed', 'x']), /^UsageError: bnn --seed: 'x' is not a whole number/);
});
