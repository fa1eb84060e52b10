/**
 * createEngine on Node (matrix-chess/node): the engine in a worker thread running our UCI engine,
 * with the package's network, book and BNN weights as `matrix-chess uci` has them.
 */
import { AsyncEngine, checkStartOptions, type StartOptions } from './engine-client.js';
import { nodeThreadTransport } from './transport-node.js';

/**
 * The engine on a worker thread, started and ready (handshake done, `options` set). Throws
 * EngineOptionError for bad options, EngineClosedError when it does not start within `timeoutMs`.
 */
export async function createEngine(options: StartOptions = {}): Promise<AsyncEngine> {
  checkStartOptions(options);
  return AsyncEngine.start(nodeThreadTransport(), options);
}
