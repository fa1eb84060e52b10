/**
 * Line input for interactive commands. One readline async iterator is created up front and kept
 * for the whole session: it queues lines that arrive while the program is busy (a bot search
 * blocks the event loop), so a script piping many lines at once loses none of them.
 *
 * On a terminal (input and output both TTYs) readline's own line editing and history are used,
 * and Ctrl-C ends input like Ctrl-D does; otherwise lines are read plainly.
 */
import { createInterface, type Interface } from 'node:readline';

export class LineReader {
  private readonly rl: Interface;
  private readonly iter: AsyncIterator<string>;
  private readonly terminal: boolean;
  private ended = false;

  constructor(
    input: NodeJS.ReadableStream = process.stdin,
    private readonly output?: NodeJS.WritableStream,
  ) {
    this.terminal = Boolean((input as NodeJS.ReadStream).isTTY && (output as NodeJS.WriteStream | undefined)?.isTTY);
    this.rl = this.terminal
      ? createInterface({ input, output, terminal: true, crlfDelay: Infinity, historySize: 200 })
      : createInterface({ input, crlfDelay: Infinity, terminal: false });
    // Without a listener, readline would only pause on Ctrl-C; treat it as end of input.
    if (this.terminal) this.rl.on('SIGINT', () => this.rl.close());
    this.iter = this.rl[Symbol.asyncIterator]();
  }

  /** True when readline echoes and edits the line itself. */
  get interactive(): boolean {
    return this.terminal;
  }

  /** Shows `prompt` (if any) and returns the next line without its line ending, or null at end of input. */
  async next(prompt = ''): Promise<string | null> {
    if (this.ended) return null;
    if (this.terminal) {
      this.rl.setPrompt(prompt);
      this.rl.prompt();
    } else if (prompt) {
      this.output?.write(prompt);
    }
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
