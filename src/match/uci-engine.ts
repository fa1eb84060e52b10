/**
 * A client for an external UCI engine process: spawn, handshake (uci/uciok, setoption,
 * isready/readyok), new game, position + go, reading info and bestmove, and clean shutdown.
 * Every wait has a deadline, and a process that exits or stops answering is reported as such
 * rather than hanging the match.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Score } from '../core/types.js';
import { parseInfoLine } from '../uci/info.js';

/** How to start an engine: command, arguments, working directory and UCI options. */
export interface EngineSpec {
  /** Display name; empty means use the engine's `id name`. */
  name: string;
  cmd: string;
  args: string[];
  cwd?: string;
  options: Array<[string, string]>;
}

export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly engine: string,
    message: string,
  ) {
    super(message);
  }
}

export interface GoResult {
  /** 'ok': bestmove arrived; 'timeout': no bestmove before the deadline; 'crash': the process exited. */
  status: 'ok' | 'timeout' | 'crash';
  bestMove: string | null;
  /** Wall time from sending go to receiving bestmove (or to giving up). */
  elapsedMs: number;
  /** Last reported score (side to move's view) and depth, if any info line had them. */
  score?: Score;
  depth?: number;
}

interface Waiter {
  test: (line: string) => boolean;
  resolve: (line: string | null) => void;
  timer: NodeJS.Timeout;
}

export class UciEngine {
  /** The name the engine reported in `id name` (empty until then). */
  idName = '';
  private proc: ChildProcess | null = null;
  private waiters: Waiter[] = [];
  private exited = true;
  private lastScore: Score | undefined;
  private lastDepth: number | undefined;
  /** Lines the engine wrote to stderr, kept short for crash reports. */
  private stderrTail = '';

  constructor(
    readonly spec: EngineSpec,
    private readonly log?: (dir: '>' | '<', line: string) => void,
  ) {}

  /** The spec's name if one was given, else the id name, else the command. */
  get displayName(): string {
    return this.spec.name || this.idName || this.spec.cmd.split('/').pop()!;
  }

  get running(): boolean {
    return !this.exited;
  }

  /** Spawns the engine and completes the handshake; throws EngineError if it fails or is too slow. */
  async start(timeoutMs = 10_000): Promise<void> {
    const { cmd, args, cwd } = this.spec;
    const proc = spawn(cmd, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc = proc;
    this.exited = false;
    this.stderrTail = '';
    const spawnError = new Promise<Error>((resolve) => proc.once('error', resolve));
    // Events of a process we already killed and replaced must not touch the new one's state.
    proc.once('exit', () => {
      if (this.proc === proc) this.markExited();
    });
    proc.stdin!.on('error', () => {
      /* writes after exit: reported through the exit path */
    });
    proc.stderr!.on('data', (d: Buffer) => {
      if (this.proc === proc) this.stderrTail = (this.stderrTail + d.toString()).slice(-2000);
    });
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (this.proc === proc) this.onLine(line);
    });

    this.send('uci');
    const ok = await Promise.race([this.waitFor((l) => l === 'uciok', timeoutMs), spawnError]);
    if (ok instanceof Error) {
      this.markExited();
      throw new EngineError(this.displayName, `cannot start engine '${this.displayName}' (${cmd}): ${ok.message}`);
    }
    if (ok === null) {
      const why = this.exited
        ? `exited during the handshake${this.stderrTail ? ': ' + lastLine(this.stderrTail) : ''}`
        : `sent no uciok within ${timeoutMs} ms`;
      this.kill();
      throw new EngineError(this.displayName, `engine '${this.displayName}' (${cmd}) ${why}`);
    }
    for (const [name, value] of this.spec.options) this.send(`setoption name ${name} value ${value}`);
    await this.ready(timeoutMs);
  }

  /** isready/readyok round trip; throws EngineError when the engine does not answer. */
  async ready(timeoutMs = 10_000): Promise<void> {
    this.send('isready');
    const ok = await this.waitFor((l) => l === 'readyok', timeoutMs);
    if (ok === null) {
      throw new EngineError(
        this.displayName,
        `engine '${this.displayName}' ${this.exited ? 'exited' : `sent no readyok within ${timeoutMs} ms`}`,
      );
    }
  }

  async newGame(timeoutMs = 10_000): Promise<void> {
    this.send('ucinewgame');
    await this.ready(timeoutMs);
  }

  /**
   * Sends `position` and `go`, then waits for bestmove until `deadlineMs` after go. On timeout
   * it sends `stop` (the caller decides whether the engine must be restarted).
   */
  async go(positionCmd: string, goCmd: string, deadlineMs: number): Promise<GoResult> {
    this.lastScore = undefined;
    this.lastDepth = undefined;
    if (this.exited) return { status: 'crash', bestMove: null, elapsedMs: 0 };
    this.send(positionCmd);
    const t0 = performance.now();
    this.send(goCmd);
    const line = await this.waitFor((l) => l.startsWith('bestmove'), Math.max(1, Math.ceil(deadlineMs)));
    const elapsedMs = performance.now() - t0;
    const extra = { score: this.lastScore, depth: this.lastDepth };
    if (line === null) {
      if (this.exited) return { status: 'crash', bestMove: null, elapsedMs, ...extra };
      this.send('stop');
      return { status: 'timeout', bestMove: null, elapsedMs, ...extra };
    }
    const parts = line.split(/\s+/);
    return { status: 'ok', bestMove: parts[1] ?? '', elapsedMs, ...extra };
  }

  /** The last few lines the engine wrote to stderr (for crash messages). */
  stderrSummary(): string {
    return lastLine(this.stderrTail);
  }

  /** Sends quit and waits briefly; kills the process if it does not exit. */
  async quit(graceMs = 1000): Promise<void> {
    const proc = this.proc;
    if (!proc || this.exited) return;
    this.send('quit');
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([exited, timer]);
    if (proc.exitCode === null && proc.signalCode === null) this.kill();
  }

  /** Kills the process now; the engine counts as stopped at once (start() may follow). */
  kill(): void {
    if (this.proc && !this.exited) {
      this.proc.kill('SIGKILL');
      this.markExited();
    }
  }

  private markExited(): void {
    this.exited = true;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(null);
    }
  }

  private send(line: string): void {
    if (!this.proc || this.exited) return;
    this.log?.('>', line);
    this.proc.stdin!.write(line + '\n');
  }

  private onLine(raw: string): void {
    const line = raw.trim();
    this.log?.('<', line);
    if (line.startsWith('id name ')) this.idName = line.slice(8).trim();
    else {
      const info = parseInfoLine(line);
      // Bound scores (lowerbound/upperbound) are not the engine's opinion of the position, nor
      // are the second and later lines of an engine at MultiPV > 1 (weaker moves' scores).
      if (info && (info.multipv ?? 1) === 1) {
        if (info.score !== undefined && info.bound === undefined) this.lastScore = info.score;
        if (info.depth !== undefined) this.lastDepth = info.depth;
      }
    }
    for (let i = 0; i < this.waiters.length; i++) {
      const w = this.waiters[i];
      if (w.test(line)) {
        this.waiters.splice(i, 1);
        clearTimeout(w.timer);
        w.resolve(line);
        return;
      }
    }
  }

  /** Resolves with the first line passing `test`, or null on timeout or process exit. */
  private waitFor(test: (line: string) => boolean, timeoutMs: number): Promise<string | null> {
    if (this.exited) return Promise.resolve(null);
    return new Promise((resolve) => {
      const w: Waiter = {
        test,
        resolve,
        timer: setTimeout(() => {
          const i = this.waiters.indexOf(w);
          if (i >= 0) this.waiters.splice(i, 1);
          resolve(null);
        }, timeoutMs),
      };
      this.waiters.push(w);
    });
  }
}

/** The most telling line of an engine's stderr: the last error line if any, else the last line. */
function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const errors = lines.filter((l) => /\b\w*(Error|error|panic|fatal|Fatal)\b/.test(l));
  return (errors.length > 0 ? errors[errors.length - 1] : lines[lines.length - 1]) ?? '';
}
