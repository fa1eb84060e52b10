/**
 * When a search stops: the stop flag and ponderhit in its control block (which another thread
 * may write), the node limit counted over all threads, and the clock. Pondering does not run the
 * clock, a ponderhit starts it; a clock time control has a soft limit (the iterative deepening
 * starts no new iteration past it) and a hard one (the search stops where it is). The tree
 * search polls reached() every 1024 nodes.
 */
import type { SearchLimits } from './types.js';
import type { TimeBudget } from './timeman.js';
import { SMP_NODE_UNITS, type HelperPool } from './smp.js';

export class StopConditions {
  private readonly ownControl = new Int32Array(2);
  /** control[0] !== 0: stop now; control[1] !== 0: ponderhit (SearchHooks.control). */
  private control: Int32Array = this.ownControl;
  nodeLimit = Infinity;
  /** When the clock started: the search's start, or the ponderhit. */
  timingStart = 0;
  /** A clock time control: the search may stop at the soft limit and must at the hard one. */
  timed = false;
  /** Pondering until ponderhit: the clock does not run. */
  pondering = false;
  softMs = Infinity;
  hardMs = Infinity;
  private helpers: HelperPool | null = null;
  private helperIndex = 0;
  /** The caller's AbortSignal (SearchLimits.signal): aborted, the search stops as on `stop`. */
  private signal: AbortSignal | null = null;

  /**
   * Sets up the conditions of a search that started at `startTime`, with the caller's control
   * block or its own (cleared); `helpers` (main thread) or `helperIndex` > 0 (a helper) for Lazy SMP.
   */
  start(
    limits: SearchLimits,
    budget: TimeBudget,
    startTime: number,
    control: Int32Array | undefined,
    helpers: HelperPool | null,
    helperIndex: number,
  ): void {
    this.control = control ?? this.ownControl;
    if (this.control === this.ownControl) {
      this.ownControl[0] = 0;
      this.ownControl[1] = 0;
    }
    this.helpers = helpers;
    this.helperIndex = helperIndex;
    this.timingStart = startTime;
    this.signal = limits.signal ?? null;
    this.nodeLimit = limits.nodes !== undefined && limits.nodes > 0 ? limits.nodes : Infinity;
    this.pondering = limits.ponder === true;
    this.timed = budget.timed && !limits.infinite;
    this.softMs = budget.softMs;
    this.hardMs = budget.hardMs;
  }

  /**
   * Whether the search must stop now, after `nodes` of this thread's nodes with iterations up to
   * `completedDepth` complete (polled every SMP_NODE_UNIT nodes); notices a ponderhit.
   */
  reached(nodes: number, completedDepth: number): boolean {
    const c = this.control;
    // A helper is called here every SMP_NODE_UNIT (1024) nodes: count them where the main thread sees them.
    if (this.helperIndex > 0) Atomics.add(c, SMP_NODE_UNITS, 1);
    // `go nodes N` counts the nodes of all threads.
    if (nodes + (this.helpers !== null ? this.helpers.helperNodes() : 0) >= this.nodeLimit) return true;
    if (Atomics.load(c, 0) !== 0) return true;
    if (this.signal !== null && this.signal.aborted) return true;
    if (this.pondering && Atomics.load(c, 1) !== 0) {
      // ponderhit: from now on the clock is ours, measured from this moment.
      this.pondering = false;
      this.timingStart = Date.now();
    }
    // Depth 1 always completes so there is a real best move.
    return this.timed && !this.pondering && completedDepth >= 1 && Date.now() - this.timingStart >= this.hardMs;
  }

  /** Asks the search to stop (from its own thread: a hook, or between searches). */
  stop(): void {
    Atomics.store(this.control, 0, 1);
  }

  /**
   * Infinite search or pondering: UCI says do not answer before "stop" (or ponderhit), so wait
   * for it when someone can signal us (a SharedArrayBuffer control block).
   */
  waitForStop(): void {
    if (!(this.control.buffer instanceof SharedArrayBuffer)) return;
    while (Atomics.load(this.control, 0) === 0 && !(this.pondering && Atomics.load(this.control, 1) !== 0)) {
      Atomics.wait(this.control, 0, 0, 20);
    }
  }
}
