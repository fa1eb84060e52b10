/**
 * PGN files on disk (Node only): the library's readPgnFile and streamPgnFile (matrix-chess/node)
 * and the tuners' game collections. A `.gz` file is unpacked.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { PgnError, parsePgn, streamPgn, type PgnGame, type PgnReadOptions } from './core/pgn/index.js';
import { readTextChunks } from './node/text-file.js';

/** A PGN file's text; `.gz` files (how the repository keeps its game collections) are unpacked. */
export function readPgnText(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new PgnError('file', `cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { source: path });
  }
  if (!path.endsWith('.gz')) return bytes.toString('utf8');
  try {
    return gunzipSync(bytes).toString('utf8');
  } catch (e) {
    throw new PgnError('file', `not a readable gzip file (${(e as Error).message})`, { source: path });
  }
}

/** The games of a PGN file (gzipped if its name ends in .gz), replayed; a bad game or an unreadable file throws PgnError. */
export function readPgnFile(path: string, options: Omit<PgnReadOptions, 'source'> = {}): PgnGame[] {
  return parsePgn(readPgnText(path), { ...options, source: path });
}

/**
 * The games of a PGN file of any size, read as the file streams in (constant memory), each
 * yielded as soon as it is complete; a game that cannot be read is yielded as its PgnError, and
 * a file that cannot be read is a PgnError of kind 'file' thrown by the iterator.
 */
export async function* streamPgnFile(path: string, options: Omit<PgnReadOptions, 'source'> = {}): AsyncGenerator<PgnGame | PgnError> {
  try {
    yield* streamPgn(readTextChunks(path), { ...options, source: path });
  } catch (e) {
    if (e instanceof PgnError) throw e;
    throw new PgnError('file', `cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { source: path });
  }
}
