/**
 * The engine a program awaits: our UCI engine on another thread (a Web Worker in a browser, a
 * worker thread on Node), driven as a UCI client, so the caller's thread never searches and
 * every search can be stopped. Platform-neutral: the thread comes in as a UciTransport.
 *
 * Everything the caller passes is checked before a line is sent (FenError, MoveError,
 * SearchLimitError, EngineOptionError). Calls run one at a time in the order made: a second
 * analyse waits for the first (abort the first to move on). An analysis ends at its limit, or
 * when stopped (stop(), or its signal aborted), and then resolves with what the search found,
 * `stopped: true`; a signal aborted before the analysis starts rejects it with the signal's
 * reason, and nothing is sent.
 */
import { START_FEN, parseFen } from '../core/fen.js';
import { playUciMoves } from '../core/notation.js';
import { Position } from '../core/position.js';
import type { Score } from '../core/types.js';
import { EngineOptionError, SearchLimitError, describeValue, validateSearchLimits } from '../engine/limits.js';
import type { SearchLimits } from '../engine/types.js';
import { parseBestMove, parseInfoLine, parseOptionLine, type UciInfo, type UciOption } from '../uci/info.js';
import type { UciTransport } from './transport.js';

export type { UciOption };

/** One principal variation as the engine last reported it. */
export interface AnalysisLine {
  /** 1 for the best line, 2 for the second best, … (multiPv). */
  multipv: number;
  depth: number;
  seldepth?: number;
  /** From the side to move's point of view: centipawns, or mate in N moves (negative: being mated). */
  score: Score;
  /** Set on a report whose score is only a bound (an aspiration window failed); never in `lines`. */
  bound?: 'lower' | 'upper';
  /** The moves, in UCI notation (e2e4, e7e8q; castling as king two squares, or king takes rook under UCI_Chess960). */
  pv: string[];
  nodes: number;
  /** Nodes per second. */
  nps: number;
  /** Milliseconds since the search started. */
  time: number;
  hashfull?: number;
}

export interface Analysis {
  /** The move the engine plays, in UCI notation; null when the side to move has no legal move. */
  bestmove: string | null;
  /** The reply it expects, if it has one. */
  ponder: string | null;
  /** The latest exact report of each line, best first (multiPv lines; one without multiPv). */
  lines: AnalysisLine[];
  /** Whether stop() or the signal ended it before its limit. */
  stopped: boolean;
  /** The engine's `info string` messages during the analysis (a book move, a fallback, …). */
  messages: string[];
}

/** What analyse() takes besides the position: the search's limits and its reports. */
export interface AnalyseOptions extends Omit<SearchLimits, 'ponder'> {
  /** Moves played from the FEN, in UCI notation (the engine then knows the game's repetitions). */
  moves?: string[];
  /** How many best lines to report, for this analysis (default: the MultiPV option, 1 unless set with setOption). */
  multiPv?: number;
  /** Every report as it arrives (bound reports included, with `bound` set). */
  onInfo?: (line: AnalysisLine) => void;
}

export type OptionValue = string | number | boolean;

/** The engine is gone: quit() or close() was called, its thread crashed, or it did not start. */
export class EngineClosedError extends Error {
  override readonly name = 'EngineClosedError';
}

/** The engine refused a command it was sent (its `info string` lines say why). */
export class EngineReplyError extends Error {
  override readonly name = 'EngineReplyError';
  constructor(
    message: string,
    readonly messages: string[],
  ) {
    super(message);
  }
}

export interface StartOptions {
  /** UCI options set before the engine is handed over, e.g. { Hash: 64, UseNNUE: false }. */
  options?: Record<string, OptionValue>;
  /** How long the engine may take to start and answer `isready` (ms; default 60,000). */
  timeoutMs?: number;
}

const START_KEYS = ['options', 'timeoutMs'];
const WHOLE_MS = ['movetime', 'wtime', 'btime', 'winc', 'binc'] as const;
/** How long quit() waits for a stopped analysis to answer before it ends the thread anyway. */
const QUIT_GRACE_MS = 2000;

/** Checks createEngine's common options; `extra`: the host's own keys. */
export function checkStartOptions(options: unknown, extra: string[] = []): StartOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new EngineOptionError('options', `expected an object such as { options: { Hash: 64 } }, got ${describeValue(options)}`);
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o))
    if (o[key] !== undefined && !START_KEYS.includes(key) && !extra.includes(key))
      throw new EngineOptionError(key, `unknown createEngine option (expected one of ${[...START_KEYS, ...extra].join(', ')})`);
  if (o.options !== undefined && (typeof o.options !== 'object' || o.options === null || Array.isArray(o.options)))
    throw new EngineOptionError('options', `expected UCI options by name, such as { Hash: 64 }, got ${describeValue(o.options)}`);
  if (o.timeoutMs !== undefined && !(typeof o.timeoutMs === 'number' && Number.isFinite(o.timeoutMs) && o.timeoutMs > 0))
    throw new EngineOptionError('timeoutMs', `expected a number of milliseconds above 0, got ${describeValue(o.timeoutMs)}`);
  return o as StartOptions;
}

interface Prepared {
  commands: string[];
  multiPv: number | undefined;
  signal: AbortSignal | undefined;
  onInfo: ((line: AnalysisLine) => void) | undefined;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('This operation was aborted');
}

function toLine(info: UciInfo & { score: Score }): AnalysisLine {
  const line: AnalysisLine = {
    multipv: info.multipv ?? 1,
    depth: info.depth ?? 0,
    score: info.score,
    pv: info.pv ?? [],
    nodes: info.nodes ?? 0,
    nps: info.nps ?? 0,
    time: info.time ?? 0,
  };
  if (info.seldepth !== undefined) line.seldepth = info.seldepth;
  if (info.bound !== undefined) line.bound = info.bound;
  if (info.hashfull !== undefined) line.hashfull = info.hashfull;
  return line;
}

/** The engine on its thread, behind promises. Made by createEngine (matrix-chess in a browser, matrix-chess/node on Node). */
export class AsyncEngine {
  /** The engine's `id name`. */
  name = '';
  private readonly optionList: UciOption[] = [];
  private closedBy: EngineClosedError | null = null;
  private closing: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  /** The running command's reader of output lines, and how it fails if the thread ends. */
  private reader: ((line: string) => void) | null = null;
  private failReader: ((err: Error) => void) | null = null;
  private running: { stop(): void } | null = null;
  /** MultiPV as set with setOption (analyses without multiPv use it), and as the engine has it now. */
  private multiPv = 1;
  private engineMultiPv = 1;
  private chess960 = false;

  private constructor(private readonly transport: UciTransport) {
    transport.listen(
      (line) => this.reader?.(line),
      (err) => {
        if (this.closedBy === null) this.closedBy = new EngineClosedError(`the engine's thread ended: ${err.message}`);
        this.failReader?.(this.closedBy);
      },
    );
  }

  /** Starts the engine on `transport`: the UCI handshake, `options`, `isready`. Ends the thread and rejects if that fails. */
  static async start(transport: UciTransport, options: StartOptions = {}): Promise<AsyncEngine> {
    const engine = new AsyncEngine(transport);
    const timeoutMs = options.timeoutMs ?? 60_000;
    try {
      await engine.enqueue(async () => {
        engine.transport.send('uci');
        await engine.readUntil(
          (line) => line === 'uciok',
          (line) => {
            const option = parseOptionLine(line);
            if (option !== null) engine.optionList.push(option);
            else if (line.startsWith('id name ')) engine.name = line.slice(8).trim();
          },
          timeoutMs,
          'uciok',
        );
      });
      for (const [name, value] of Object.entries(options.options ?? {})) await engine.setOption(name, value);
      await engine.enqueue(() => engine.ready(timeoutMs));
    } catch (err) {
      await engine.close();
      throw err;
    }
    return engine;
  }

  /** The options the engine offers (its `uci` answer): name, type, default, range or values. */
  get options(): readonly UciOption[] {
    return this.optionList;
  }

  /**
   * Analyses `fen` (or 'startpos') after `options.moves`, within the limits given: depth, nodes,
   * movetime, a clock (wtime/btime, winc/binc, movestogo), or `infinite: true`, which runs until
   * stop() or the signal. Rejects before anything is sent for a bad FEN (FenError), an illegal
   * move (MoveError), a bad limit or a search without one (SearchLimitError).
   */
  async analyse(fen: string, options: AnalyseOptions = {}): Promise<Analysis> {
    this.checkOpen();
    const prepared = this.prepare(fen, options);
    if (prepared.signal?.aborted) throw abortReason(prepared.signal);
    return this.enqueue(() => this.run(prepared));
  }

  /**
   * Sets a UCI option (names as in `options`, any case): a number for a spin, a boolean for a
   * check, one of the values for a combo, text for a string, nothing for a button. Checked
   * before it is sent (EngineOptionError); resolves, once the engine has applied it, with the
   * engine's messages about it (a network it could not load, …).
   */
  async setOption(name: string, value?: OptionValue): Promise<string[]> {
    this.checkOpen();
    const command = this.optionCommand(name, value);
    return this.enqueue(async () => {
      this.transport.send(command.line);
      if (command.name === 'MultiPV') this.multiPv = this.engineMultiPv = Number(value);
      if (command.name === 'UCI_Chess960') this.chess960 = value === true;
      return this.ready();
    });
  }

  /** A new game: the engine clears what it learnt of the last one (its hash table). */
  async newGame(): Promise<void> {
    this.checkOpen();
    await this.enqueue(async () => {
      this.transport.send('ucinewgame');
      await this.ready();
    });
  }

  /** Stops the running analysis, which then resolves with what it found (`stopped: true`). Queued ones still run. */
  stop(): void {
    this.running?.stop();
  }

  /**
   * Ends the engine: a running analysis is stopped and resolves, queued calls reject with
   * EngineClosedError, and the thread ends. Later calls reject with EngineClosedError.
   */
  quit(): Promise<void> {
    if (this.closing !== null) return this.closing;
    this.closedBy ??= new EngineClosedError('the engine was closed (quit)');
    this.running?.stop();
    const settled = this.queue.then(
      () => undefined,
      () => undefined,
    );
    this.closing = (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, QUIT_GRACE_MS)))]);
      clearTimeout(timer);
      try {
        this.transport.send('quit');
      } catch {
        // The thread is already gone.
      }
      await this.transport.terminate();
      this.transport.setBusy?.(false);
    })();
    return this.closing;
  }

  /** The same as quit(). */
  close(): Promise<void> {
    return this.quit();
  }

  private checkOpen(): void {
    if (this.closedBy !== null) throw this.closedBy;
  }

  /** Runs `task` after every earlier call; the thread keeps a Node process alive only while something waits. */
  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    if (this.pending === 1) this.transport.setBusy?.(true);
    const run = this.queue.then(
      () => {
        this.checkOpen();
        return task();
      },
      () => {
        this.checkOpen();
        return task();
      },
    );
    const done = (): void => {
      if (--this.pending === 0) this.transport.setBusy?.(false);
    };
    this.queue = run.then(done, done);
    return run;
  }

  /** Feeds output lines to `onLine` until one passes `until` (resolved with it); rejects if the thread ends or `timeoutMs` passes. */
  private readUntil(until: (line: string) => boolean, onLine: (line: string) => void, timeoutMs?: number, what = ''): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (): void => {
        clearTimeout(timer);
        this.reader = null;
        this.failReader = null;
      };
      this.failReader = (err) => {
        finish();
        reject(err);
      };
      this.reader = (line) => {
        if (until(line)) {
          finish();
          resolve(line);
        } else onLine(line);
      };
      if (timeoutMs !== undefined)
        timer = setTimeout(() => {
          finish();
          reject(new EngineClosedError(`the engine did not answer ${what} within ${timeoutMs} ms`));
        }, timeoutMs);
      if (this.closedBy !== null) this.failReader(this.closedBy);
    });
  }

  /** isready → readyok; resolves with the `info string` messages in between. */
  private async ready(timeoutMs?: number): Promise<string[]> {
    const messages: string[] = [];
    this.transport.send('isready');
    await this.readUntil(
      (line) => line === 'readyok',
      (line) => {
        const text = parseInfoLine(line)?.string;
        if (text !== undefined) messages.push(text);
      },
      timeoutMs,
      'readyok',
    );
    return messages;
  }

  private prepare(fen: string, options: AnalyseOptions): Prepared {
    if (typeof fen !== 'string') throw new SearchLimitError('fen', `expected a FEN or 'startpos', got ${describeValue(fen)}`);
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      throw new SearchLimitError('options', `expected an object such as { depth: 10 }, got ${describeValue(options)}`);
    const { moves = [], multiPv, onInfo, ...rest } = options;
    const text = fen.trim() === 'startpos' ? START_FEN : fen.trim();
    const setup = parseFen(text); // FenError names the field
    if (!Array.isArray(moves) || moves.some((m) => typeof m !== 'string'))
      throw new SearchLimitError('moves', `expected an array of moves in UCI notation, got ${describeValue(moves)}`);
    const pos = Position.fromSetup(setup);
    playUciMoves(pos, moves, this.chess960); // MoveError names the move
    const maxPv = this.optionList.find((o) => o.name === 'MultiPV')?.max ?? 64;
    if (multiPv !== undefined && !(Number.isInteger(multiPv) && multiPv >= 1 && multiPv <= maxPv))
      throw new SearchLimitError('multiPv', `expected a whole number from 1 to ${maxPv}, got ${describeValue(multiPv)}`);
    if (onInfo !== undefined && typeof onInfo !== 'function')
      throw new SearchLimitError('onInfo', `expected a function, got ${describeValue(onInfo)}`);
    if ((rest as SearchLimits).ponder !== undefined)
      throw new SearchLimitError('ponder', 'analyse does not ponder (send the expected reply as a move and analyse that)');
    const limits = validateSearchLimits(rest, { side: pos.side, canStop: true });
    for (const key of WHOLE_MS) {
      const v = limits[key];
      if (v !== undefined && !Number.isInteger(v)) throw new SearchLimitError(key, `expected whole milliseconds, got ${v}`);
    }
    const go = ['go'];
    for (const key of ['depth', 'nodes', 'movetime', 'wtime', 'btime', 'winc', 'binc', 'movestogo'] as const)
      if (limits[key] !== undefined) go.push(key, String(limits[key]));
    if (limits.infinite === true) go.push('infinite');
    const position = `position fen ${text}${moves.length > 0 ? ` moves ${moves.join(' ')}` : ''}`;
    return { commands: [position, go.join(' ')], multiPv, signal: limits.signal, onInfo };
  }

  private async run(p: Prepared): Promise<Analysis> {
    if (p.signal?.aborted) throw abortReason(p.signal);
    // Applied by the engine before the search (its messages are handled in order).
    const multiPv = p.multiPv ?? this.multiPv;
    if (multiPv !== this.engineMultiPv) {
      this.transport.send(`setoption name MultiPV value ${multiPv}`);
      this.engineMultiPv = multiPv;
    }
    for (const c of p.commands) this.transport.send(c);
    const lines = new Map<number, AnalysisLine>();
    const messages: string[] = [];
    let stopped = false,
      refused = false,
      callbackError: { error: unknown } | undefined;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      this.transport.send('stop');
    };
    this.running = { stop };
    p.signal?.addEventListener('abort', stop);
    try {
      const last = await this.readUntil(
        (line) => line.startsWith('bestmove') || (refused && line === 'readyok'),
        (line) => {
          const info = parseInfoLine(line);
          if (info === null) return;
          if (info.string !== undefined) {
            messages.push(info.string);
            // The loop answers a go it refuses with no bestmove: a readyok ends the wait instead.
            if (info.string.startsWith('go ignored')) {
              refused = true;
              this.transport.send('isready');
            }
            return;
          }
          if (info.score === undefined) return;
          const reported = toLine(info as UciInfo & { score: Score });
          if (reported.bound === undefined) lines.set(reported.multipv, reported);
          if (p.onInfo === undefined || callbackError !== undefined) return;
          try {
            p.onInfo(reported);
          } catch (error) {
            // The caller's callback failed: stop, and reject with its error once the engine has answered.
            callbackError = { error };
            stop();
          }
        },
      );
      if (refused) throw new EngineReplyError(`the engine refused the search: ${messages.join('; ')}`, messages);
      if (callbackError !== undefined) throw callbackError.error;
      const best = parseBestMove(last)!;
      return {
        bestmove: best.best,
        ponder: best.ponder,
        lines: [...lines.values()].sort((a, b) => a.multipv - b.multipv),
        stopped,
        messages,
      };
    } finally {
      p.signal?.removeEventListener('abort', stop);
      this.running = null;
    }
  }

  private optionCommand(name: string, value: OptionValue | undefined): { name: string; line: string } {
    if (typeof name !== 'string') throw new EngineOptionError('name', `expected an option name, got ${describeValue(name)}`);
    const option = this.optionList.find((o) => o.name.toLowerCase() === name.trim().toLowerCase());
    if (option === undefined)
      throw new EngineOptionError(name, `unknown option (the engine has ${this.optionList.map((o) => o.name).join(', ')})`);
    const fail = (expected: string): never => {
      throw new EngineOptionError(option.name, `expected ${expected}, got ${describeValue(value)}`);
    };
    let text: string | undefined;
    switch (option.type) {
      case 'spin': {
        const min = option.min ?? -Infinity,
          max = option.max ?? Infinity;
        if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
          fail(`a whole number from ${option.min} to ${option.max}`);
        text = String(value);
        break;
      }
      case 'check':
        if (typeof value !== 'boolean') fail('true or false');
        text = String(value);
        break;
      case 'combo': {
        const match = option.vars?.find((v) => typeof value === 'string' && v.toLowerCase() === value.toLowerCase());
        if (match === undefined) fail(`one of ${(option.vars ?? []).join(', ')}`);
        text = match;
        break;
      }
      case 'string':
        if (typeof value !== 'string' || value.trim() === '' || /[\r\n]/.test(value)) fail('a line of text');
        text = (value as string).trim();
        break;
      case 'button':
        if (value !== undefined) fail('no value (a button)');
    }
    return { name: option.name, line: `setoption name ${option.name}${text === undefined ? '' : ` value ${text}`}` };
  }
}
