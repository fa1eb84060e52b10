/** Loading the network with the WebAssembly kernel (or the TypeScript reference, on request). */
import { NnueEvaluator } from './evaluator.js';
import { loadNetwork, type NnueNetwork } from './network.js';
import { DEFAULT_NETWORK_FILE } from './paths.js';
import { TsNnueKernel } from './ts-kernel.js';
import { createWasmKernel } from './wasm-kernel.js';

export type NnueKernelName = 'wasm' | 'ts';

export function nnueFromNetwork(net: NnueNetwork, kernel: NnueKernelName = 'wasm', source = 'network'): NnueEvaluator {
  return new NnueEvaluator(net, kernel === 'wasm' ? createWasmKernel(net) : new TsNnueKernel(net), source);
}

/**
 * The network in `file` (default weights/nnue.bin). Throws NnueFileError for a bad file and
 * NnueKernelMissing when the WebAssembly kernel was not built: callers say so and fall back
 * to the classical evaluation visibly.
 */
export function loadNnue(file = DEFAULT_NETWORK_FILE, kernel: NnueKernelName = 'wasm'): NnueEvaluator {
  return nnueFromNetwork(loadNetwork(file), kernel, file);
}

/** One line describing an evaluator, for `info string` and logs. */
export function describeNnue(e: NnueEvaluator): string {
  const n = e.network;
  return `NNUE ${e.source}: 768x2-${n.hidden}-${n.buckets} buckets, ${e.kernel.name} kernel${n.description ? ` (${n.description})` : ''}`;
}
