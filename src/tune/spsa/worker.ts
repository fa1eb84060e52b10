/**
 * Worker thread for SPSA: keeps two engines (the network, if any, loaded once) and plays the game
 * pairs it is sent, each side with the search parameters of its perturbation.
 */
import { workerData } from 'node:worker_threads';
import { serveTasks } from '../../node/worker-pool.js';
import { abOpenings, abPlayer, playAbPair, testScore, type AbSide } from '../selfplay/ab.js';
import type { SearchParams } from '../../engine/search-params.js';

export interface SpsaPairJob {
  /** The iteration: its opening is the first of `abOpenings(openingSeed)`. */
  k: number;
  openingSeed: number;
  nodes: number;
  plus: Record<string, number>;
  minus: Record<string, number>;
}

export interface SpsaPairDone {
  k: number;
  /** θ + c·Δ's points over the pair, 0 … 2. */
  plusPoints: number;
}

const side = workerData as AbSide;
const plus = abPlayer(side),
  minus = abPlayer(side);

function set(engine: (typeof plus)['engine'], values: Record<string, number>): void {
  Object.assign(engine.params as SearchParams, values);
  engine.paramsChanged();
}

serveTasks<SpsaPairJob, SpsaPairDone>((job) => {
  set(plus.engine, job.plus);
  set(minus.engine, job.minus);
  const r = playAbPair(job.k, abOpenings(job.openingSeed, 1)[0], plus, minus, job.nodes);
  return { k: job.k, plusPoints: testScore(r, 0) + testScore(r, 1) };
});
