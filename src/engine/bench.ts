/**
 * Fixed-depth search of a fixed set of positions with a fresh engine and a fixed hash size.
 * The total node count is deterministic, so it serves as a signature of the search: any change
 * to search or evaluation that alters the tree changes it.
 */
import { Position } from '../core/position.js';
import { Engine } from './engine.js';
import type { NnueEvaluator } from './nnue/evaluator.js';

/** Openings, middlegames and endgames of different character (both sides to move). */
export const BENCH_FENS: readonly string[] = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3',
  'rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6',
  'rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
  '2kr3r/pppq1ppp/2n1bn2/2b1p3/4P3/2NP1N2/PPPBBPPP/R2QK2R w KQ - 4 9',
  'r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10',
  '6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1',
  '8/5k2/8/4PK2/8/8/r7/4R3 w - - 0 1',
  '8/8/1p3k2/p1p5/P1P2K2/1P6/8/8 w - - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  '8/3b4/2k5/p1p1p3/P1P1P3/2K2N2/8/8 w - - 0 1',
  '8/8/8/3k4/8/8/2r5/4KQ2 w - - 0 1',
  '8/P7/8/8/8/8/6kp/K7 w - - 0 1',
];

export const BENCH_DEPTH = 11;
export const BENCH_HASH_MB = 16;

/** The bench with the network `nnue`, or with the classical evaluation when it is null or absent. */
export function runBench(options: { depth?: number; nnue?: NnueEvaluator | null } = {}): {
  nodes: number;
  ms: number;
  nps: number;
  positions: number;
} {
  const depth = options.depth ?? BENCH_DEPTH;
  const engine = new Engine({ hashMb: BENCH_HASH_MB, nnue: options.nnue ?? null });
  let nodes = 0;
  const start = Date.now();
  for (const fen of BENCH_FENS) {
    engine.newGame();
    const pos = Position.fromFen(fen);
    nodes += engine.search(pos, { depth }).nodes;
  }
  const ms = Date.now() - start;
  return { nodes, ms, nps: Math.floor((nodes * 1000) / Math.max(1, ms)), positions: BENCH_FENS.length };
}
