/**
 * Runs self-play games on worker threads (one engine per thread, worker.ts) and hands them back in
 * index order, so the output file is the same whatever the thread count.
 */
import { WorkerPool } from '../../node/worker-pool.js';
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

export async function runSelfplay(opts: SelfplayRunOptions): Promise<void> {
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
  if (specs.length === 0) return;
  const pool = new WorkerPool<SelfplayGameSpec, SelfplayGame>(new URL('./worker.js', import.meta.url), {
    threads: Math.min(opts.workers, specs.length),
  });
  try {
    const games = specs.map((spec) => pool.run(spec));
    // Each game as soon as the games before it are done; the first failure ends the run at once.
    const failure = new Promise<never>((_, reject) => games.forEach((g) => g.catch(reject)));
    for (const game of games) opts.onGame(await Promise.race([game, failure]));
  } finally {
    await pool.close();
  }
}
