// Shared helpers for the matrix-model tests: a seeded PRNG and random positions reached by random
// legal play from the standard perft suite (so they are legal and varied).
import { Position } from '../src/core/position.js';
import { readPerftEpd, standardSuitePath } from '../scripts/perft-files.js';
import { generateLegalMoves } from '../src/core/movegen.js';

export { rng } from './helpers.js';
import { rng } from './helpers.js';

export interface EpdEntry {
  fen: string;
  counts: number[];
}

/** The standard perft suite with counts indexed by depth. */
export function readSuite(): EpdEntry[] {
  return readPerftEpd(standardSuitePath()).map((c) => {
    const counts: number[] = [];
    for (const [depth, nodes] of c.counts) counts[depth] = nodes;
    return { fen: c.fen, counts };
  });
}

/** Random legal positions: from each start FEN, a random walk of up to maxPlies moves. */
export function randomPositions(count: number, seed: number, maxPlies = 40): string[] {
  const rand = rng(seed);
  const starts = readSuite().map((e) => e.fen);
  const out: string[] = [];
  const moves = new Int32Array(256);
  while (out.length < count) {
    const pos = Position.fromFen(starts[Math.floor(rand() * starts.length)]);
    const plies = Math.floor(rand() * maxPlies);
    for (let i = 0; i < plies; i++) {
      const n = generateLegalMoves(pos, moves, 0);
      if (n === 0) break;
      pos.makeMove(moves[Math.floor(rand() * n)]);
    }
    out.push(pos.toFen());
  }
  return out;
}
