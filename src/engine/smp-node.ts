/**
 * Lazy SMP helper threads on Node (worker_threads). Kept out of the engine's index so the web
 * build, which has no node:worker_threads, never sees it: Node callers import it directly.
 */
import { Worker } from 'node:worker_threads';
import type { SpawnHelper } from './smp.js';

/** Starts one helper thread; it never keeps the process alive on its own. */
export const spawnNodeHelper: SpawnHelper = (onError) => {
  const worker = new Worker(new URL('./smp-worker-node.js', import.meta.url));
  worker.on('error', (err) => onError(err.message.split('\n')[0]));
  worker.unref();
  return worker;
};
