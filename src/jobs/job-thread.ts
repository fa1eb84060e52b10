/**
 * A worker thread of the local pool: runs the jobs it is sent, one at a time, with an engine
 * per hash size kept between jobs (each job clears it first), and reports progress.
 */
import { parentPort } from 'node:worker_threads';
import { Engine } from '../engine/search.js';
import { parseJob, runJob } from './job.js';

export interface ThreadRequest {
  id: number;
  job: unknown;
}
export type ThreadReply =
  | { id: number; type: 'progress'; done: number; total: number }
  | { id: number; type: 'result'; result: unknown }
  | { id: number; type: 'error'; message: string; malformed: boolean };

const engines = new Map<number, Engine>();
const port = parentPort;
if (port === null) throw new Error('job-thread.js runs as a worker thread');

port.on('message', (req: ThreadRequest) => {
  try {
    const job = parseJob(req.job);
    let engine = engines.get(job.hashMb);
    if (engine === undefined) engines.set(job.hashMb, (engine = new Engine({ hashMb: job.hashMb })));
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
