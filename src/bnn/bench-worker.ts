/** One all-cores `bnn bench` thread: on 'prepare' makes its share and warms up, on 'go' runs it and returns the result. */
import { workerData } from 'node:worker_threads';
import { serveTasks } from '../node/worker-pool.js';
import { prepareThreadRun, type BenchThreadStep, type ThreadJob, type ThreadResult } from './bench.js';

let run: (() => ThreadResult) | null = null;
serveTasks<BenchThreadStep, ThreadResult | null>((step) => {
  if (step === 'prepare') {
    run = prepareThreadRun(workerData as ThreadJob);
    return null;
  }
  if (run === null) throw new Error("bnn bench thread: 'go' before 'prepare'");
  return run();
});
