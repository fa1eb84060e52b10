/**
 * How the asynchronous engine reaches our UCI engine: lines out, lines in, and the end of the
 * thread. Two hosts fill it: a browser's Web Worker running dist/worker/matrix-chess-worker.js
 * (here) and a Node worker thread running src/uci/session-thread-node.ts (transport-node.ts).
 */

export interface UciTransport {
  /** Sends one command line. */
  send(line: string): void;
  /** Starts delivering the engine's output lines and, once, the thread's end (an error saying why). */
  listen(onLine: (line: string) => void, onEnd: (error: Error) => void): void;
  /** Ends the thread now. */
  terminate(): Promise<void> | void;
  /** Node: whether an answer is awaited, so the thread keeps the process alive only then. */
  setBusy?(busy: boolean): void;
}

/**
 * What the browser transport needs of a Web Worker (a `Worker`, or anything shaped like one):
 * string messages in both directions, as matrix-chess/worker speaks them.
 */
export interface WorkerLike {
  postMessage(message: string): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string; preventDefault?(): void }) => void): void;
  terminate(): void;
}

/** A transport over a Web Worker that speaks UCI in string messages (matrix-chess/worker). */
export function workerTransport(worker: WorkerLike): UciTransport {
  return {
    send: (line) => worker.postMessage(line),
    listen(onLine, onEnd) {
      worker.addEventListener('message', (event) => {
        for (const line of String(event.data).split(/\r?\n/)) if (line !== '') onLine(line);
      });
      worker.addEventListener('error', (event) => {
        event.preventDefault?.();
        onEnd(new Error(`the engine worker failed: ${event.message || 'it did not load (is the worker script served at that URL?)'}`));
      });
    },
    terminate: () => worker.terminate(),
  };
}
