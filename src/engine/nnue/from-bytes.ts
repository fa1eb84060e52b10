/**
 * The network from bytes, anywhere (a browser, a worker, Node): the way a program hands the
 * synchronous Engine the evaluation the CLI, UCI and createEngine play by default, without files.
 * On Node, loadNnue() (matrix-chess/node) reads the package's own file instead.
 */
import { NnueEvaluator } from './evaluator.js';
import { decodeNetwork } from './network.js';
import { TsNnueKernel } from './ts-kernel.js';
import { createWasmKernel } from './wasm-kernel.js';

export interface NnueBytesOptions {
  /**
   * The WebAssembly SIMD kernel's bytes (the package's dist/worker/nnue.wasm or dist/nnue/nnue.wasm),
   * the fast one; without them the TypeScript kernel evaluates (the same numbers, slower).
   */
  wasm?: Uint8Array | ArrayBuffer;
  /** What the network is called in describeNnue and errors (a URL, a file name). */
  source?: string;
}

/**
 * An evaluator of the network in `network` (a network file's bytes, such as the package's
 * weights/nnue.bin, fetched or read), for `new Engine({ nnue })`. Throws NnueFileError when the
 * bytes are not a network; a WebAssembly compile error when `wasm` is not the kernel.
 */
export function nnueFromBytes(network: Uint8Array | ArrayBuffer, options: NnueBytesOptions = {}): NnueEvaluator {
  const source = options.source ?? 'network';
  const net = decodeNetwork(network instanceof Uint8Array ? network : new Uint8Array(network), source);
  const wasm = options.wasm;
  const kernel =
    wasm === undefined ? new TsNnueKernel(net) : createWasmKernel(net, wasm instanceof Uint8Array ? wasm : new Uint8Array(wasm));
  return new NnueEvaluator(net, kernel, source);
}
