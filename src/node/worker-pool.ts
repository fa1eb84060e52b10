/**
 * The one worker-thread pool: `threads` threads running one script, each running one task at a
 * time. Tasks go to idle threads in the order they were asked for, and each comes back as its own
 * promise, so a caller that needs its results in input order (self-play, SPSA's batches) gathers
 * them so, and no result depends on which thread ran it. `serveTasks` is the thread's side.
 *
 * Node-only plumbing with no chess in it, below every layer that runs work on threads (the BNN
 * trainer and bench, the tuners, the jobs' local pool): it imports nothing of the project.
 */
import { parentPort, Worker, type Transferable } from 'node:worker_threads';

export interface WorkerPoolOptions {
  /** Threads to start, at least 1. */
  threads: number;
  /** Each thread's `workerData`, by thread number 0 … threads − 1. */
  workerData?: (thread: number) => unknown;
  /** Threads that do not keep the process alive: for a pool driven through shared memory, not tasks. */
  unref?: boolean;
}

/** A task that threw on its thread, or whose thread died while running it. */
export class TaskFailed extends Error {
  override readonly name = 'TaskFailed';
  constructor(
    message: string,
    /** The name of the error the task threw (e.g. 'JobError'); null when its thread died. */
    readonly errorName: string | null,
    stack?: string,
  ) {
    super(message);
    if (stack !== undefined) this.stack = stack;
  }
}

interface TaskRequest {
  id: number;
  task: unknown;
}

type TaskReply =
  | { id: number; type: 'progress'; progress: unknown }
  | { id: number; type: 'result'; result: unknown }
  | { id: number; type: 'error'; name: string; message: string; stack?: string };

interface Pending<Task, Result, Progress> {
  task: Task;
  onProgress?: (progress: Progress) => void;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

interface Thread<Task, Result, Progress> {
  worker: Worker;
  running: { id: number; pending: Pending<Task, Result, Progress> } | null;
}

export class WorkerPool<Task, Result, Progress = never> {
  private readonly threads: Thread<Task, Result, Progress>[] = [];
  private readonly queue: Pending<Task, Result, Progress>[] = [];
  private nextId = 0;
  private closed = false;

  /** `script` is the thread's module (it calls `serveTasks`, unless the pool is driven otherwise). */
  constructor(script: URL, options: WorkerPoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1)
      throw new RangeError(`WorkerPool: threads must be an integer of at least 1, got ${options.threads}`);
    for (let i = 0; i < options.threads; i++) {
      const worker = new Worker(script, options.workerData === undefined ? undefined : { workerData: options.workerData(i) });
      if (options.unref === true) worker.unref();
      const thread: Thread<Task, Result, Progress> = { worker, running: null };
      worker.on('message', (reply: TaskReply) => this.reply(thread, reply));
      worker.on('error', (e) => this.lose(thread, e.message.split('\n')[0]));
      worker.on('exit', (code) => this.lose(thread, `exit code ${code}`));
      this.threads.push(thread);
    }
  }

  /** Runs `task` on the next idle thread; `onProgress` hears what the thread reports meanwhile. */
  run(task: Task, onProgress?: (progress: Progress) => void): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, onProgress, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Runs `task` once on every thread at once (work each thread prepares on its own share, then a
   * common start); the results in thread order. Only on an idle pool, so no thread is late.
   */
  runOnEach(task: Task): Promise<Result[]> {
    if (this.queue.length > 0 || this.threads.some((t) => t.running !== null))
      throw new Error('WorkerPool.runOnEach: the pool is busy; it needs every thread idle');
    return Promise.all(this.threads.map((t) => new Promise<Result>((resolve, reject) => this.start(t, { task, resolve, reject }))));
  }

  /** Ends the threads; a task still queued or running then never settles. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }

  private start(thread: Thread<Task, Result, Progress>, pending: Pending<Task, Result, Progress>): void {
    const id = this.nextId++;
    thread.running = { id, pending };
    thread.worker.postMessage({ id, task: pending.task } satisfies TaskRequest);
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (this.queue.length === 0) return;
      if (thread.running === null) this.start(thread, this.queue.shift()!);
    }
  }

  private reply(thread: Thread<Task, Result, Progress>, reply: TaskReply): void {
    const running = thread.running;
    if (running === null || running.id !== reply.id) return;
    if (reply.type === 'progress') {
      running.pending.onProgress?.(reply.progress as Progress);
      return;
    }
    thread.running = null;
    if (reply.type === 'result') running.pending.resolve(reply.result as Result);
    else running.pending.reject(new TaskFailed(reply.message, reply.name, reply.stack));
    this.dispatch();
  }

  /** A thread that died fails the task it ran; the others carry on, and with none left the queue fails. */
  private lose(thread: Thread<Task, Result, Progress>, why: string): void {
    const at = this.threads.indexOf(thread);
    if (this.closed || at < 0) return;
    this.threads.splice(at, 1);
    const failure = new TaskFailed(`worker thread crashed: ${why}`, null);
    thread.running?.pending.reject(failure);
    thread.running = null;
    if (this.threads.length === 0) for (const pending of this.queue.splice(0)) pending.reject(failure);
  }
}

/**
 * The thread's side of the pool: runs each task it is sent with `run` (one at a time: the pool
 * sends the next only after this one's reply) and posts back its result, or the error it threw.
 * `progress` reports on the running task; `transfer` names buffers of a result to move rather
 * than copy.
 */
export function serveTasks<Task, Result, Progress = never>(
  run: (task: Task, progress: (progress: Progress) => void) => Result | Promise<Result>,
  transfer?: (result: Result) => Transferable[],
): void {
  const port = parentPort;
  if (port === null) throw new Error('serveTasks runs on a worker thread of a WorkerPool');
  port.on('message', async ({ id, task }: TaskRequest) => {
    try {
      const result = await run(task as Task, (progress) => port.postMessage({ id, type: 'progress', progress } satisfies TaskReply));
      port.postMessage({ id, type: 'result', result } satisfies TaskReply, transfer?.(result));
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      port.postMessage({ id, type: 'error', name: error.name, message: error.message, stack: error.stack } satisfies TaskReply);
    }
  });
}
