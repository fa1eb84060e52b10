/**
 * The engine's public vocabulary: what a search is asked (limits), what it reports while it
 * runs (info) and what it returns (result). UCI and CLI code against exactly these names.
 */
import type { NnueEvaluator } from './nnue/evaluator.js';
import type { LegalMoveGenerator } from '../core/backend.js';
import type { SpawnHelper } from './smp.js';

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
  /**
   * Stops the search at its next node check once aborted (the result is the best move so far).
   * A synchronous search holds its thread: only a hook can abort it then (no timer runs).
   */
  signal?: AbortSignal;
}

import type { Score } from '../core/types.js';
export type { Score };

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
  /** With helper threads (Threads > 1): the part of `nodes` they searched (the rest is this thread's). */
  helperNodes?: number;
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
  /** With helper threads (Threads > 1): the part of `nodes` they searched. */
  helperNodes?: number;
  /**
   * With MultiPV above 1: the lines' first moves and scores in the search's units (centipawns,
   * or MATE minus plies), best first; a line the last iteration did not reach keeps the one before's.
   */
  lines?: { move: number; score: number; pv: number[] }[];
}

export interface EngineOptions {
  hashMb?: number;
  moveOverheadMs?: number;
  multiPv?: number;
  /** The backend that lists moves (default: the bitboard core). */
  moveGenerator?: LegalMoveGenerator;
  /** The learned evaluation (src/engine/nnue/load.ts); absent or null: the classical evaluation. */
  nnue?: NnueEvaluator | null;
  /** Search threads in all (Lazy SMP, default 1); more than 1 needs `spawnHelper`. */
  threads?: number;
  /** Starts a helper thread: spawnNodeHelper (src/engine/smp-node.ts) on Node. */
  spawnHelper?: SpawnHelper;
  /** Play at `elo` (strength.ts) instead of full strength (default false). */
  limitStrength?: boolean;
  /** The level when `limitStrength` is on: a whole number from 800 to 2400 (full strength), default 2400. */
  elo?: number;
  /** Seed of the weakened move choice (default: from the clock), for games that can be replayed. */
  strengthSeed?: number;
}

export interface SearchHooks {
  onInfo?: (info: SearchInfo) => void;
  /** control[0] !== 0: stop now; control[1] !== 0: ponderhit happened. May live in a SharedArrayBuffer. */
  control?: Int32Array;
}
