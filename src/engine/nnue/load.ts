/** Loading the network with the WebAssembly kernel (or the TypeScript reference, on request). */
import { NnueEvaluator } from './evaluator.js';
import { loadNetwork, networkInputs, type NnueNetwork } from './network.js';
import { existsSync, readFileSync } from 'node:fs';
import { DEFAULT_NETWORK_FILE, NNUE_WASM_FILE } from './paths.js';
import { TsNnueKernel } from './ts-kernel.js';
import { createWasmKernel } from './wasm-kernel.js';

export type NnueKernelName = 'wasm' | 'ts';

export class NnueKernelMissing extends Error {
  override readonly name = 'NnueKernelMissing';
}

let wasmBytes: Uint8Array | undefined;

function kernelBytes(): Uint8Array {
  if (!wasmBytes) {
    if (!existsSync(NNUE_WASM_FILE)) throw new NnueKernelMissing(`${NNUE_WASM_FILE} is missing (run npm install or npm run build:wasm)`);
    wasmBytes = readFileSync(NNUE_WASM_FILE);
  }
  return wasmBytes;
}

export function nnueFromNetwork(net: NnueNetwork, kernel: NnueKernelName = 'wasm', source = 'network'): NnueEvaluator {
  return new NnueEvaluator(net, kernel === 'wasm' ? createWasmKernel(net, kernelBytes()) : new TsNnueKernel(net), source);
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
  const kind = n.kind === 'residual' ? ', a residual added to the classical evaluation' : '';
  const act = n.activation === 'screlu' ? ', squared clipped ReLU' : '';
  return `NNUE ${e.source}: ${networkInputs(n)}x2-${n.hidden}-${n.buckets} buckets, ${e.kernel.name} kernel${act}${kind}${n.description ? ` (${n.description})` : ''}`;
}
