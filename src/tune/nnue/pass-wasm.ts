/**
 * The trainer's pass on the WebAssembly SIMD kernel (wasm/pass.ts, built to
 * dist/tune/nnue-pass.wasm by `npm install`): the same forward and backward pass as the
 * TypeScript reference (pass.ts), bit for bit (test/nnue-pass-wasm.test.ts), about three
 * times faster. Each run copies the weights in (they change every step) and, with gradients, the
 * gradient buffers in and out; the kernel keeps nothing else between runs. The loss, σ and the
 * label stay here, in the reference's code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  Pass,
  SCALE,
  positionColumns,
  target,
  trainerInputs,
  sigmoid,
  type FloatNetwork,
  type Labels,
  type NnuePass,
  type PassKernel,
} from './pass.js';
import type { NnueSet } from './dataset.js';
import { instantiateKernel } from '../../engine/nnue/wasm-kernel.js';

/** The kernel, dist/tune/nnue-pass.wasm (this file is dist/src/tune/nnue/pass-wasm.js once built). */
export const NNUE_PASS_WASM_FILE = fileURLToPath(new URL('../../../tune/nnue-pass.wasm', import.meta.url));

interface Exports {
  memory: { buffer: ArrayBuffer };
  init(hidden: number, buckets: number, squared: number, inputs: number, moments: number): void;
  momentPtr(p: number, which: number): number;
  adam(
    w: number,
    g: number,
    m: number,
    v: number,
    n: number,
    clip: number,
    shrink: number,
    lr: number,
    scale: number,
    c1: number,
    c2: number,
  ): void;
  w1Ptr(): number;
  b1Ptr(): number;
  w2Ptr(): number;
  psqtPtr(): number;
  gw1Ptr(): number;
  gb1Ptr(): number;
  gw2Ptr(): number;
  gpsqtPtr(): number;
  colsPtr(): number;
  colnPtr(): number;
  forward(n: number, bucket: number, out0: number): number;
  backward(g: number): void;
}

let bytes: Uint8Array | undefined;

function passBytes(): Uint8Array {
  if (!bytes) {
    if (!existsSync(NNUE_PASS_WASM_FILE)) throw new Error(`${NNUE_PASS_WASM_FILE} is missing (run npm install or npm run build:wasm)`);
    bytes = readFileSync(NNUE_PASS_WASM_FILE);
  }
  return bytes;
}

/** The weight arrays the kernel holds, with their views in its memory. */
const HELD = ['w1', 'b1', 'w2', 'psqt'] as const;

/** The weight arrays the kernel holds, in the order of its moments (momentPtr). */
export type HeldPart = (typeof HELD)[number];
export const HELD_PARTS: readonly HeldPart[] = HELD;

export class WasmPass implements NnuePass {
  private readonly ex: Exports;
  /** The kernel's weights and gradient buffers (views of its memory). */
  readonly weights: Record<HeldPart, Float32Array>;
  readonly grads: Record<HeldPart, Float32Array>;
  private readonly colS: Int32Array;
  private readonly colN: Int32Array;
  /**
   * `resident`: the trainer keeps its weights, gradients and Adam's moments in the kernel's memory
   * (ResidentStep: `net`'s and the gradients' held arrays are these views), so a run copies
   * nothing in or out, and `adam` updates them there.
   */
  constructor(
    readonly net: FloatNetwork,
    readonly resident = false,
  ) {
    this.ex = instantiateKernel<Exports>(passBytes(), 'nnue-pass.wasm');
    const ex = this.ex;
    ex.init(net.hidden, net.buckets, net.activation === 'screlu' ? 1 : 0, trainerInputs(net.features), resident ? 1 : 0);
    // The memory never grows after init, so the views stay valid.
    const buf = ex.memory.buffer,
      view = (ptr: number, k: HeldPart): Float32Array => new Float32Array(buf, ptr, net[k].length);
    this.weights = { w1: view(ex.w1Ptr(), 'w1'), b1: view(ex.b1Ptr(), 'b1'), w2: view(ex.w2Ptr(), 'w2'), psqt: view(ex.psqtPtr(), 'psqt') };
    this.grads = {
      w1: view(ex.gw1Ptr(), 'w1'),
      b1: view(ex.gb1Ptr(), 'b1'),
      w2: view(ex.gw2Ptr(), 'w2'),
      psqt: view(ex.gpsqtPtr(), 'psqt'),
    };
    this.colS = new Int32Array(buf, ex.colsPtr(), 64);
    this.colN = new Int32Array(buf, ex.colnPtr(), 64);
  }

  /** A resident kernel's moment (which 0: first, 1: second) of a held array, as a view. */
  moment(k: HeldPart, which: 0 | 1): Float32Array {
    if (!this.resident) throw new Error('WasmPass: only a resident kernel keeps the moments');
    return new Float32Array(this.ex.memory.buffer, this.ex.momentPtr(HELD.indexOf(k), which), this.net[k].length);
  }

  /** A resident kernel's Adam update of the first n values of held array k (updateRange's arguments; gradients.ts). */
  adam(k: HeldPart, clip: number, shrink: number, lr: number, scale: number, c1: number, c2: number, n = this.net[k].length): void {
    const ex = this.ex,
      p = HELD.indexOf(k);
    ex.adam(
      this.weights[k].byteOffset,
      this.grads[k].byteOffset,
      ex.momentPtr(p, 0),
      ex.momentPtr(p, 1),
      n,
      clip,
      shrink,
      lr,
      scale,
      c1,
      c2,
    );
  }

  run(set: NnueSet, idx: Uint32Array, from: number, to: number, labels: Labels, grads: FloatNetwork | null): number {
    const net = this.net,
      ex = this.ex,
      classical = net.kind === 'residual' ? set.classical : undefined,
      perK = SCALE / labels.wdlScale;
    if (!this.resident) {
      for (const k of HELD) this.weights[k].set(net[k]);
      if (grads !== null) for (const k of HELD) this.grads[k].set(grads[k]);
    }
    let loss = 0;
    for (let k = from; k < to; k++) {
      const i = idx[k],
        nc = positionColumns(set, i, net.features, this.colS, this.colN),
        b = set.bucket[i];
      const out = ex.forward(nc, b, classical === undefined ? net.b2[b] : net.b2[b] + classical[i] / SCALE);
      const p = sigmoid(out * perK),
        err = p - target(set, i, labels);
      loss += err * err;
      if (grads === null) continue;
      const g = 2 * err * p * (1 - p) * perK;
      grads.b2[b] += g;
      ex.backward(g);
    }
    if (grads !== null && !this.resident) for (const k of HELD) grads[k].set(this.grads[k]);
    return loss;
  }
}

/** The pass of `net` on the chosen kernel. */
export function createPass(net: FloatNetwork, kernel: PassKernel): NnuePass {
  return kernel === 'wasm' ? new WasmPass(net) : new Pass(net);
}
