/**
 * Local worker threads for jobs: `threads` threads of the worker pool (src/node/worker-pool.ts),
 * each running one job at a time (job-thread.ts); results come back per job as promises, so
 * callers gather them in input order. A job that fails, or whose thread dies, fails alone.
 */
import { TaskFailed, WorkerPool } from '../node/worker-pool.js';
import type { JobResult } from './job.js';
import type { JobProgress } from './job-thread.js';

export class JobFailed extends Error {
  override readonly name = 'JobFailed';
  constructor(
    message: string,
    readonly malformed: boolean,
  ) {
    super(message);
  }
}

export class LocalPool {
  private readonly pool: WorkerPool<unknown, JobResult, JobProgress>;

  constructor(threads: number) {
    this.pool = new WorkerPool(new URL('./job-thread.js', import.meta.url), { threads });
  }

  async run(job: unknown, onProgress?: (done: number, total: number) => void): Promise<JobResult> {
    try {
      return await this.pool.run(job, onProgress && ((p) => onProgress(p.done, p.total)));
    } catch (e) {
      // A malformed job (JobError) fails the same way everywhere; the queue does not retry it.
      if (e instanceof TaskFailed) throw new JobFailed(e.message.split('\n')[0], e.errorName === 'JobError');
      throw e;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
