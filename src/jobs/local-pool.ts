/**
 * Local worker threads for jobs: `threads` threads, each running one job at a time; results
 * come back per job as promises, so callers gather them in input order.
 */
import { Worker } from 'node:worker_threads';
import type { JobResult } from './job.js';
import type { ThreadReply } from './job-thread.js';

export class JobFailed extends Error {
  override readonly name = 'JobFailed';
  constructor(
    message: string,
    readonly malformed: boolean,
  ) {
    super(message);
  }
}

interface Pending {
  job: unknown;
  onProgress?: (done: number, total: number) => void;
  resolve: (r: JobResult) => void;
  reject: (e: Error) => void;
}

export class LocalPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Array<{ id: number; p: Pending }> = [];
  private readonly running = new Map<number, Pending>();
  private nextId = 0;

  constructor(threads: number) {
    for (let i = 0; i < threads; i++) {
      const w = new Worker(new URL('./job-thread.js', import.meta.url));
      w.on('message', (msg: ThreadReply) => this.reply(w, msg));
      w.on('error', (err) => {
        // A crashed thread fails whatever it ran; the pool carries on with the others.
        for (const [id, p] of this.running) {
          this.running.delete(id);
          p.reject(new JobFailed(`worker thread crashed: ${err.message.split('\n')[0]}`, false));
        }
      });
      this.workers.push(w);
      this.idle.push(w);
    }
  }

  run(job: unknown, onProgress?: (done: number, total: number) => void): Promise<JobResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, p: { job, onProgress, resolve, reject } });
      this.dispatch();
    });
  }

  private readonly busy = new Map<number, Worker>();

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const w = this.idle.pop()!;
      const { id, p } = this.queue.shift()!;
      this.running.set(id, p);
      this.busy.set(id, w);
      w.postMessage({ id, job: p.job });
    }
  }

  private reply(w: Worker, msg: ThreadReply): void {
    const p = this.running.get(msg.id);
    if (p === undefined) return;
    if (msg.type === 'progress') {
      p.onProgress?.(msg.done, msg.total);
      return;
    }
    this.running.delete(msg.id);
    this.busy.delete(msg.id);
    this.idle.push(w);
    if (msg.type === 'result') p.resolve(msg.result as JobResult);
    else p.reject(new JobFailed(msg.message, msg.malformed));
    this.dispatch();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
