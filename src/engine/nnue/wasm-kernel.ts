/**
 * Host side of the NNUE WebAssembly SIMD kernel (wasm/kernel.ts, built to dist/nnue/nnue.wasm by
 * `npm install`): instantiates it, copies the network into its memory, and exposes it as an
 * NnueKernel. The memory grows only in init (to hold the network, its W1 sized by the feature
 * set's inputs), so the typed views made after it stay valid.
 */
import type { NnueKernel } from './kernel.js';
import { NNUE_SLOTS } from './kernel.js';
import { checkNetworkShape, networkInputs, squaredChunkNeurons, type NnueNetwork } from './network.js';

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface Exports {
  memory: { buffer: ArrayBuffer };
  init(
    inputs: number,
    hidden: number,
    buckets: number,
    qa: number,
    qb: number,
    scale: number,
    slots: number,
    squared: number,
    chunkNeurons: number,
  ): void;
  w1Ptr(): number;
  b1Ptr(): number;
  w2Ptr(): number;
  b2Ptr(): number;
  psqtPtr(): number;
  accPtr(): number;
  deltaPtr(): number;
  listPtr(): number;
  refresh(slot: number, persp: number, n: number): void;
  update(dst: number, src: number, nAdd: number, nSub: number): void;
  copy(dst: number, src: number): void;
  evaluate(slot: number, stm: number, bucket: number): number;
}

const modules = new WeakMap<Uint8Array, object>();

/**
 * The exports of a new instance, with its own memory, of the AssemblyScript module in `bytes`
 * (compiled once per bytes array); `name` goes into the message if it aborts.
 */
export function instantiateKernel<T>(bytes: Uint8Array, name: string): T {
  let mod = modules.get(bytes);
  if (!mod) {
    mod = new WA.Module(bytes);
    modules.set(bytes, mod);
  }
  return new WA.Instance(mod, {
    env: {
      abort: () => {
        throw new Error(`${name} aborted`);
      },
    },
  }).exports as T;
}

/**
 * The kernel compiled from `bytes` (dist/nnue/nnue.wasm: read from disk by load.ts on Node,
 * fetched in the browser), holding `net`. Each call makes an instance with its own memory.
 */
export function createWasmKernel(net: NnueNetwork, bytes: Uint8Array, slots = NNUE_SLOTS): NnueKernel {
  const ex = instantiateKernel<Exports>(bytes, 'nnue.wasm');
  // W1 and the piece-square term have the feature set's rows (768, or 3840 with king buckets).
  checkNetworkShape(net);
  ex.init(
    networkInputs(net),
    net.hidden,
    net.buckets,
    net.qa,
    net.qb,
    net.scale,
    slots,
    net.activation === 'screlu' ? 1 : 0,
    squaredChunkNeurons(net.qa),
  );
  const buf = ex.memory.buffer;
  new Int16Array(buf, ex.w1Ptr(), net.w1.length).set(net.w1);
  new Int16Array(buf, ex.b1Ptr(), net.b1.length).set(net.b1);
  new Int16Array(buf, ex.w2Ptr(), net.w2.length).set(net.w2);
  new Int32Array(buf, ex.b2Ptr(), net.b2.length).set(net.b2);
  new Int32Array(buf, ex.psqtPtr(), net.psqt.length).set(net.psqt);
  const accBase = ex.accPtr(),
    H = net.hidden;
  return {
    name: 'wasm',
    hidden: H,
    delta: new Int32Array(buf, ex.deltaPtr(), 8),
    list: new Int32Array(buf, ex.listPtr(), 32),
    refresh: ex.refresh,
    update: ex.update,
    copy: ex.copy,
    evaluate: ex.evaluate,
    accumulator(slot, persp) {
      return new Int16Array(ex.memory.buffer, accBase + (slot * 2 + persp) * H * 2, H).slice();
    },
  };
}
