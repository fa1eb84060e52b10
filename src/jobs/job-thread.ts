/**
 * A worker thread of the local pool: runs the jobs it is sent, one at a time, with an engine
 * per hash size and thread count kept between jobs (each job clears it first), and reports progress.
 */
import { parentPort } from 'node:worker_threads';
import { Engine } from '../engine/search.js';
import { spawnNodeHelper } from '../engine/smp-node.js';
import { parseJob, runJob } from './job.js';

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

port.on('message', (req: ThreadRequest) => {
  try {
    const job = parseJob(req.job);
    const threads = job.threads ?? 1,
      key = `${job.hashMb}/${threads}`;
    let engine = engines.get(key);
    if (engine === undefined) {
      engine = new Engine({ hashMb: job.hashMb, threads, spawnHelper: spawnNodeHelper });
      if (threads > 1 && !engine.waitForHelpers()) throw new Error(`${threads} search threads: the helper threads did not start`);
      engines.set(key, engine);
    }
    let last = 0;
    const result = runJob(job, engine, (done, total) => {
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
