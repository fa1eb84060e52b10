/**
 * A text file read as a stream of chunks (a `.gz` file unpacked on the way), for readers that
 * take text piece by piece: the PGN reader's streamPgn reads a game collection of any size in
 * constant memory. Node-only plumbing with no chess in it.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

/** The file's text in chunks, decoded as UTF-8 (a character split between chunks is kept whole); `.gz` files are unpacked. */
export async function* readTextChunks(path: string): AsyncGenerator<string> {
  const file = createReadStream(path);
  const bytes = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  // A gunzip error does not close the file stream behind it.
  file.on('error', (e) => bytes.destroy(e));
  bytes.setEncoding('utf8');
  try {
    for await (const chunk of bytes) yield chunk as string;
  } finally {
    file.destroy();
  }
}
