/**
 * The three move-generation backends as engine move sources: the bitboard core, the matrix
 * model's own legal move generator, and the core generator with the BNN networks answering the
 * sliding attacks (TypeScript reference inference).
 */
import type { Position } from '../src/core/position.js';
import { defaultGenerator, MoveGenerator } from '../src/core/movegen.js';
import { matrixBackend } from '../src/matrix/backend.js';
import { legalMovesAsMoveSource } from '../src/backends.js';
import { referenceSliders } from '../src/bnn/infer.js';
import { LAYOUT_16, weightBytes } from '../src/bnn/network.js';

export type BackendName = 'bitboard' | 'matrix' | 'bnn';
export const BACKEND_NAMES: readonly BackendName[] = ['bitboard', 'matrix', 'bnn'];

export interface MoveSource {
  generate(pos: Position, out: Int32Array, start: number): number;
  generateNoisy(pos: Position, out: Int32Array, start: number): number;
}

/** The matrix model's own legal move generator (noisy moves filtered from its legal list). */
export const matrixSource: MoveSource = legalMovesAsMoveSource(matrixBackend);

/** The BNN weights as the raw byte array the reference inference reads. */
export function parseBnnWeights(bytes: Uint8Array): Uint8Array {
  const want = weightBytes(LAYOUT_16);
  if (bytes.length === want) return bytes;
  // A file with a header: the weights are its last `want` bytes.
  if (bytes.length > want) return bytes.subarray(bytes.length - want);
  throw new Error(`BNN weights file has ${bytes.length} bytes; the 16x32x1 networks need ${want}`);
}

export function bnnSource(weights: Uint8Array): MoveSource {
  return new MoveGenerator(referenceSliders(LAYOUT_16, weights));
}

export function bitboardSource(): MoveSource {
  return defaultGenerator;
}
