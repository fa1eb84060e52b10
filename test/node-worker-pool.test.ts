/**
 * The one worker pool (src/node/worker-pool.ts): tasks on several threads each with its own
 * promise, progress, a thrown error failing its task alone (typed, with the thrown name), a dead
 * thread failing only its task and, when it was the last, the queue; runOnEach on every thread.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TaskFailed, WorkerPool } from '../src/node/worker-pool.js';

/** A thread script as a data: URL module; it imports the pool by absolute file URL. */
function script(body: string): URL {
  const pool = new URL('../src/node/worker-pool.js', import.meta.url).href;
  const source = `import { serveTasks } from ${JSON.stringify(pool)};\nimport { threadId, workerData } from 'node:worker_threads';\n${body}`;
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

// Tasks: a number n gives n², 'throw' throws a RangeError, 'exit' ends the thread, 'progress'
// reports 1 and 2 before its result, 'who' answers the thread's id and workerData.
const TASKS = script(`
serveTasks(async (task, progress) => {
  if (task === 'throw') throw new RangeError('no such task');
  if (task === 'exit') process.exit(3);
  if (task === 'progress') { progress(1); progress(2); return 'done'; }
  if (task === 'who') return { threadId, data: workerData };
  await new Promise((resolve) => setTimeout(resolve, 5));
  return task * task;
});
`);

test('tasks run on every thread, each result its own promise, in any order of completion', async () => {
  const pool = new WorkerPool<number | string, unknown, number>(TASKS, { threads: 2 });
  try {
    const inputs = [1, 2, 3, 4, 5, 6, 7, 8];
    assert.deepEqual(await Promise.all(inputs.map((n) => pool.run(n))), [1, 4, 9, 16, 25, 36, 49, 64]);
    const seen: number[] = [];
    assert.equal(await pool.run('progress', (p) => seen.push(p)), 'done');
    assert.deepEqual(seen, [1, 2]);
    const who = (await Promise.all([pool.run('who'), pool.run('who')])) as { threadId: number }[];
    assert.notEqual(who[0].threadId, who[1].threadId, 'two tasks given at once go to the two idle threads');
  } finally {
    await pool.close();
  }
});

test('a task that throws fails alone, as TaskFailed with the thrown name; the thread carries on', async () => {
  const pool = new WorkerPool<number | string, unknown>(TASKS, { threads: 1 });
  try {
    const [bad, good] = await Promise.allSettled([pool.run('throw'), pool.run(3)]);
    assert.equal(bad.status, 'rejected');
    const e = (bad as PromiseRejectedResult).reason;
    assert.ok(e instanceof TaskFailed);
    assert.equal(e.message, 'no such task');
    assert.equal(e.errorName, 'RangeError');
    assert.deepEqual(good, { status: 'fulfilled', value: 9 });
  } finally {
    await pool.close();
  }
});

test('a thread that dies fails only its task; when it was the last thread, the queue fails too', async () => {
  const two = new WorkerPool<number | string, unknown>(TASKS, { threads: 2 });
  try {
    const [died, ...rest] = await Promise.allSettled([two.run('exit'), two.run(2), two.run(3), two.run(4)]);
    assert.equal(died.status, 'rejected');
    const e = (died as PromiseRejectedResult).reason;
    assert.ok(e instanceof TaskFailed && e.errorName === null && /^worker thread crashed: exit code 3$/.test(e.message), String(e));
    assert.deepEqual(
      rest.map((r) => (r.status === 'fulfilled' ? r.value : r.reason)),
      [4, 9, 16],
    );
  } finally {
    await two.close();
  }
  const one = new WorkerPool<number | string, unknown>(TASKS, { threads: 1 });
  try {
    const settled = await Promise.allSettled([one.run('exit'), one.run(2)]);
    assert.deepEqual(
      settled.map((r) => r.status === 'rejected' && (r.reason as TaskFailed).errorName === null),
      [true, true],
    );
  } finally {
    await one.close();
  }
});

test('runOnEach runs a task once on every thread, results in thread order; only on an idle pool', async () => {
  const pool = new WorkerPool<number | string, unknown>(TASKS, { threads: 3, workerData: (thread) => 10 * thread });
  try {
    const who = (await pool.runOnEach('who')) as { threadId: number; data: number }[];
    assert.deepEqual(
      who.map((w) => w.data),
      [0, 10, 20],
    );
    assert.equal(new Set(who.map((w) => w.threadId)).size, 3);
    const busy = pool.run(5);
    assert.throws(() => pool.runOnEach('who'), /busy/);
    assert.equal(await busy, 25);
  } finally {
    await pool.close();
  }
  assert.throws(() => new WorkerPool(TASKS, { threads: 0 }), RangeError);
});
