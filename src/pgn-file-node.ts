/** PGN files on disk (Node only): the library's readPgnFile (matrix-chess/node) and the tuners' game collections. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { PgnError, readPgnGames, type PgnRecord } from './core/pgn-read.js';

/** A PGN file's text; `.gz` files (how the repository keeps its game collections) are unpacked. */
export function readPgnText(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new PgnError(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!path.endsWith('.gz')) return bytes.toString('utf8');
  try {
    return gunzipSync(bytes).toString('utf8');
  } catch (e) {
    throw new PgnError(`${path}: not a readable gzip file (${(e as Error).message})`);
  }
}

/** The games of a PGN file (gzipped if its name ends in .gz); a bad game or an unreadable file throws PgnError. */
export function readPgnFile(path: string): PgnRecord[] {
  return readPgnGames(readPgnText(path), path);
}
