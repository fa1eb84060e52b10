/**
 * Lazy SMP, the main thread's side: helper threads search the same root as the main search,
 * sharing its transposition table (a SharedArrayBuffer), and only the main search reports and
 * decides. The helpers' searches are diversified (each skips some depths: helperSkipsDepth) so
 * that their table entries are useful to the main thread rather than duplicates.
 *
 * Platform-neutral: threads come from an injected `SpawnHelper` (smp-node.ts on Node, a Web
 * Worker in the browser), and everything between the threads after start-up goes through one
 * shared control block read and written with Atomics, because the main search is synchronous
 * and never looks at its message queue.
 */
import type { NnueNetwork } from './nnue/network.js';

// The control block: Int32Array over a SharedArrayBuffer.
/** Index 0, so a helper's Engine polls it as its ordinary stop flag (SearchHooks.control). */
export const SMP_STOP = 0;
/** Search generation: a helper drops a search message that a newer search has superseded. */
export const SMP_GEN = 2;
/** Helpers inside a search; the next search waits for 0 before it starts them again. */
export const SMP_RUNNING = 3;
/** Nodes searched by all helpers in this search, in units of SMP_NODE_UNIT (each adds one per unit it searches). */
export const SMP_NODE_UNITS = 4;
export const SMP_NODE_UNIT = 1024;
/** Helpers that have started (compiled and warmed up) and can take a search. */
export const SMP_READY = 5;
const SMP_INTS = 8;
/** How long start() waits for the helpers to leave the previous search (a helper polls every 1024 nodes). */
const STOP_WAIT_MS = 5000;

/**
 * Lazy SMP depth skipping (Stockfish 9's table): helper i skips the iterations where
 * ((depth + game ply + phase) / size) is odd, so the helpers spread over different depths.
 */
const SKIP_SIZE = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
export function helperSkipsDepth(helperIndex: number, depth: number, gamePly: number): boolean {
  const i = (helperIndex - 1) % 20;
  return Math.floor((depth + gamePly + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 === 1;
}

/** The learned evaluation as a helper rebuilds it (its own accumulators, same weights). */
export interface HelperNnue {
  network: NnueNetwork;
  kernel: 'ts' | 'wasm';
  source: string;
}

/** Everything a helper's engine must share with the main engine to search the same tree. */
export interface HelperConfig {
  tt: SharedArrayBuffer;
  nnue: HelperNnue | null;
  params: Record<string, number | boolean>;
}

export type ToHelper =
  | { type: 'init'; index: number; control: SharedArrayBuffer }
  | { type: 'config'; config: HelperConfig }
  | { type: 'newgame' }
  /** The root as its setup FEN plus the moves since (0 = a null move), so repetitions are seen. */
  | { type: 'search'; gen: number; fen: string; moves: number[]; depth: number; ttAge: number };

/** One helper thread: a Node worker_threads Worker or a browser Worker both fit. */
export interface HelperThread {
  postMessage(msg: ToHelper): void;
  terminate(): unknown;
}

/** Starts one helper thread running smp-helper.ts's `createHelper`; `onError` hears about its crash. */
export type SpawnHelper = (onError: (message: string) => void) => HelperThread;

export class HelperPool {
  readonly control = new Int32Array(new SharedArrayBuffer(SMP_INTS * 4));
  private readonly threads: HelperThread[] = [];

  constructor(count: number, spawn: SpawnHelper, onError: (message: string) => void = () => {}) {
    for (let i = 1; i <= count; i++) {
      const t = spawn((message) => onError(`search thread ${i}: ${message}`));
      t.postMessage({ type: 'init', index: i, control: this.control.buffer as SharedArrayBuffer });
      this.threads.push(t);
    }
  }

  get size(): number {
    return this.threads.length;
  }

  private broadcast(msg: ToHelper): void {
    for (const t of this.threads) t.postMessage(msg);
  }

  configure(config: HelperConfig): void {
    this.broadcast({ type: 'config', config });
  }

  newGame(): void {
    this.broadcast({ type: 'newgame' });
  }

  /**
   * Sets the helpers searching `fen` + `moves` (to `depth`, 0 = until stopped) with the main
   * search's table age. First waits until no helper is still inside the previous search, which
   * its stop ended: usually at once, as the helpers had the time between two searches for it.
   */
  start(fen: string, moves: number[], depth: number, ttAge: number): void {
    const c = this.control;
    this.waitIdle();
    Atomics.store(c, SMP_STOP, 0);
    Atomics.store(c, SMP_NODE_UNITS, 0);
    const gen = Atomics.add(c, SMP_GEN, 1) + 1;
    this.broadcast({ type: 'search', gen, fen, moves, depth, ttAge });
  }

  /**
   * Waits (blocking, up to `timeoutMs`) until every helper has started; true if they all did.
   * Only where blocking is allowed and the threads start without this thread's event loop (Node).
   */
  waitReady(timeoutMs: number): boolean {
    const c = this.control,
      deadline = Date.now() + timeoutMs;
    for (;;) {
      const ready = Atomics.load(c, SMP_READY);
      if (ready >= this.threads.length) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      Atomics.wait(c, SMP_READY, ready, left);
    }
  }

  /** Nodes the helpers have searched in the current search (to SMP_NODE_UNIT per helper). */
  helperNodes(): number {
    return Atomics.load(this.control, SMP_NODE_UNITS) * SMP_NODE_UNIT;
  }

  /**
   * Tells the helpers to stop, without waiting for them: the main search answers at once, and
   * the next start() makes sure no helper is still on this root.
   */
  stop(): void {
    Atomics.store(this.control, SMP_STOP, 1);
  }

  /**
   * Waits until no helper is inside a search. A helper that does not leave within STOP_WAIT_MS
   * (crashed) is given up on: the count is reset so later searches do not wait for it again.
   */
  private waitIdle(): void {
    const c = this.control;
    const deadline = Date.now() + STOP_WAIT_MS;
    for (;;) {
      const running = Atomics.load(c, SMP_RUNNING);
      if (running <= 0) return;
      const left = deadline - Date.now();
      if (left <= 0) {
        Atomics.store(c, SMP_RUNNING, 0);
        return;
      }
      Atomics.wait(c, SMP_RUNNING, running, left);
    }
  }

  terminate(): void {
    Atomics.store(this.control, SMP_STOP, 1);
    for (const t of this.threads) void t.terminate();
    this.threads.length = 0;
  }
}
