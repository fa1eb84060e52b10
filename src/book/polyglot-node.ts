/** Polyglot books on Node: the files read and written (polyglot.ts's format), and the book the package ships. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Book, BookError, encodeBook, type BookEntry } from './polyglot.js';

/** The book the project builds from its own games (scripts/build-book.ts); this file is dist/src/book/polyglot-node.js once built. */
export const DEFAULT_BOOK_FILE = fileURLToPath(new URL('../../../books/matrix-chess.bin', import.meta.url));

/** Opens a Polyglot book file; throws BookError when it cannot be read or is malformed. */
export function openBook(path: string): Book {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (e) {
    throw new BookError(path, `cannot read book '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return new Book(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), path);
}

export function writeBook(entries: readonly BookEntry[], path: string): void {
  writeFileSync(path, encodeBook(entries));
}
