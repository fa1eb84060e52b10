/** Game collections on disk, read by both tuners (texel/dataset.ts, nnue/dataset.ts). */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { PgnError } from '../core/pgn/index.js';

/** A PGN file's text; `.gz` files (how the repository keeps its game collections) are unpacked. */
export function readPgnText(path: string): string {
  const bytes = readFileSync(path);
  if (!path.endsWith('.gz')) return bytes.toString('utf8');
  try {
    return gunzipSync(bytes).toString('utf8');
  } catch (e) {
    throw new PgnError('file', `not a readable gzip file (${(e as Error).message})`, { source: path });
  }
}
