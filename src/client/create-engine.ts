/**
 * createEngine for browsers (the root entry, `matrix-chess`): the engine in a Web Worker running
 * the package's UCI worker script (matrix-chess/worker, dist/worker/matrix-chess-worker.js), which
 * plays with the network it fetches from beside itself, as the CLI does. On Node, the same API
 * with a worker thread is matrix-chess/node's createEngine.
 */
import { EngineOptionError, describeValue } from '../engine/limits.js';
import { AsyncEngine, checkStartOptions, type StartOptions } from './engine-client.js';
import { workerTransport, type WorkerLike } from './transport.js';

export interface WebEngineOptions extends StartOptions {
  /**
   * The worker script's URL: where the page serves the package's dist/worker/ folder (the
   * worker fetches nnue.bin and nnue.wasm from beside it). Default: that folder beside this
   * module in the package, which holds when the package's files are served as they are.
   */
  workerUrl?: string | URL;
  /** A worker already started (anything shaped like one that speaks UCI in string messages); it is terminated by quit(). */
  worker?: WorkerLike;
}

/** Where dist/worker/ is from this module (dist/src/client/create-engine.js). */
function defaultWorkerUrl(): URL {
  try {
    return new URL('../../worker/matrix-chess-worker.js', import.meta.url);
  } catch {
    throw new EngineOptionError(
      'workerUrl',
      'this bundle cannot tell where the worker script is: pass workerUrl (the served matrix-chess-worker.js)',
    );
  }
}

/**
 * The engine on a Web Worker, started and ready (handshake done, `options` set). Throws
 * EngineOptionError for bad options or where there is no Web Worker (Node: matrix-chess/node),
 * EngineClosedError when the worker does not start within `timeoutMs`.
 */
export async function createEngine(options: WebEngineOptions = {}): Promise<AsyncEngine> {
  checkStartOptions(options, ['workerUrl', 'worker']);
  let worker = options.worker;
  if (worker === undefined) {
    const WorkerClass = (globalThis as { Worker?: new (url: string | URL) => WorkerLike }).Worker;
    if (typeof WorkerClass !== 'function')
      throw new EngineOptionError(
        'worker',
        "there is no Web Worker here; on Node import { createEngine } from 'matrix-chess/node' (a worker thread)",
      );
    const url = options.workerUrl ?? defaultWorkerUrl();
    if (typeof url !== 'string' && !(url instanceof URL))
      throw new EngineOptionError('workerUrl', `expected a URL or a string, got ${describeValue(url)}`);
    worker = new WorkerClass(url);
  } else if (typeof worker !== 'object' || worker === null || typeof worker.postMessage !== 'function')
    throw new EngineOptionError('worker', `expected a Worker, got ${describeValue(worker)}`);
  return AsyncEngine.start(workerTransport(worker), options);
}
