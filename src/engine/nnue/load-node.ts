/**
 * The network on Node: the package's network file and WebAssembly kernel, found from this
 * module's own location, or any network file, read from disk and decoded (network.ts decodes
 * bytes only; the browser fetches its own, web/nnue-net.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NnueEvaluator } from './evaluator.js';
import { NnueFileError, decodeNetwork, type NnueNetwork } from './network.js';
import { TsNnueKernel } from './ts-kernel.js';
import { createWasmKernel } from './wasm-kernel.js';

/** Package root: this file is dist/src/engine/nnue/load-node.js once built. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DEFAULT_NETWORK_FILE = join(PACKAGE_ROOT, 'weights', 'nnue.bin');
export const NNUE_WASM_FILE = join(PACKAGE_ROOT, 'dist', 'nnue', 'nnue.wasm');

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

/** The network in `file`; throws NnueFileError for a file that cannot be read or is not a network. */
export function loadNetwork(file: string): NnueNetwork {
  let buf: Uint8Array;
  try {
    buf = readFileSync(file);
  } catch (e) {
    throw new NnueFileError(file, `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return decodeNetwork(buf, file);
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
