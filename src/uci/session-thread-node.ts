/**
 * The UCI engine in a Node worker thread, for the library's createEngine (src/client): lines in
 * and out as string messages on the thread's port, the UciSession of `matrix-chess uci` behind
 * them (its search thread a worker thread of this one). `quit` answers what is owed and ends
 * the thread.
 */
import { parentPort } from 'node:worker_threads';
import { nodeUciSession } from './loop-node.js';
import type { UciSession } from './loop.js';

if (!parentPort) throw new Error('session-thread-node.js runs in the worker thread that createEngine (matrix-chess/node) starts');
const port = parentPort;
let session: UciSession | undefined = nodeUciSession((line) => port.postMessage(line));

port.on('message', (data: unknown) => {
  for (const line of String(data).split(/\r?\n/)) {
    const current = session;
    if (current === undefined) return;
    if (!current.handle(line)) {
      session = undefined;
      void current.quit().then(() => {
        current.close();
        port.close();
      });
    }
  }
});
