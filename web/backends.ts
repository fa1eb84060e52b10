/**
 * The three move-generation backends as engine move sources: the bitboard core, the matrix
 * model's own legal move generator, and the core generator with the BNN networks answering the
 * sliding attacks (TypeScript reference inference).
 */
import type { Position } from '../src/core/position.js';
import { defaultGenerator, MoveGenerator, MAX_MOVES } from '../src/core/movegen.js';
import { KIND_EN_PASSANT } from '../src/core/move.js';
import { matrixBackend } from '../src/matrix/backend.js';
import { referenceSliders } from '../src/bnn/infer.js';
import { LAYOUT_16, weightBytes } from '../src/bnn/network.js';

export type BackendName = 'bitboard' | 'matrix' | 'bnn';
export const BACKEND_NAMES: readonly BackendName[] = ['bitboard', 'matrix', 'bnn'];

export interface MoveSource {
  generate(pos: Position, out: Int32Array, start: number): number;
  generateNoisy(pos: Position, out: Int32Array, start: number): number;
}

/** Captures (en passant included) and promotions, filtered from a full legal list. */
function noisyFromLegal(legal: (pos: Position, out: Int32Array, start: number) => number): MoveSource['generateNoisy'] {
  const tmp = new Int32Array(MAX_MOVES);
  return (pos, out, start) => {
    const n = legal(pos, tmp, 0);
    let k = start;
    for (let i = 0; i < n; i++) {
      const m = tmp[i];
      if (pos.board[(m >> 6) & 63] !== 0 || ((m >> 12) & 7) !== 0 || ((m >> 15) & 3) === KIND_EN_PASSANT) out[k++] = m;
    }
    return k;
  };
}

export const matrixSource: MoveSource = {
  generate: (pos, out, start) => matrixBackend.legalMoves(pos, out, start),
  generateNoisy: noisyFromLegal((pos, out, start) => matrixBackend.legalMoves(pos, out, start)),
};

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
