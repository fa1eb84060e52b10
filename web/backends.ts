/**
 * The three move-generation backends as engine move sources: the bitboard core, the matrix
 * model's own legal move generator, and the core generator with the BNN networks answering the
 * sliding attacks (TypeScript reference inference).
 */
import { defaultGenerator, MoveGenerator } from '../src/core/movegen.js';
import { matrixBackend } from '../src/matrix/backend.js';
import { legalMovesAsMoveSource, type MoveSource } from '../src/core/backend.js';
import { referenceSliders } from '../src/bnn/infer.js';
import { LAYOUT_16 } from '../src/bnn/network.js';
import { decodeWeights, isComplete } from '../src/bnn/weights.js';

export type { BackendName } from '../src/backends.js';
export type { MoveSource } from '../src/core/backend.js';

/** The matrix model's own legal move generator (noisy moves filtered from its legal list). */
export const matrixSource: MoveSource = legalMovesAsMoveSource(matrixBackend);

/**
 * Reads a BNN weights file (src/bnn/weights.ts format: header, checksum, payload) and returns
 * the 16x32x1 weight bytes. `complete` is false for a partial training run, whose untrained
 * networks are zero: fine to look at, wrong to play with.
 */
export function parseBnnWeights(bytes: Uint8Array, url: string): { weights: Uint8Array; complete: boolean } {
  const file = decodeWeights(bytes, url); // throws BnnWeightsError naming the problem
  if (file.layout.id !== LAYOUT_16.id) throw new Error(`${url}: layout ${file.layout.name}; the page uses ${LAYOUT_16.name}`);
  return { weights: file.weights, complete: isComplete(file) };
}

export function bnnSource(weights: Uint8Array): MoveSource {
  return new MoveGenerator(referenceSliders(LAYOUT_16, weights));
}

export function bitboardSource(): MoveSource {
  return defaultGenerator;
}
