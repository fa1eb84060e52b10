/** Where the package's network file and kernel are, found from this module's own location. */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Package root: this file is dist/src/engine/nnue/paths.js once built. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DEFAULT_NETWORK_FILE = join(PACKAGE_ROOT, 'weights', 'nnue.bin');
export const NNUE_WASM_FILE = join(PACKAGE_ROOT, 'dist', 'nnue', 'nnue.wasm');
