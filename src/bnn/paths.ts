/** Where the package's shipped files are, found from this module's own location. */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Package root: this file is dist/src/bnn/paths.js once built. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const WEIGHTS_DIR = join(PACKAGE_ROOT, 'weights');
export const WASM_FILE = join(PACKAGE_ROOT, 'dist', 'bnn', 'bnn.wasm');
