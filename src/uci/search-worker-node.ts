/**
 * The UCI search thread on Node: search-worker.ts in the worker thread that loop-node.ts starts,
 * with the package's files (network, book, BNN weights) and Lazy SMP helpers in worker threads.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nodeBackendLoaders } from '../backends-node.js';
import { DEFAULT_BOOK_FILE, openBook } from '../book/polyglot-node.js';
import { DEFAULT_NETWORK_FILE, loadNnue } from '../engine/nnue/load-node.js';
import { spawnNodeHelper } from '../engine/smp-node.js';
import { runSearchThread } from './search-worker.js';

export interface WorkerData {
  control: Int32Array;
}

if (!parentPort) throw new Error('search-worker-node.js runs in the worker thread that src/uci/loop-node.ts starts');
const port = parentPort;
runSearchThread({
  control: (workerData as WorkerData).control,
  send: (msg) => port.postMessage(msg),
  onMessage: (listener) => port.on('message', listener),
  loadNetwork: (file) => loadNnue(file),
  defaultNetwork: DEFAULT_NETWORK_FILE,
  openBook,
  defaultBook: DEFAULT_BOOK_FILE,
  backendLoaders: nodeBackendLoaders,
  spawnHelper: spawnNodeHelper,
});
