/** Shared test helpers: a seeded random number generator and the perft suite's positions. */
import { readPerftEpd, standardSuitePath } from '../src/core/perft-epd.js';

/** mulberry32: tiny, fast, good enough to pick moves reproducibly; returns numbers in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The FENs of the standard perft suite, in file order. */
export function suiteFens(): string[] {
  return readPerftEpd(standardSuitePath()).map((c) => c.fen);
}
