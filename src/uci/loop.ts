/**
 * The UCI protocol loop (`matrix-chess uci`, and the browser's UCI worker). The main thread only reads commands and answers
 * the ones that must never wait (`stop`, `ponderhit`, `quit`, `isready` during a search); searches and perft run
 * in the search worker. Bad input is answered with `info string <reason>` and never stops the
 * loop; a bad `position` command keeps the previous position. Lines in, lines out, and the
 * search thread behind a seam: loop-node.ts wires it to stdin, stdout and a worker thread,
 * web/uci-worker.ts to postMessage and a Web Worker.
 */
import { renderBoard } from '../cmdline/board.js';
import { START_FEN, parseFen } from '../core/fen.js';
import { legalMoveList, moveToUciIn } from '../core/notation.js';
import type { FromWorker, ToWorker } from './search-worker.js';
import { parseInfoLine } from './info.js';
import {
  optionKey,
  optionLines,
  parseGo,
  parsePosition,
  parseSetOption,
  positionOf,
  tokenize,
  type GoCommand,
  type OptionChange,
  type PositionSpec,
  type UciHostDefaults,
} from './protocol.js';

export const ENGINE_NAME = 'Matrix Chess';
export const ENGINE_AUTHOR = 'the Matrix Chess developers';

const STOP = 0,
  PONDERHIT = 1;
const MAX_RESTARTS = 3;
/** How long `quit` waits for what the search thread still owes (a stopped search's bestmove, readyok). */
const QUIT_GRACE_MS = 2000;

/** The search thread as UciSession uses it: a Node worker thread, or a Web Worker in a browser. */
export interface SearchThread {
  post(msg: ToWorker): void;
  terminate(): void;
  /** Whether the thread alone keeps the process alive (Node only). */
  ref?(): void;
  unref?(): void;
}

export interface SearchThreadEvents {
  onMessage(msg: FromWorker): void;
  onError(err: Error): void;
}

/** Starts a search thread whose engine polls `control` (stop, ponderhit). */
export type StartSearchThread = (control: Int32Array, events: SearchThreadEvents) => SearchThread;

export interface UciSessionOptions {
  startThread: StartSearchThread;
  /** Called when the search thread keeps crashing (on Node: exit the process with status 1). */
  giveUp: () => void;
  /** The options' defaults and limits where the engine runs. */
  defaults: UciHostDefaults;
  /** List the search parameters among the options (`matrix-chess uci --tunables`). */
  tunables?: boolean;
}

type Task = { kind: 'search'; position: PositionSpec; infinite: boolean; ponder: boolean } | { kind: 'perft' };

/** Node always; a browser only on a cross-origin-isolated page (elsewhere a SharedArrayBuffer cannot be posted). */
function canShareMemory(): boolean {
  return typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;
}

export class UciSession {
  /**
   * Stop and ponderhit reach a running search through this block. Where SharedArrayBuffer is
   * missing (a web page without cross-origin isolation) it cannot be shared, and stop replaces
   * the search thread instead (see stopByRestart).
   */
  private readonly control = new Int32Array(canShareMemory() ? new SharedArrayBuffer(8) : new ArrayBuffer(8));
  private worker: SearchThread;
  private readonly startThread: StartSearchThread;
  private readonly giveUp: () => void;
  /** The first move of the running search's latest principal variation (for stopByRestart). */
  private lastPvMove: string | undefined;
  private position: PositionSpec = { fen: START_FEN, moves: [], setup: parseFen(START_FEN), played: [] };
  /** UCI_Chess960: castles are read and written king-takes-own-rook. */
  private chess960 = false;
  private task: Task | undefined;
  private stopSent = false;
  private ponderhitSent = false;
  /** A bestmove that arrived during `go infinite` or pondering, held until stop/ponderhit. */
  private heldBest: string | undefined;
  private idleWaiters: Array<() => void> = [];
  /** A go received while a search was still running. */
  private pendingGo: { cmd: GoCommand; position: PositionSpec; stopAtStart: boolean; receivedAt: number } | undefined;
  /** The latest value of each option set, to restore them in a restarted search thread. */
  private readonly options = new Map<string, OptionChange>();
  private crashes = 0;
  private readonly tunables: boolean;
  private readonly defaults: UciHostDefaults;
  /** isready commands posted to the search thread and not yet answered. */
  private readyPending = 0;

  /** `write` receives every output line; `handle` takes every input line. */
  constructor(
    private readonly write: (line: string) => void,
    options: UciSessionOptions,
  ) {
    this.startThread = options.startThread;
    this.giveUp = options.giveUp;
    this.defaults = options.defaults;
    this.tunables = options.tunables === true;
    this.worker = this.startWorker();
  }

  private startWorker(): SearchThread {
    const worker = this.startThread(this.control, {
      onMessage: (msg) => {
        // Ignore a replaced thread's last words.
        if (worker === this.worker) this.onWorkerMessage(msg);
      },
      onError: (err) => {
        if (worker !== this.worker) return;
        // A thread that cannot even start would crash forever: give up after a few attempts.
        if (++this.crashes > MAX_RESTARTS) {
          this.write(`info string search thread crashed again: ${err.message.split('\n')[0]}; giving up`);
          this.giveUp();
          return;
        }
        this.write(`info string search thread crashed: ${err.message.split('\n')[0]}; restarting it`);
        this.restartThread(undefined);
      },
    });
    // The worker must not keep the process alive on its own (quit and EOF decide that).
    worker.unref?.();
    return worker;
  }

  /** Replaces the search thread; a running search is answered with `best` or, failing that, any legal move. */
  private restartThread(best: string | undefined): void {
    const task = this.task;
    this.worker.terminate();
    // Without shared memory the new thread gets a copy of the block as it is now: a stop that
    // was just written must not reach it, or it would stop every later search at once.
    Atomics.store(this.control, STOP, 0);
    Atomics.store(this.control, PONDERHIT, 0);
    this.worker = this.startWorker();
    for (const change of this.options.values()) this.post({ type: 'option', change });
    // The old thread's unanswered isready would be lost with it: the new one owes them.
    for (let i = 0; i < this.readyPending; i++) this.post({ type: 'isready' });
    if (task?.kind === 'search') {
      // Still owe the GUI a legal move: any legal move beats none.
      const chess960 = task.position.chess960 === true,
        pos = positionOf(task.position),
        legal = legalMoveList(pos);
      this.write(`bestmove ${best ?? (legal.length > 0 ? moveToUciIn(pos, legal[0], chess960) : '0000')}`);
    }
    if (task) this.finishTask();
  }

  private post(msg: ToWorker): void {
    this.worker.post(msg);
  }

  private onWorkerMessage(msg: FromWorker): void {
    switch (msg.type) {
      case 'line': {
        const info = parseInfoLine(msg.text);
        if (info?.pv !== undefined && info.pv.length > 0 && (info.multipv ?? 1) === 1) this.lastPvMove = info.pv[0];
        this.write(msg.text);
        return;
      }
      case 'readyok':
        this.write('readyok');
        if (--this.readyPending === 0 && !this.task) this.wakeIdleWaiters();
        return;
      case 'perftdone':
        this.finishTask();
        return;
      case 'bestmove': {
        const text = msg.ponder ? `bestmove ${msg.best} ponder ${msg.ponder}` : `bestmove ${msg.best}`;
        const task = this.task;
        // UCI: in infinite or ponder mode, bestmove waits for stop (or ponderhit).
        const mustWait = task?.kind === 'search' && !this.stopSent && (task.infinite || (task.ponder && !this.ponderhitSent));
        if (mustWait) {
          this.heldBest = text;
          return;
        }
        this.write(text);
        this.finishTask();
      }
    }
  }

  private finishTask(): void {
    this.task = undefined;
    this.heldBest = undefined;
    const next = this.pendingGo;
    if (next) {
      this.pendingGo = undefined;
      this.start(next.cmd, next.position, next.receivedAt);
      if (next.stopAtStart) this.stop();
      return;
    }
    if (this.readyPending === 0) this.wakeIdleWaiters();
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private releaseHeld(): void {
    if (this.heldBest !== undefined) {
      this.write(this.heldBest);
      this.finishTask();
    }
  }

  /** Resolves when no search or perft is running and every isready has been answered. */
  idle(): Promise<void> {
    return this.task || this.readyPending > 0 ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  /** Handles one input line; returns false on `quit`. */
  handle(line: string): boolean {
    const tokens = tokenize(line);
    if (tokens.length === 0) return true;
    const [cmd, ...rest] = tokens;
    switch (cmd) {
      case 'uci':
        this.write(`id name ${ENGINE_NAME}`);
        this.write(`id author ${ENGINE_AUTHOR}`);
        for (const l of optionLines(this.defaults, this.tunables)) this.write(l);
        this.write('uciok');
        return true;
      case 'isready':
        // During a search: at once. Otherwise through the search thread's queue, so readyok
        // means the thread is up (warmed) and every earlier setoption has been applied.
        if (this.task) this.write('readyok');
        else {
          this.readyPending++;
          this.post({ type: 'isready' });
        }
        return true;
      case 'debug':
      case 'register':
        return true;
      case 'ucinewgame':
        this.post({ type: 'newgame' });
        return true;
      case 'position':
        this.setPosition(rest);
        return true;
      case 'go':
        this.go(rest);
        return true;
      case 'stop':
        this.stop();
        return true;
      case 'ponderhit':
        this.ponderhit();
        return true;
      case 'setoption': {
        const r = parseSetOption(rest, this.defaults);
        if (!r.ok) {
          this.write(`info string ${r.error}`);
          return true;
        }
        // The worker applies it after any running search (messages are handled in order).
        this.post({ type: 'option', change: r.value });
        if (r.value.name !== 'Clear Hash') this.options.set(optionKey(r.value), r.value);
        if (r.value.name === 'UCI_Chess960') this.chess960 = r.value.value;
        return true;
      }
      case 'd':
        this.display();
        return true;
      case 'quit':
        return false;
      default:
        this.write(`info string unknown command '${cmd}'`);
        return true;
    }
  }

  private setPosition(tokens: string[]): void {
    const r = parsePosition(tokens, this.chess960);
    if (!r.ok) {
      this.write(`info string ${r.error}; keeping the previous position`);
      return;
    }
    // Safe during a search: the running search has its own copy.
    this.position = r.value;
  }

  private go(tokens: string[]): void {
    const receivedAt = Date.now();
    const cmd = parseGo(tokens);
    for (const p of cmd.problems) this.write(`info string ${p}`);
    if (cmd.rejected) {
      this.write('info string go ignored: fix the parameter and send it again');
      return;
    }
    if (this.task) {
      // GUIs often send stop and the next go back to back; the go runs as soon as the
      // current search has answered (a later go replaces a waiting one).
      if (this.pendingGo) this.write('info string an earlier waiting go was replaced');
      this.pendingGo = { cmd, position: this.position, stopAtStart: false, receivedAt };
      return;
    }
    this.start(cmd, this.position, receivedAt);
  }

  private start(cmd: GoCommand, position: PositionSpec, receivedAt: number): void {
    Atomics.store(this.control, STOP, 0);
    Atomics.store(this.control, PONDERHIT, 0);
    this.stopSent = false;
    this.ponderhitSent = false;
    this.heldBest = undefined;
    this.lastPvMove = undefined;
    if (cmd.perft !== undefined) {
      this.task = { kind: 'perft' };
      this.post({ type: 'perft', position, depth: cmd.perft });
      return;
    }
    this.task = { kind: 'search', position, infinite: cmd.limits.infinite === true, ponder: cmd.limits.ponder === true };
    this.post({ type: 'go', position, limits: cmd.limits, receivedAt });
  }

  stop(): void {
    // A stop meant for a go that is still waiting: it will answer at once when it starts.
    if (this.pendingGo) this.pendingGo.stopAtStart = true;
    if (this.task?.kind !== 'search') return;
    this.stopSent = true;
    Atomics.store(this.control, STOP, 1);
    Atomics.notify(this.control, STOP);
    if (this.heldBest === undefined && !this.controlShared()) this.stopByRestart();
    this.releaseHeld();
  }

  private controlShared(): boolean {
    return typeof SharedArrayBuffer === 'function' && this.control.buffer instanceof SharedArrayBuffer;
  }

  /**
   * Stop without a shared control block: the search thread cannot see the flag, so it is
   * replaced, and the answer is the best move of the last completed depth, as a GUI expects
   * (the new thread starts with an empty hash table).
   */
  private stopByRestart(): void {
    this.restartThread(this.lastPvMove);
  }

  private ponderhit(): void {
    if (this.task?.kind !== 'search' || !this.task.ponder) return;
    this.ponderhitSent = true;
    Atomics.store(this.control, PONDERHIT, 1);
    Atomics.notify(this.control, PONDERHIT);
    // Without a shared block the pondering search cannot switch to the clock: play what it has.
    if (this.heldBest === undefined && !this.controlShared()) this.stopByRestart();
    this.releaseHeld();
  }

  private display(): void {
    const pos = positionOf(this.position);
    this.write(renderBoard(pos, { color: false, flipped: false }));
    this.write(`Fen: ${pos.toFen()}`);
  }

  /** At end of input: let a finite search or perft finish, stop an infinite one, then close. */
  async drain(): Promise<void> {
    const endless = (c: GoCommand): boolean => c.limits.infinite === true || c.limits.ponder === true;
    if (this.pendingGo && endless(this.pendingGo.cmd)) this.pendingGo.stopAtStart = true;
    if (this.task?.kind === 'search' && (this.task.infinite || this.task.ponder)) this.stop();
    // With stdin closed, only the worker keeps the process alive until the answer arrives.
    this.worker.ref?.();
    await this.idle();
  }

  /**
   * On quit, as Stockfish does: a running search is stopped and prints its bestmove, and every
   * isready sent before is answered, so `isready` then `quit` on a pipe still gets its readyok.
   * A perft is abandoned, and a thread that does not answer within QUIT_GRACE_MS is not waited for.
   */
  async quit(): Promise<void> {
    this.stop();
    if (this.task?.kind === 'perft') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, QUIT_GRACE_MS)))]);
    clearTimeout(timer);
  }

  close(): void {
    Atomics.store(this.control, STOP, 1);
    this.worker.terminate();
  }
}
