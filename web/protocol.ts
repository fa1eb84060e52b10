/** Messages between the page and the engine worker. Moves travel as UCI text. */
import type { BackendName } from '../src/backends.js';

import type { Score } from '../src/core/types.js';

export type ToWorker =
  | { type: 'search'; id: number; startFen: string; moves: string[]; backend: BackendName; weightsUrl: string | null;
      limits: { depth?: number; movetime?: number } }
  | { type: 'newgame' };

export type FromWorker =
  | { type: 'info'; id: number; bound: 'lower' | 'upper' | null; depth: number; score: Score; nodes: number; nps: number; timeMs: number; pv: string[] }
  | { type: 'done'; id: number; bestMove: string; depth: number; score: Score; nodes: number; timeMs: number; pv: string[]; backend: BackendName }
  | { type: 'error'; id: number; message: string };
