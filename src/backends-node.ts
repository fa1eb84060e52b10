/**
 * The backend registry on Node: the BNN backends read the package's weights files and
 * WebAssembly kernel (src/bnn/backend.ts, loaded on first use like every experimental backend).
 * The browser never imports this module; it passes its own loader to loadBackend.
 */
import type { LegalMoveGenerator } from './core/backend.js';
import { loadBackend, type BackendLoaders } from './backends.js';

/** The BNN networks from the package's files. */
export const nodeBackendLoaders: BackendLoaders = {
  bnnSliders: async (layout) => (await import('./bnn/backend.js')).loadBnnSliders({ layout }),
};

/** The named backend (loadBackend), the BNN ones from the package's files unless `loaders` says otherwise. */
export function getBackend(name: string, loaders: BackendLoaders = nodeBackendLoaders): Promise<LegalMoveGenerator> {
  return loadBackend(name, loaders);
}
