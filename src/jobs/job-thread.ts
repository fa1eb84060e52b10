/**
 * A worker thread of the local pool: runs the jobs it is sent, one at a time, with an engine
 * per hash size and thread count kept between analyse jobs (each job clears it first), and
 * reports progress. A datagen shard brings its own self-play thread and engine, a self-play
 * pair its two engines.
 */
import { parentPort } from 'node:worker_threads';
import { Engine } from '../engine/engine.js';
import { spawnNodeHelper } from '../engine/smp-node.js';
import { parseJob, runJob, type Job } from './job.js';

export interface ThreadRequest {
  id: number;
  job: unknown;
}
export type ThreadReply =
  | { id: number; type: 'progress'; done: number; total: number }
  | { id: number; type: 'result'; result: unknown }
  | { id: number; type: 'error'; message: string; malformed: boolean };

const engines = new Map<string, Engine>();
const port = parentPort;
if (port === null) throw new Error('job-thread.js runs as a worker thread');

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

// One job at a time: the pool sends the next only after this one's reply.
port.on('message', async (req: ThreadRequest) => {
  try {
    const job = parseJob(req.job);
    let last = 0;
    const result = await runJob(job, engineFor(job), (done, total) => {
      // Progress at most every 100 ms: a message per position would cost more than a fast search.
      const now = Date.now();
      if (now - last >= 100 || done === total) {
        last = now;
        port.postMessage({ id: req.id, type: 'progress', done, total } satisfies ThreadReply);
      }
    });
    port.postMessage({ id: req.id, type: 'result', result } satisfies ThreadReply);
  } catch (e) {
    const message = (e as Error).message.split('\n')[0];
    port.postMessage({ id: req.id, type: 'error', message, malformed: (e as Error).name === 'JobError' } satisfies ThreadReply);
  }
});
