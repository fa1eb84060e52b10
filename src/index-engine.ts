/**
 * matrix-chess/engine: the search and the evaluation (src/engine: Engine, its limits and errors,
 * the classical evaluation, the network from bytes, bench), and the move generators it can
 * search with (loadBackend; the matrix model as the `matrix` namespace). No Node built-in.
 */
export * from './engine/index.js';
export { loadBackend, BACKEND_NAMES, BackendError, type BackendLoaders, type BackendName, type BnnBackendLayout } from './backends.js';
export * as matrix from './matrix/index.js';
