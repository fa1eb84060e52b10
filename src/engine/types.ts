/**
 * The engine's public vocabulary: what a search is asked (limits), what it reports while it
 * runs (info) and what it returns (result). UCI and CLI code against exactly these names.
 */

/** Any legal-move producer: the bitboard generator, the matrix model, the BNN backend. */
export type { MoveSource } from '../core/backend.js';
import type { MoveSource } from '../core/backend.js';

export interface SearchLimits {
  depth?: number;
  nodes?: number;
  movetime?: number;
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  infinite?: boolean;
  ponder?: boolean;
}

export type Score = { cp: number } | { mate: number };

export interface SearchInfo {
  depth: number;
  seldepth: number;
  multipv: number;
  score: Score;
  bound?: 'lower' | 'upper';
  nodes: number;
  nps: number;
  timeMs: number;
  hashfull: number;
  pv: number[];
}

export interface SearchResult {
  bestMove: number;
  /** 0 if none. */
  ponderMove: number;
  score: Score;
  depth: number;
  nodes: number;
  timeMs: number;
  pv: number[];
}

export interface EngineOptions {
  hashMb?: number;
  moveOverheadMs?: number;
  multiPv?: number;
  moveSource?: MoveSource;
}

export interface SearchHooks {
  onInfo?: (info: SearchInfo) => void;
  /** control[0] !== 0: stop now; control[1] !== 0: ponderhit happened. May live in a SharedArrayBuffer. */
  control?: Int32Array;
}
