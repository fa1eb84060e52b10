/**
 * The evaluation network in the browser: the file and the WebAssembly kernel the build put next
 * to the page, fetched once and decoded with src/engine/nnue's pure decoder. The engine worker
 * plays with it; the panel looks inside it (with the TypeScript reference kernel).
 */
import { decodeNetwork, type NnueNetwork } from '../src/engine/nnue/network.js';
import { NnueEvaluator } from '../src/engine/nnue/evaluator.js';
import { TsNnueKernel } from '../src/engine/nnue/ts-kernel.js';
import { createWasmKernel } from '../src/engine/nnue/wasm-kernel.js';
import type { NnueUrls } from './protocol.js';

async function fetchBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const networks = new Map<string, Promise<NnueNetwork>>();

export function fetchNetwork(url: string): Promise<NnueNetwork> {
  let p = networks.get(url);
  if (!p) {
    p = fetchBytes(url).then((bytes) => decodeNetwork(bytes, url)); // NnueFileError names the problem
    networks.set(url, p);
    p.catch(() => networks.delete(url));
  }
  return p;
}

/** The network with the WebAssembly kernel, for play. */
export async function fetchNnue(urls: NnueUrls): Promise<NnueEvaluator> {
  const [net, wasm] = await Promise.all([fetchNetwork(urls.net), fetchBytes(urls.wasm)]);
  return new NnueEvaluator(net, createWasmKernel(net, wasm), urls.net);
}

/** The network with the TypeScript reference kernel, for the panel. */
export async function fetchNnueReference(url: string): Promise<NnueEvaluator> {
  const net = await fetchNetwork(url);
  return new NnueEvaluator(net, new TsNnueKernel(net), url);
}
