/**
 * A worker thread of the local pool: runs the jobs it is sent, one at a time, with an engine
 * per hash size and thread count kept between analyse jobs (each job clears it first), and
 * reports progress. A datagen shard brings its own self-play thread and engine, a self-play
 * pair its two engines.
 */
import { serveTasks } from '../node/worker-pool.js';
import { Engine } from '../engine/engine.js';
import { spawnNodeHelper } from '../engine/smp-node.js';
import { parseJob, runJob, type Job, type JobResult } from './job.js';

/** A running job's progress: positions (or games) done of its total. */
export interface JobProgress {
  done: number;
  total: number;
}

const engines = new Map<string, Engine>();

function engineFor(job: Job): Engine | undefined {
  if (job.kind !== 'analyse') return undefined;
  const threads = job.threads ?? 1,
    key = `${job.hashMb}/${threads}`;
  let engine = engines.get(key);
  if (engine === undefined) {
    engine = new Engine({ hashMb: job.hashMb, threads, spawnHelper: spawnNodeHelper });
    if (threads > 1 && !engine.waitForHelpers()) throw new Error(`${threads} search threads: the helper threads did not start`);
    engines.set(key, engine);
  }
  return engine;
}

serveTasks<unknown, JobResult, JobProgress>((raw, progress) => {
  const job = parseJob(raw);
  let last = 0;
  return runJob(job, engineFor(job), (done, total) => {
    // Progress at most every 100 ms: a message per position would cost more than a fast search.
    const now = Date.now();
    if (now - last >= 100 || done === total) {
      last = now;
      progress({ done, total });
    }
  });
});
