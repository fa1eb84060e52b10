/** Shared test helpers: a seeded random number generator and the perft suite's positions. */
import { readPerftEpd, standardSuitePath } from '../src/core/perft-epd.js';
import { Sfc32 } from '../src/core/rng.js';

/** Numbers in [0, 1) from the core's seeded generator, to pick moves and positions reproducibly. */
export function rng(seed: number): () => number {
  const stream = new Sfc32(seed);
  return () => stream.nextFloat();
}

/** The FENs of the standard perft suite, in file order. */
export function suiteFens(): string[] {
  return readPerftEpd(standardSuitePath()).map((c) => c.fen);
}
