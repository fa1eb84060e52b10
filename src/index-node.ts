/**
 * matrix-chess/node: what needs Node (files, worker threads), beside the platform-neutral entries.
 * createEngine here runs the engine in a worker thread with the package's network, as
 * `matrix-chess uci` plays; loadNnue gives the synchronous Engine the same network.
 */
// The engine on a worker thread: await createEngine(), then analyse(fen, { depth, signal, onInfo }).
export { createEngine } from './client/create-engine-node.js';
// The shipped network: new Engine({ nnue: loadNnue() }).
export {
  loadNnue,
  loadNetwork,
  nnueFromNetwork,
  NnueKernelMissing,
  DEFAULT_NETWORK_FILE,
  NNUE_WASM_FILE,
  type NnueKernelName,
} from './engine/nnue/load-node.js';
// Lazy SMP: new Engine({ threads: 2, spawnHelper: spawnNodeHelper }).
export { spawnNodeHelper } from './engine/smp-node.js';
// A backend by name, the BNN weights from the package: getBackend('bnn').
export { getBackend } from './backends-node.js';
// PGN files, gzipped or not.
export { readPgnFile, readPgnText, streamPgnFile } from './pgn-file-node.js';
