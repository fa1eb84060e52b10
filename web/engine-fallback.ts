/**
 * Stand-in for src/engine while it is being written: the same API as the real Engine (the
 * subset the worker uses), with a plain iterative-deepening alpha-beta on material. The build
 * bundles this only when src/engine/index.ts does not exist yet.
 */
import type { Position } from '../src/core/position.js';
import { defaultGenerator, MAX_MOVES } from '../src/core/movegen.js';

export interface SearchLimits { depth?: number; nodes?: number; movetime?: number; infinite?: boolean }
export type Score = { cp: number } | { mate: number };
export interface SearchInfo {
  depth: number; seldepth: number; multipv: number; score: Score; nodes: number; nps: number;
  timeMs: number; hashfull: number; pv: number[];
}
export interface SearchResult { bestMove: number; ponderMove: number; score: Score; depth: number; nodes: number; timeMs: number; pv: number[] }
export interface MoveSource {
  generate(pos: Position, out: Int32Array, start: number): number;
  generateNoisy(pos: Position, out: Int32Array, start: number): number;
}

const VALUE = [0, 100, 330, 320, 500, 900, 0];
const MATE = 30000;
const MAX_DEPTH = 64;

export class Engine {
  private src: MoveSource = defaultGenerator;
  private buf = new Int32Array(MAX_MOVES * (MAX_DEPTH + 2));
  private nodes = 0;
  private deadline = Infinity;
  private stopped = false;
  private control: Int32Array | undefined;

  constructor(options: { moveSource?: MoveSource } = {}) {
    if (options.moveSource) this.src = options.moveSource;
  }
  setMoveSource(src: MoveSource): void { this.src = src; }
  setHashSize(_mb: number): void {}
  clearHash(): void {}
  setMultiPv(_n: number): void {}
  setMoveOverhead(_ms: number): void {}
  newGame(): void {}
  stop(): void { this.stopped = true; }

  search(pos: Position, limits: SearchLimits, hooks: { onInfo?: (i: SearchInfo) => void; control?: Int32Array } = {}): SearchResult {
    const t0 = Date.now();
    this.nodes = 0; this.stopped = false; this.control = hooks.control;
    this.deadline = limits.movetime ? t0 + limits.movetime : Infinity;
    const maxDepth = Math.min(limits.depth ?? MAX_DEPTH, MAX_DEPTH);
    let best: SearchResult = { bestMove: 0, ponderMove: 0, score: { cp: 0 }, depth: 0, nodes: 0, timeMs: 0, pv: [] };
    const n = this.src.generate(pos, this.buf, 0);
    if (n > 0) best.bestMove = best.pv[0] = this.buf[0];
    for (let depth = 1; depth <= maxDepth; depth++) {
      const pv: number[] = [];
      const v = this.negamax(pos, depth, -MATE - 1, MATE + 1, 0, pv);
      if (this.stopped && depth > 1) break;
      const timeMs = Date.now() - t0;
      const score: Score = Math.abs(v) > MATE - 100 ? { mate: v > 0 ? Math.ceil((MATE - v) / 2) : -Math.ceil((MATE + v) / 2) } : { cp: v };
      best = { bestMove: pv[0] ?? best.bestMove, ponderMove: pv[1] ?? 0, score, depth, nodes: this.nodes, timeMs, pv };
      hooks.onInfo?.({ depth, seldepth: depth, multipv: 1, score, nodes: this.nodes, nps: Math.round(this.nodes * 1000 / Math.max(1, timeMs)), timeMs, hashfull: 0, pv });
      if (this.stopped || 'mate' in score) break;
    }
    return best;
  }

  private evaluate(pos: Position): number {
    let s = 0;
    for (let sq = 0; sq < 64; sq++) {
      const p = pos.board[sq];
      if (p) s += (p >> 3 ? -1 : 1) * VALUE[p & 7];
    }
    return pos.side ? -s : s;
  }

  private negamax(pos: Position, depth: number, alpha: number, beta: number, ply: number, pv: number[]): number {
    if ((++this.nodes & 1023) === 0) {
      if (Date.now() >= this.deadline || (this.control && this.control[0] !== 0)) this.stopped = true;
    }
    if (this.stopped) return 0;
    const start = ply * MAX_MOVES;
    const end = this.src.generate(pos, this.buf, start);
    if (end === start) return pos.inCheck() ? -MATE + ply : 0;
    if (depth === 0 || ply >= MAX_DEPTH) return this.evaluate(pos);
    // Captures first: enough ordering for a stand-in.
    for (let i = start, k = start; i < end; i++) {
      const m = this.buf[i];
      if (pos.board[(m >> 6) & 63] !== 0) { this.buf[i] = this.buf[k]; this.buf[k++] = m; }
    }
    for (let i = start; i < end; i++) {
      const m = this.buf[i];
      const child: number[] = [];
      pos.makeMove(m);
      const v = -this.negamax(pos, depth - 1, -beta, -alpha, ply + 1, child);
      pos.unmakeMove();
      if (this.stopped) return 0;
      if (v > alpha) {
        alpha = v;
        pv.length = 0; pv.push(m, ...child);
        if (alpha >= beta) break;
      }
    }
    return alpha;
  }
}
