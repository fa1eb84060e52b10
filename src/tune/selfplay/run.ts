/**
 * Runs self-play games on worker threads (one engine per thread) and hands them back in index
 * order, so the output file is the same whatever the thread count.
 */
import { Worker } from 'node:worker_threads';
import type { Opening } from '../../match/openings.js';
import type { SelfplayGame, SelfplayGameSpec } from './game.js';

export interface SelfplayRunOptions {
  games: number;
  /** Index of the first game (a later shard of a long run); 0 by default. */
  firstIndex?: number;
  nodes: number;
  seed: number;
  randomPlies: number;
  openings: Opening[];
  workers: number;
  /** Network file for the learned evaluation (absent: classical). */
  nnueFile?: string;
  /** Called in index order. */
  onGame: (game: SelfplayGame) => void;
}

export function runSelfplay(opts: SelfplayRunOptions): Promise<void> {
  const specs: SelfplayGameSpec[] = [];
  const first = opts.firstIndex ?? 0;
  for (let i = first; i < first + opts.games; i++) {
    specs.push({
      index: i,
      seed: opts.seed,
      nodes: opts.nodes,
      randomPlies: opts.randomPlies,
      opening: opts.openings[i % opts.openings.length],
      ...(opts.nnueFile ? { nnueFile: opts.nnueFile } : {}),
    });
  }
  return new Promise((resolve, reject) => {
    if (specs.length === 0) {
      resolve();
      return;
    }
    const done = new Map<number, SelfplayGame>();
    let next = 0,
      emitted = first,
      failed = false;
    const workers: Worker[] = [];
    const stopAll = (): void => {
      for (const w of workers) void w.terminate();
    };
    for (let i = 0; i < Math.min(opts.workers, specs.length); i++) {
      const worker = new Worker(new URL('./worker.js', import.meta.url));
      workers.push(worker);
      const feed = (): void => {
        if (next < specs.length) worker.postMessage(specs[next++]);
      };
      worker.on('message', (g: SelfplayGame) => {
        done.set(g.index, g);
        while (done.has(emitted)) {
          opts.onGame(done.get(emitted)!);
          done.delete(emitted);
          emitted++;
        }
        if (emitted === first + specs.length) {
          stopAll();
          resolve();
        } else feed();
      });
      worker.on('error', (e) => {
        if (!failed) {
          failed = true;
          stopAll();
          reject(e);
        }
      });
      feed();
    }
  });
}
