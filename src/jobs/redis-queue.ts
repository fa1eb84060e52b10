/**
 * Jobs through Redis with BullMQ: the producer adds each job under its content hash (so a
 * job added twice, or delivered twice, is one job with one result), waits for the results
 * and returns them in input order; `matrix-chess worker` processes take jobs on any number of
 * machines, running each on a local worker thread so the event loop stays free to renew the
 * job's lock. A worker that dies loses its lock; BullMQ's stalled-job check puts the job back
 * for another worker (at-least-once, made harmless by the content-hash id). bullmq is loaded
 * only here, and this module only when --queue is given.
 */
import { connect } from 'node:net';
import { UsageError } from '../cmdline/errors.js';
import type { Job as BullJob } from 'bullmq';
import { jobId, type Job, type JobResult } from './job.js';
import { JobFailed, LocalPool } from './local-pool.js';

export const QUEUE_NAME = 'matrix-chess-jobs';

export class QueueError extends Error {
  override readonly name = 'QueueError';
}

export interface RedisAddress {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
}

export function parseRedisUrl(url: string): RedisAddress {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--queue: '${url}' is not a URL (expected redis://host:port)`);
  }
  if (u.protocol !== 'redis:') throw new UsageError(`--queue: '${url}' is not a redis:// URL`);
  const port = u.port === '' ? 6379 : Number(u.port);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  if (db !== undefined && !Number.isInteger(db)) throw new UsageError(`--queue: '${u.pathname.slice(1)}' is not a database number`);
  return {
    host: u.hostname || '127.0.0.1',
    port,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db !== undefined ? { db } : {}),
  };
}

/** One PING before BullMQ starts, whose client would otherwise retry an absent server for ever. */
export function probeRedis(a: RedisAddress, timeoutMs = 3000): Promise<void> {
  return new Promise((resolve, reject) => {
    const where = `${a.host}:${a.port}`;
    const socket = connect({ host: a.host, port: a.port });
    const fail = (why: string): void => {
      socket.destroy();
      reject(new QueueError(`cannot reach Redis at ${where}: ${why}`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs} ms`));
    socket.on('error', (e: NodeJS.ErrnoException) => fail(e.code ?? e.message));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      const reply = d.toString();
      socket.destroy();
      // -NOAUTH: a server that wants the password the URL carries; BullMQ will send it.
      if (reply.startsWith('+PONG') || reply.startsWith('-NOAUTH')) resolve();
      else reject(new QueueError(`cannot use Redis at ${where}: it answered ${JSON.stringify(reply.trim().slice(0, 60))}`));
    });
  });
}

/**
 * bullmq and ioredis are optional peer dependencies (package.json): only the Redis queue needs
 * them, so an installed copy without them works everywhere else and says what to install here.
 */
async function optional<T>(name: 'bullmq' | 'ioredis', load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_MODULE_NOT_FOUND' && e.message.includes(`'${name}'`)) {
      throw new QueueError(
        `the Redis job queue needs the optional packages bullmq and ioredis (${name} is not installed): npm install bullmq ioredis`,
      );
    }
    throw err;
  }
}

/**
 * BullMQ wants a client instance under ESM: one ioredis connection per queue, events or worker.
 * BullMQ does not close a connection it was given, so `closeAll` does.
 */
async function connector(a: RedisAddress): Promise<{ connect: () => import('ioredis').Redis; closeAll: () => void }> {
  const { Redis } = await optional('ioredis', () => import('ioredis'));
  const clients: Array<import('ioredis').Redis> = [];
  return {
    connect: () => {
      const c = new Redis({ ...a, maxRetriesPerRequest: null });
      clients.push(c);
      return c;
    },
    closeAll: () => clients.forEach((c) => c.disconnect()),
  };
}

/** A connection lost after the start is fatal: one line, exit status 1, no reconnect loop. */
function dieOnError(what: string) {
  return (err: Error): void => {
    process.stderr.write(`matrix-chess: ${what}: ${err.message.split('\n')[0]}\n`);
    process.exit(1);
  };
}

export interface QueueRunHooks {
  onProgress?: (index: number, done: number) => void;
  /** Called once per job as its result arrives (so a caller can write it out at once). */
  onDone?: (index: number, result: JobResult | JobFailed) => void;
}

/** Adds the jobs, waits for all, returns results (or the failure) in input order. */
export async function runJobsOnQueue(address: RedisAddress, jobs: Job[], hooks: QueueRunHooks = {}): Promise<Array<JobResult | JobFailed>> {
  const results: Array<JobResult | JobFailed> = new Array(jobs.length);
  await streamJobsOnQueue(address, jobs, {
    onProgress: hooks.onProgress,
    onDone: (i, r) => {
      results[i] = r;
      hooks.onDone?.(i, r);
    },
  });
  return results;
}

/**
 * Adds the jobs and hands each result to `hooks.onDone` as it arrives, keeping none of them:
 * a caller that writes results out as they come (analyse) holds no more than it wants to.
 */
export async function streamJobsOnQueue(address: RedisAddress, jobs: Job[], hooks: QueueRunHooks = {}): Promise<void> {
  const { Queue, QueueEvents } = await optional('bullmq', () => import('bullmq'));
  const redis = await connector(address);
  await probeRedis(address);
  const queue = new Queue(QUEUE_NAME, { connection: redis.connect() });
  const events = new QueueEvents(QUEUE_NAME, { connection: redis.connect() });
  queue.on('error', dieOnError('redis queue'));
  events.on('error', dieOnError('redis queue events'));
  const ids = jobs.map(jobId);
  const indexes = new Map<string, number[]>();
  ids.forEach((id, i) => indexes.set(id, [...(indexes.get(id) ?? []), i]));
  const seen = new Uint8Array(jobs.length);
  let finished = 0;
  let wake: () => void = () => {};
  const check = async (id: string): Promise<void> => {
    // The state first: a job read before it completed would carry no return value.
    const state = await queue.getJobState(id);
    if (state !== 'completed' && state !== 'failed') return;
    const job = await queue.getJob(id);
    if (job === undefined) return;
    let r: JobResult | JobFailed | undefined;
    if (state === 'completed') r = job.returnvalue as JobResult;
    else if (state === 'failed' && job.attemptsMade >= (job.opts.attempts ?? 1))
      r = new JobFailed(job.failedReason ?? 'failed', /malformed job/.test(job.failedReason ?? ''));
    if (r === undefined) return;
    for (const i of indexes.get(id) ?? []) {
      if (seen[i] !== 0) continue;
      seen[i] = 1;
      finished++;
      hooks.onDone?.(i, r);
    }
    if (finished === jobs.length) wake();
  };
  try {
    await events.waitUntilReady();
    events.on('progress', ({ jobId: id, data }) => {
      const done = (data as { done?: number }).done;
      if (typeof done === 'number') for (const i of indexes.get(id) ?? []) hooks.onProgress?.(i, done);
    });
    events.on('completed', ({ jobId: id }) => void check(id));
    events.on('failed', ({ jobId: id }) => void check(id));
    for (let i = 0; i < jobs.length; i++) {
      const job = await queue.add('job', jobs[i], {
        jobId: ids[i],
        attempts: 3,
        backoff: { type: 'fixed', delay: 1000 },
        // Results stay a week: the same job again is answered from Redis.
        removeOnComplete: { age: 7 * 24 * 3600 },
        removeOnFail: { age: 7 * 24 * 3600 },
      });
      // A job that failed for good before is tried again now; a completed one is answered at once.
      if ((await job.getState()) === 'failed') await job.retry('failed');
      await check(ids[i]);
    }
    // Events can be missed across a reconnect: a slow sweep makes sure every result is seen.
    const sweep = setInterval(() => {
      for (const [id, idx] of indexes) if (idx.some((i) => seen[i] === 0)) void check(id);
    }, 2000);
    if (finished < jobs.length) await new Promise<void>((resolve) => (wake = resolve));
    clearInterval(sweep);
  } finally {
    await events.close();
    await queue.close();
    redis.closeAll();
  }
}

export interface QueueWorkerOptions {
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  log: (line: string) => void;
}

/** Takes jobs until SIGINT/SIGTERM; resolves when closed. */
export async function runQueueWorker(address: RedisAddress, o: QueueWorkerOptions): Promise<void> {
  const { Worker, UnrecoverableError } = await optional('bullmq', () => import('bullmq'));
  const redis = await connector(address);
  await probeRedis(address);
  const pool = new LocalPool(o.concurrency);
  const worker = new Worker(
    QUEUE_NAME,
    async (job: BullJob) => {
      try {
        return await pool.run(job.data, (done, total) => void job.updateProgress({ done, total }));
      } catch (e) {
        // A malformed job fails the same way everywhere: no retries.
        if (e instanceof JobFailed && e.malformed) throw new UnrecoverableError(e.message);
        throw e;
      }
    },
    {
      connection: redis.connect(),
      concurrency: o.concurrency,
      lockDuration: o.lockDurationMs,
      stalledInterval: o.stalledIntervalMs,
      maxStalledCount: 5,
    },
  );
  worker.on('error', dieOnError('redis worker'));
  worker.on('active', (job) => o.log(`job ${job.id} started`));
  worker.on('completed', (job) => o.log(`job ${job.id} done`));
  worker.on('failed', (job, err) => o.log(`job ${job?.id ?? '?'} failed: ${err.message.split('\n')[0]}`));
  await worker.waitUntilReady();
  o.log(`worker: taking jobs from ${address.host}:${address.port} (${o.concurrency} at a time)`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await worker.close();
  await pool.close();
  redis.closeAll();
}
