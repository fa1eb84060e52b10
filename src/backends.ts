/**
 * The backend registry: the move generators a user can pick by name ('bitboard', 'matrix',
 * 'bnn') for perft, the terminal game and the UCI engine. Only the bitboard core is imported
 * statically; the matrix and BNN backends are loaded on first use, so a missing or broken
 * experimental backend can never break the default path.
 */
import { MAX_MOVES, MoveGenerator, defaultGenerator } from './core/movegen.js';
import { perft as corePerft } from './core/perft.js';
export type { MoveSource };
import type { Position } from './core/position.js';
import { legalMovesAsMoveSource, type MoveSource } from './core/backend.js';

export const BACKEND_NAMES = ['bitboard', 'matrix', 'bnn'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

export interface Backend {
  readonly name: BackendName;
  /** Legal moves (and the noisy subset) for search and move lists. */
  readonly generator: MoveSource;
  /** Leaf count of the legal move tree to `depth`; `pos` is restored afterwards. */
  perft(pos: Position, depth: number): number;
  /** What was loaded, when a backend has variants (bnn: WebAssembly kernel or TS reference). */
  readonly detail?: string;
}

/** The backend's name and what was loaded, for users: "bnn (WebAssembly kernel, 16x32x1)". */
export function backendLabel(backend: Backend): string {
  return backend.detail ? `${backend.name} (${backend.detail})` : backend.name;
}

/** A backend name that is not in the registry, or a backend that failed to load. */
export class BackendError extends Error {
  override readonly name = 'BackendError';
  /** 'unknown': a name not in the registry (a user mistake); 'unavailable': it failed to load. */
  constructor(readonly backend: string, message: string, readonly kind: 'unknown' | 'unavailable' = 'unavailable') {
    super(message);
  }
}

export function isBackendName(name: string): name is BackendName {
  return (BACKEND_NAMES as readonly string[]).includes(name);
}

const bitboard: Backend = {
  name: 'bitboard',
  generator: defaultGenerator,
  perft: (pos, depth) => corePerft(pos, depth, defaultGenerator),
};

const loaded = new Map<BackendName, Backend>([['bitboard', bitboard]]);

/** Returns the named backend, loading it on first use; throws BackendError with the reason. */
export async function getBackend(name: string): Promise<Backend> {
  if (!isBackendName(name)) {
    throw new BackendError(name, `unknown backend '${name}': expected one of ${BACKEND_NAMES.join(', ')}`, 'unknown');
  }
  const cached = loaded.get(name);
  if (cached) return cached;
  const backend = name === 'matrix' ? await loadMatrix() : await loadBnn();
  loaded.set(name, backend);
  return backend;
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

async function loadMatrix(): Promise<Backend> {
  const { matrixBackend } = await load('matrix', () => import('./matrix/backend.js'));
  return { name: 'matrix', generator: legalMovesAsMoveSource(matrixBackend), perft: (pos, depth) => matrixBackend.perft(pos, depth) };
}

async function loadBnn(): Promise<Backend> {
  const sliders = await load('bnn', async () => (await import('./bnn/backend.js')).loadBnnSliders());
  const gen = new MoveGenerator(sliders);
  return { name: 'bnn', generator: gen, perft: (pos, depth) => corePerft(pos, depth, gen), detail: sliders.description };
}

/** Perft split by root move with any backend: [move, nodes] pairs in generation order. */
export function perftDivideWith(
  backend: Backend,
  pos: Position,
  depth: number,
  onRootMove?: (done: number, total: number) => void,
): Array<[number, number]> {
  const moves = new Int32Array(MAX_MOVES);
  const n = backend.generator.generate(pos, moves, 0);
  const result: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    pos.makeMove(moves[i]);
    result.push([moves[i], depth <= 1 ? 1 : backend.perft(pos, depth - 1)]);
    pos.unmakeMove();
    onRootMove?.(i + 1, n);
  }
  return result;
}
