/**
 * The page's side of the engine worker: starts searches, keeps the best move reported so far,
 * and stops by replacing the worker (a search cannot be interrupted mid-run; see docs/web.md).
 * Answers to a search that was stopped or superseded are dropped.
 */
import type { NnueUrls, SearchRequestLimits } from './protocol.js';
import type { BackendName } from '../src/backends.js';
import type { FromWorker, ToWorker } from './protocol.js';
import type { GameAnalysis } from '../src/analysis/analyse-game.js';

export type SearchMessage = Extract<FromWorker, { type: 'info' | 'done' }>;

export interface SearchRequest {
  startFen: string;
  moves: string[];
  chess960: boolean;
  backend: BackendName;
  weightsUrl: string | null;
  nnue: NnueUrls | null;
  limits: SearchRequestLimits;
  /** UCI options the search needs (name -> value), sent as setoption lines when the worker's differ. */
  options: Record<string, string>;
}

export interface EngineEvents {
  /** An info or the final answer of the current search (`fen`: the position searched). */
  onReport(msg: SearchMessage, fen: string): void;
  /** The search is over: its best move (null if none), after onReport of the `done`. */
  onDone(best: string | null, backend: BackendName, msg: Extract<FromWorker, { type: 'done' }>): void;
  /** The worker refused the search (e.g. a backend that cannot start), or crashed. */
  onError(message: string, crashed: boolean): void;
  /** The worker's answer to a setoption line (`ok` false: refused or not applied). */
  onOption(line: string, ok: boolean): void;
}

export interface AnalysisRequest {
  pgn: string;
  nodes: number;
  backend: BackendName;
  weightsUrl: string | null;
  nnue: NnueUrls | null;
}

export interface AnalysisEvents {
  onProgress(searched: number, total: number): void;
  onDone(analysis: GameAnalysis): void;
  onError(message: string): void;
}

interface Search {
  id: number;
  fen: string;
  best: string | null;
}

export class EngineClient {
  private worker: Worker | null = null;
  private seq = 0;
  private search: Search | null = null;
  private analysis: { id: number; events: AnalysisEvents } | null = null;
  /** The options as last sent to the current worker (a new worker starts from the engine's defaults). */
  private workerOptions = new Map<string, string>([['UCI_LimitStrength', 'false']]);
  /** The limits of the last search started (the page exposes them for tests and debugging). */
  lastLimits: SearchRequestLimits | null = null;
  /** Every setoption line sent, in order (the page exposes it for tests and debugging). */
  readonly sentOptions: string[] = [];

  constructor(private readonly events: EngineEvents) {}

  get searching(): boolean {
    return this.search !== null;
  }

  get analysing(): boolean {
    return this.analysis !== null;
  }

  /** Starts analysing a game in the worker (one job at a time: the page stops a search first). */
  analyse(request: AnalysisRequest, events: AnalysisEvents, options: Record<string, string> = {}): void {
    const id = ++this.seq;
    this.analysis = { id, events };
    this.applyOptions(options);
    this.send({ type: 'analyse', id, ...request });
  }

  /** Sends the setoption lines that make the worker's options `options` (only those that differ). */
  private applyOptions(options: Record<string, string>): void {
    this.worker ??= this.newWorker();
    for (const [name, value] of Object.entries(options)) {
      if (this.workerOptions.get(name) === value) continue;
      const line = `setoption name ${name} value ${value}`;
      this.workerOptions.set(name, value);
      this.sentOptions.push(line);
      this.send({ type: 'setoption', line });
    }
  }

  /** Ends the analysis under way, if any, by replacing the worker (the analysis is one synchronous run). */
  stopAnalysis(): boolean {
    if (!this.analysis) return false;
    this.analysis = null;
    this.worker?.terminate();
    this.worker = null;
    return true;
  }

  /** Starts a search of the game after `moves`; `fen` is its current position. */
  start(fen: string, request: SearchRequest): void {
    const id = ++this.seq;
    this.search = { id, fen, best: null };
    const { options, ...search } = request;
    this.lastLimits = search.limits;
    this.applyOptions(options);
    this.send({ type: 'search', id, ...search });
  }

  /** Ends the current search; returns its best move so far and the position it was for. */
  stop(): { best: string | null; fen: string } | null {
    if (!this.search) return null;
    const { best, fen } = this.search;
    this.search = null;
    this.worker?.terminate();
    this.worker = null;
    return { best, fen };
  }

  newGame(): void {
    this.send({ type: 'newgame' });
  }

  private send(msg: ToWorker): void {
    this.worker ??= this.newWorker();
    this.worker.postMessage(msg);
  }

  private newWorker(): Worker {
    // The engine's default: a fresh worker plays at full strength without being told.
    this.workerOptions = new Map([['UCI_LimitStrength', 'false']]);
    const w = new Worker('worker.js');
    w.onmessage = (ev: MessageEvent<FromWorker>) => this.onMessage(ev.data);
    w.onerror = (ev) => {
      ev.preventDefault();
      const message = `The engine worker failed: ${ev.message || 'unknown error'}`;
      const analysis = this.analysis;
      this.search = null;
      this.analysis = null;
      if (analysis) analysis.events.onError(message);
      else this.events.onError(message, true);
    };
    return w;
  }

  private onMessage(msg: FromWorker): void {
    if (msg.type === 'option') {
      this.events.onOption(msg.line, msg.ok);
      return;
    }
    const analysis = this.analysis;
    if (analysis && msg.id === analysis.id) {
      if (msg.type === 'analysis-progress') analysis.events.onProgress(msg.searched, msg.total);
      else if (msg.type === 'analysis' || msg.type === 'error') {
        this.analysis = null;
        if (msg.type === 'analysis') analysis.events.onDone(msg.analysis);
        else analysis.events.onError(msg.message);
      }
      return;
    }
    const search = this.search;
    if (!search || msg.id !== search.id) return; // a stale answer from before an undo or new game
    if (msg.type === 'error') {
      this.search = null;
      this.events.onError(msg.message, false);
      return;
    }
    if (msg.type !== 'info' && msg.type !== 'done') return;
    // An aspiration fail-low/high line is not a settled best move; completed depths are.
    if (msg.pv.length > 0 && (msg.type === 'done' || msg.bound === null)) search.best = msg.pv[0];
    this.events.onReport(msg, search.fen);
    if (msg.type === 'done') {
      const best = msg.bestMove !== '0000' && msg.bestMove !== 'a1a1' ? msg.bestMove : search.best;
      this.search = null;
      this.events.onDone(best, msg.backend, msg);
    }
  }
}
