/**
 * A Lazy SMP helper thread in the browser (bundled as helper.js; started by the engine worker
 * when the page is cross-origin isolated, so SharedArrayBuffer exists). The search is
 * src/engine/smp-helper.ts; only the network's WebAssembly kernel is fetched here, since a
 * helper rebuilds the evaluator from the weights the engine worker sends.
 */
import { createHelper } from '../src/engine/smp-helper.js';
import { NnueEvaluator } from '../src/engine/nnue/evaluator.js';
import { TsNnueKernel } from '../src/engine/nnue/ts-kernel.js';
import { createWasmKernel } from '../src/engine/nnue/wasm-kernel.js';
import type { ToHelper } from '../src/engine/smp.js';
import type { NnueUrls } from './protocol.js';

declare const __NNUE__: NnueUrls | null;

async function fetchKernel(): Promise<Uint8Array | null> {
  if (!__NNUE__) return null;
  const res = await fetch(__NNUE__.wasm);
  if (!res.ok) throw new Error(`${__NNUE__.wasm}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

// Messages wait for the kernel; they are handled strictly in order.
let queue: Promise<(msg: ToHelper) => void> = fetchKernel().then((wasm) =>
  createHelper((n) => {
    if (n.kernel === 'ts') return new NnueEvaluator(n.network, new TsNnueKernel(n.network), n.source);
    if (!wasm) throw new Error('helper thread: the network needs the WebAssembly kernel, which this build does not have');
    return new NnueEvaluator(n.network, createWasmKernel(n.network, wasm), n.source);
  }),
);

self.onmessage = (ev: MessageEvent<ToHelper>) => {
  queue = queue.then((handle) => {
    handle(ev.data);
    return handle;
  });
  // A failure must be seen (the engine worker reports it), not swallowed by the promise chain.
  queue.catch((err: unknown) => {
    setTimeout(() => {
      throw err;
    });
  });
};
