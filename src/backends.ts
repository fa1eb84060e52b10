/**
 * The backend registry: the move generators a user can pick by name ('bitboard', 'matrix',
 * 'bnn', 'bnn-16x8x1') for perft, the terminal game, the UCI engine and the web app. Only the bitboard core is
 * imported statically; the matrix and BNN backends are loaded on first use, so a missing or
 * broken experimental backend can never break the default path. The BNN weights come from the
 * caller's loader (a fetch in the browser); on Node, backends-node.ts reads the package's files.
 */
import type { LegalMoveGenerator } from './core/backend.js';
import { MoveGenerator, defaultGenerator } from './core/movegen.js';
import type { SliderAttacks } from './core/slider-attacks.js';

/** 'bnn' is the seed's 16x32x1 networks; 'bnn-16x8x1' the small networks (docs/bnn.md). */
export const BACKEND_NAMES = ['bitboard', 'matrix', 'bnn', 'bnn-16x8x1'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

/** The network layout each BNN backend loads. */
export type BnnBackendLayout = '16x32x1' | '16x8x1';
const BNN_LAYOUTS: Partial<Record<BackendName, BnnBackendLayout>> = { bnn: '16x32x1', 'bnn-16x8x1': '16x8x1' };

/** A backend name that is not in the registry, or a backend that failed to load. */
export class BackendError extends Error {
  override readonly name = 'BackendError';
  /** 'unknown': a name not in the registry (a user mistake); 'unavailable': it failed to load. */
  constructor(
    readonly backend: string,
    message: string,
    readonly kind: 'unknown' | 'unavailable' = 'unavailable',
  ) {
    super(message);
  }
}

export function isBackendName(name: string): name is BackendName {
  return (BACKEND_NAMES as readonly string[]).includes(name);
}

/**
 * Where the BNN backend gets its networks: on Node the package's weights files (backends-node.ts),
 * in the browser a loader that fetches them.
 */
export interface BackendLoaders {
  bnnSliders?: (layout: BnnBackendLayout) => Promise<SliderAttacks>;
}

const loaded = new Map<BackendName, LegalMoveGenerator>([['bitboard', defaultGenerator]]);

/**
 * Returns the named backend, loading it on first use (a loaded backend is kept, whatever
 * `loaders` later calls pass); throws BackendError with the reason. The BNN backends need
 * `loaders.bnnSliders`; on Node, getBackend (backends-node.ts) passes the package's files.
 */
export async function loadBackend(name: string, loaders: BackendLoaders = {}): Promise<LegalMoveGenerator> {
  if (!isBackendName(name)) {
    throw new BackendError(name, `unknown backend '${name}': expected one of ${BACKEND_NAMES.join(', ')}`, 'unknown');
  }
  const cached = loaded.get(name);
  if (cached) return cached;
  const layout = BNN_LAYOUTS[name];
  const backend =
    layout === undefined
      ? (await load(name, () => import('./matrix/backend.js'))).matrixGenerator
      : bnnGenerator(name, await load(name, () => bnnSliders(loaders, layout)));
  loaded.set(name, backend);
  return backend;
}

/** The BNN sliders say which engine answers (src/bnn/backend.ts); the generator carries it as its detail. */
function bnnGenerator(name: BackendName, sliders: SliderAttacks & { description?: string }): LegalMoveGenerator {
  return new MoveGenerator(sliders, name, sliders.description);
}

/** The backend's name and what was loaded, for users: "bnn (WebAssembly kernel, 16x32x1)". */
export function backendLabel(backend: LegalMoveGenerator): string {
  return backend.detail ? `${backend.name} (${backend.detail})` : backend.name;
}

function bnnSliders(loaders: BackendLoaders, layout: BnnBackendLayout): Promise<SliderAttacks> {
  if (!loaders.bnnSliders) throw new Error('no loader for its weights was given (BackendLoaders.bnnSliders)');
  return loaders.bnnSliders(layout);
}

/** Wraps a load failure (a missing build artefact, corrupt weights) in a BackendError. */
async function load<T>(name: BackendName, loader: () => Promise<T>): Promise<T> {
  try {
    return await loader();
  } catch (err) {
    // BnnWeightsError (missing or corrupt weights) already says what is wrong.
    throw new BackendError(name, `the ${name} backend cannot start: ${(err as Error).message.split('\n')[0]}`);
  }
}
