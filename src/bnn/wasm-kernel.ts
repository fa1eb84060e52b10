/**
 * Host side of the WebAssembly SIMD kernel: compiles dist/bnn/bnn.wasm synchronously, fills its
 * tables from the layout and a weights file, and exposes it as a SliderAttacks provider plus the
 * batch entry point the benchmark uses (one JS->WASM call per batch, not per lookup).
 */
import { readFileSync, existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { rayWalkAttacks, type SliderAttacks } from '../core/slider-attacks.js';
import { SQUARE_LAYOUTS, NETWORK_BASE, NETWORK_COUNT, ROOK } from './layout.js';
import { LAYOUT_8, LAYOUT_16, thresholdOffset, weightBytes, type NetworkLayout } from './network.js';
import { referenceSliders } from './infer.js';
import type { WeightsFile } from './weights.js';
import { WASM_FILE } from './paths.js';

/** The slice of the WebAssembly JS API used here (the project's lib settings do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: unknown };
}
export type WasmModule = { readonly __brand?: 'WebAssembly.Module' };
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface KernelExports {
  memory: { buffer: ArrayBuffer };
  infoPtr(): number;
  bitsPtr(): number;
  weightsPtr(): number;
  spreadPtr(): number;
  outPtr(): number;
  planesPtr(): number;
  inputPlanesPtr(): number;
  planes8Ptr(): number;
  alloc(bytes: number): number;
  setLayout(id: number): void;
  attacks(piece: number, sq: number, lo: number, hi: number): number;
  queenBatch(occPtr: number, sqPtr: number, count: number, perOcc: number): number;
  attacks8(piece: number, sq: number, lo: number, hi: number): number;
  queenBatch8(occPtr: number, sqPtr: number, count: number, perOcc: number): number;
}

/** The batch entry point: queen attacks on `perOcc` squares (bytes at sqPtr) of each of `count` occupancies (u64 at occPtr); checksum at outPtr(). */
export type QueenBatch = (occPtr: number, sqPtr: number, count: number, perOcc: number) => number;

export interface WasmKernel {
  readonly layout: NetworkLayout;
  readonly sliders: SliderAttacks;
  /** The layout's batch entry point (queenBatch, or queenBatch8 for 16x8x1). */
  readonly queenBatch: QueenBatch;
  readonly exports: KernelExports;
  /** Views into kernel memory, valid until the memory grows. */
  heapU8(): Uint8Array;
}

const INFO_SIZE = 80;
const MUL_FILE = [0x10204080, 0x01020408]; // 0x0102040810204080 as (lo, hi)
const MUL_FOLD = [0x01010101, 0x01010101];

const compiled = new Map<string, WasmModule>();

/** The compiled module, or undefined when the kernel file `file` does not exist (not built). */
export function wasmModule(file = WASM_FILE): WasmModule | undefined {
  const cached = compiled.get(file);
  if (cached) return cached;
  if (!existsSync(file)) return undefined;
  // Compile straight to optimised code: the kernel's hot loop runs inside one long call, which
  // V8's baseline-then-tier-up scheme would leave in baseline code (about 40% slower). Eagerly,
  // so that the first timed call does not pay for compilation.
  setFlagsFromString('--no-liftoff');
  setFlagsFromString('--no-wasm-lazy-compilation');
  const mod = new WA.Module(readFileSync(file));
  compiled.set(file, mod);
  return mod;
}

/** The kernel for a weights file of any layout, or undefined when the kernel file does not exist. */
export function loadWasmKernel(w: WeightsFile, file = WASM_FILE): WasmKernel | undefined {
  if (w.layout.id === LAYOUT_8.id) return loadWasmKernel16x8x1(w.weights, file);
  const ex = instantiate(file);
  if (!ex) return undefined;
  fillTables(ex, w.layout, w.weights);
  ex.setLayout(w.layout.id);
  const kernel = makeKernel(ex, w.layout, ex.attacks, ex.queenBatch);
  selfCheck(kernel.sliders, rayWalkAttacks);
  return kernel;
}

/**
 * The 16x8x1 kernel from its payload (1456 x 8 weight bytes, then 1456 thresholds; canonical
 * network order), or undefined when the kernel file does not exist. The weights need not be
 * exact: the load-time check compares with the TypeScript reference of the same networks.
 */
export function loadWasmKernel16x8x1(payload: Uint8Array, file = WASM_FILE): WasmKernel | undefined {
  if (payload.length !== weightBytes(LAYOUT_8)) {
    throw new Error(`16x8x1 kernel: expected ${weightBytes(LAYOUT_8)} payload bytes (weights, then thresholds), got ${payload.length}`);
  }
  const ex = instantiate(file);
  if (!ex) return undefined;
  if (typeof ex.queenBatch8 !== 'function') throw new Error(`${file} has no 16x8x1 entry points: rebuild it with npm run build:wasm`);
  fillTables(ex, LAYOUT_8, payload);
  fillTables16x8x1(ex, payload);
  const kernel = makeKernel(ex, LAYOUT_8, ex.attacks8, ex.queenBatch8);
  selfCheck(kernel.sliders, referenceSliders(LAYOUT_8, payload));
  return kernel;
}

function instantiate(file: string): KernelExports | undefined {
  const mod = wasmModule(file);
  if (!mod) return undefined;
  const inst = new WA.Instance(mod, {
    env: {
      abort: () => {
        throw new Error('bnn.wasm aborted');
      },
    },
  });
  return inst.exports as unknown as KernelExports;
}

function makeKernel(ex: KernelExports, layout: NetworkLayout, attacks: KernelExports['attacks'], queenBatch: QueenBatch): WasmKernel {
  const out = ex.outPtr() >>> 2;
  let i32 = new Int32Array(ex.memory.buffer);
  const view = (): Int32Array => (i32.buffer === ex.memory.buffer ? i32 : (i32 = new Int32Array(ex.memory.buffer)));
  const sliders: SliderAttacks = {
    name: `bnn-wasm-${layout.name}`,
    rook(sq, occLo, occHi, res) {
      res[0] = attacks(0, sq, occLo, occHi);
      res[1] = view()[out + 1];
    },
    bishop(sq, occLo, occHi, res) {
      res[0] = attacks(1, sq, occLo, occHi);
      res[1] = view()[out + 1];
    },
  };
  return { layout, sliders, queenBatch, exports: ex, heapU8: () => new Uint8Array(ex.memory.buffer) };
}

/**
 * A quick agreement check with a reference on every square, so a stale dist/bnn/bnn.wasm (built
 * from an older kernel whose tables differ) fails loudly at load time instead of producing
 * wrong moves. The exhaustive proof is `bnn verify`.
 */
function selfCheck(s: SliderAttacks, reference: SliderAttacks): void {
  const a = new Int32Array(2),
    b = new Int32Array(2);
  let x = 0x9e3779b9;
  for (let sq = 0; sq < 64; sq++) {
    for (let k = 0; k < 4; k++) {
      x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) ^ sq;
      const lo = x & Math.imul(x, 0x297a2d39),
        hi = Math.imul(x, 0x85ebca6b) & (x >>> 2);
      s.rook(sq, lo, hi, a);
      reference.rook(sq, lo, hi, b);
      const okRook = a[0] === b[0] && a[1] === b[1];
      s.bishop(sq, lo, hi, a);
      reference.bishop(sq, lo, hi, b);
      if (!okRook || a[0] !== b[0] || a[1] !== b[1]) {
        throw new Error(`BNN WebAssembly kernel disagrees with the reference on square ${sq}: rebuild it with npm run build:wasm`);
      }
    }
  }
}

/** Geometry (gather/scatter) of every square, the weights, and the 16x32x1 bit planes. */
function fillTables(ex: KernelExports, layout: NetworkLayout, weightBytes: Uint8Array): void {
  const mem = new DataView(ex.memory.buffer);
  const u8 = new Uint8Array(ex.memory.buffer);
  const info = ex.infoPtr(),
    bits = ex.bitsPtr(),
    weights = ex.weightsPtr(),
    spread = ex.spreadPtr();
  const planes = ex.planesPtr(),
    inputPlanes = ex.inputPlanesPtr();
  let padded = 0; // networks placed in the plane area so far, in groups of 4
  // Input planes: byte b, bit p -> 16 bytes of 0x55 (low byte, even neurons) or 0xAA (high byte, odd).
  for (let b = 0; b < 256; b++) {
    for (let p = 0; p < 8; p++) {
      if ((b >> p) & 1) {
        u8.fill(0x55, inputPlanes + b * 128 + p * 16, inputPlanes + b * 128 + p * 16 + 16);
        u8.fill(0xaa, inputPlanes + 32768 + b * 128 + p * 16, inputPlanes + 32768 + b * 128 + p * 16 + 16);
      }
    }
  }
  const n = layout.neurons;
  u8.set(weightBytes, weights);
  const put64 = (addr: number, lo: number, hi: number): void => {
    mem.setInt32(addr, lo, true);
    mem.setInt32(addr + 4, hi, true);
  };
  // Spread tables: [0] output byte B of a rook (bit r -> a-file square 8r), [1] a byte copied to every rank.
  for (let b = 0; b < 256; b++) {
    let lo = 0,
      hi = 0;
    for (let r = 0; r < 8; r++)
      if ((b >> r) & 1) {
        if (r < 4) lo |= 1 << (8 * r);
        else hi |= 1 << (8 * (r - 4));
      }
    put64(spread + 8 * b, lo, hi);
    const rep = Math.imul(b, 0x01010101);
    put64(spread + 2048 + 8 * b, rep, rep);
  }
  for (let p = 0; p < 2; p++) {
    for (let sq = 0; sq < 64; sq++) {
      const lay = SQUARE_LAYOUTS[p][sq];
      const e = info + ((p << 6) | sq) * INFO_SIZE;
      const rook = p === ROOK;
      put64(e + 0, lay.maskLo & lay.lineALo, lay.maskHi & lay.lineAHi);
      put64(e + 8, lay.maskLo & lay.lineBLo, lay.maskHi & lay.lineBHi);
      const mul = rook ? MUL_FILE : MUL_FOLD;
      put64(e + 16, mul[0], mul[1]);
      put64(e + 24, lay.lineALo, lay.lineAHi);
      put64(e + 32, lay.lineBLo, lay.lineBHi);
      const base = NETWORK_BASE[p][sq];
      mem.setUint32(e + 40, weights + base * n, true);
      mem.setUint32(e + 44, lay.targets.length, true);
      mem.setUint32(e + 48, rook ? sq & 7 : 0, true);
      mem.setUint32(e + 52, rook ? spread : spread + 2048, true);
      mem.setUint32(e + 56, bits + base, true);
      lay.targets.forEach((t, k) => {
        u8[bits + base + k] = t.bit;
      });
      // Where the contiguous network outputs go in the word: each line's targets are a run of
      // positions around the square's own position (the hole).
      const ownA = sq & 7,
        ownB = rook ? sq >> 3 : sq & 7;
      const bitsA = lay.targets.filter((t) => t.bit < 8).map((t) => t.bit);
      const bitsB = lay.targets.filter((t) => t.bit >= 8).map((t) => t.bit - 8);
      const minA = Math.min(ownA, ...bitsA),
        minB = Math.min(ownB, ...bitsB);
      mem.setUint32(e + 60, bitsA.length | ((ownA - minA) << 4) | (minA << 8) | ((ownB - minB) << 12) | ((8 + minB) << 16), true);
      const count = lay.targets.length,
        groups = (count + 3) >> 2;
      mem.setUint32(e + 64, planes + padded * 32, true);
      mem.setUint32(e + 68, groups, true);
      mem.setUint32(e + 72, count >= 32 ? -1 : (1 << count) - 1, true);
      if (layout.id === LAYOUT_16.id) {
        for (let k = 0; k < count; k++) {
          const src = (base + k) * 32;
          const group = planes + ((padded + k) >> 2) * 128,
            lane = (k & 3) * 4;
          const plane = new Int32Array(8);
          for (let p = 0; p < 8; p++) {
            for (let i = 0; i < 32; i++) plane[p] |= ((weightBytes[src + i] >> p) & 1) << i;
          }
          // Input bits 0 and 7 are never relevant (always 0): store their half-adder instead.
          const b0 = plane[0],
            b7 = plane[7];
          plane[0] = b0 ^ b7;
          plane[7] = b0 & b7;
          for (let p = 0; p < 8; p++) mem.setInt32(group + p * 16 + lane, plane[p], true);
        }
      }
      padded += groups * 4;
    }
  }
  if (NETWORK_COUNT * n > 1456 * 64 || padded > 2048) throw new Error('internal: kernel weight area too small');
}

/**
 * 16x8x1 tables: per (piece, square) one group of 8 bit planes with the network of output bit k
 * in byte lane k (bit i = neuron i): planes 1..6 are weight bits 1..6; as input bits 0 and 7 are
 * never set, plane 0 marks the neurons with exactly one of weight bits 0 and 7 set and plane 7
 * those with both; then 8 - T per lane.
 */
function fillTables16x8x1(ex: KernelExports, payload: Uint8Array): void {
  const u8 = new Uint8Array(ex.memory.buffer);
  const planes = ex.planes8Ptr();
  for (let piece = 0; piece < 2; piece++) {
    for (let sq = 0; sq < 64; sq++) {
      const g = planes + ((piece << 6) | sq) * 144;
      const base = NETWORK_BASE[piece][sq];
      SQUARE_LAYOUTS[piece][sq].targets.forEach((t, k) => {
        const bits = new Uint8Array(8); // bits[p]: bit p of every neuron's weight, neuron i at bit i
        for (let i = 0; i < 8; i++) {
          const wb = payload[(base + k) * 8 + i];
          for (let p = 0; p < 8; p++) bits[p] |= ((wb >> p) & 1) << i;
        }
        const b0 = bits[0],
          b7 = bits[7];
        bits[0] = b0 ^ b7;
        bits[7] = b0 & b7;
        for (let p = 0; p < 8; p++) u8[g + p * 16 + t.bit] = bits[p];
        // Fires when fewer than 8 - T neurons are silent; T >= 8 never fires (0), like an empty lane.
        u8[g + 128 + t.bit] = Math.max(0, 8 - payload[thresholdOffset(LAYOUT_8, piece, sq, k)]);
      });
    }
  }
}
