/** The weights files on Node: weights.ts's format, read from and written to disk. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { BnnWeightsError, decodeWeights, encodeWeights, type WeightsFile } from './weights.js';

export function readWeightsFile(file: string): WeightsFile {
  let buf: Uint8Array;
  try {
    buf = readFileSync(file);
  } catch (e) {
    throw new BnnWeightsError(file, `cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  return decodeWeights(buf, file);
}

export function writeWeightsFile(file: string, w: WeightsFile): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, encodeWeights(w));
}
