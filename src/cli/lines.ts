/**
 * Line input for interactive commands. One readline async iterator is created up front and kept
 * for the whole session: it queues lines that arrive while the program is busy (a bot search
 * blocks the event loop), so a script piping many lines at once loses none of them.
 */
import { createInterface, type Interface } from 'node:readline';

export class LineReader {
  private readonly rl: Interface;
  private readonly iter: AsyncIterator<string>;
  private ended = false;

  constructor(input: NodeJS.ReadableStream = process.stdin) {
    this.rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
    this.iter = this.rl[Symbol.asyncIterator]();
  }

  /** The next line without its line ending, or null at end of input. */
  async next(): Promise<string | null> {
    if (this.ended) return null;
    const r = await this.iter.next();
    if (r.done) {
      this.ended = true;
      return null;
    }
    return r.value;
  }

  close(): void {
    this.ended = true;
    this.rl.close();
  }
}
