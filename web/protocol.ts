/** Messages between the page and the engine worker. Moves travel as UCI text. */
import type { BackendName } from '../src/backends.js';

import type { Score } from '../src/core/types.js';
import type { GameAnalysis } from '../src/analysis/analyse-game.js';

/** Where the build put the network and its WebAssembly kernel (relative to the page). */
export interface NnueUrls {
  net: string;
  wasm: string;
}

export type ToWorker =
  | {
      type: 'search';
      id: number;
      startFen: string;
      moves: string[];
      /** Chess960: castles king-takes-own-rook in `moves` and in the answers. */
      chess960: boolean;
      backend: BackendName;
      weightsUrl: string | null;
      /** The evaluation network to play with (fetched by the worker), or null for the classical evaluation. */
      nnue: NnueUrls | null;
      limits: SearchRequestLimits;
    }
  | {
      /** Game analysis (src/analysis/analyse-game.ts) of one PGN game, `nodes` per position. */
      type: 'analyse';
      id: number;
      pgn: string;
      nodes: number;
      backend: BackendName;
      weightsUrl: string | null;
      nnue: NnueUrls | null;
    }
  | { type: 'newgame' }
  /** A UCI `setoption name … value …` line, read by src/uci's parser and applied to the worker's engine. */
  | { type: 'setoption'; line: string };

/** Depth or time per move from the Strength setting, or the clocks (UCI's go wtime/btime/winc/binc). */
export interface SearchRequestLimits {
  depth?: number;
  movetime?: number;
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
}

export type FromWorker =
  | {
      type: 'info';
      id: number;
      bound: 'lower' | 'upper' | null;
      depth: number;
      score: Score;
      nodes: number;
      nps: number;
      timeMs: number;
      pv: string[];
    }
  | {
      type: 'done';
      id: number;
      bestMove: string;
      depth: number;
      score: Score;
      nodes: number;
      timeMs: number;
      pv: string[];
      backend: BackendName;
      evaluation: string;
      /** Search threads (more than 1 only where the page is cross-origin isolated). */
      threads: number;
    }
  | { type: 'analysis-progress'; id: number; searched: number; total: number }
  | { type: 'analysis'; id: number; analysis: GameAnalysis }
  | { type: 'error'; id: number; message: string }
  /** The worker's answer to a setoption: `info string …` when it was refused or is not applied. */
  | { type: 'option'; line: string; ok: boolean };
