/**
 * The UCI engine on Node (`matrix-chess uci`): a UciSession on stdin and stdout, its search
 * thread in a worker_threads Worker (search-worker-node.ts), the package's book and network as
 * the options' defaults and one search thread per core at most.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { DEFAULT_BOOK_FILE } from '../book/polyglot-node.js';
import { UsageError } from '../cmdline/errors.js';
import { LineReader } from '../cmdline/lines.js';
import { DEFAULT_NETWORK_FILE } from '../engine/nnue/load-node.js';
import { UciSession, type StartSearchThread } from './loop.js';
import type { UciHostDefaults } from './protocol.js';
import type { FromWorker } from './search-worker.js';
import type { WorkerData } from './search-worker-node.js';

export const NODE_UCI_DEFAULTS: UciHostDefaults = {
  maxThreads: availableParallelism(),
  bookFile: DEFAULT_BOOK_FILE,
  evalFile: DEFAULT_NETWORK_FILE,
};

/** The Node search thread: search-worker-node.ts in a worker_threads Worker. */
export const startNodeSearchThread: StartSearchThread = (control, events) => {
  const data: WorkerData = { control };
  const worker = new Worker(new URL('./search-worker-node.js', import.meta.url), { workerData: data });
  worker.on('message', (msg: FromWorker) => events.onMessage(msg));
  worker.on('error', (err) => events.onError(err));
  return {
    post: (msg) => worker.postMessage(msg),
    terminate: () => void worker.terminate(),
    ref: () => worker.ref(),
    unref: () => worker.unref(),
  };
};

/** A UciSession on Node: `write` receives every output line; a search thread that keeps crashing exits the process. */
export function nodeUciSession(write: (line: string) => void, tunables = false): UciSession {
  return new UciSession(write, {
    startThread: startNodeSearchThread,
    giveUp: () => process.exit(1),
    defaults: NODE_UCI_DEFAULTS,
    tunables,
  });
}

export async function runUci(args: string[]): Promise<void> {
  const tunables = args[0] === '--tunables';
  const extra = args[tunables ? 1 : 0];
  if (extra !== undefined) {
    throw new UsageError(`uci: unexpected argument '${extra}' (options are set with setoption; --tunables lists the search parameters)`);
  }
  const session = nodeUciSession((line) => {
    process.stdout.write(line + '\n');
  }, tunables);
  const reader = new LineReader(process.stdin);
  for (;;) {
    const line = await reader.next();
    if (line === null) {
      await session.drain();
      break;
    }
    if (!session.handle(line)) {
      await session.quit();
      break;
    }
  }
  reader.close();
  session.close();
  // Exit at once: the worker may be deep in a synchronous search that never yields.
  process.exit(0);
}
