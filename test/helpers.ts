/** Shared test helpers: a seeded random number generator and the perft suite's positions. */
import { readPerftEpd, standardSuitePath } from '../scripts/perft-files.js';
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

/** The same position with colours swapped and the board mirrored top to bottom. */
export function mirrorFen(fen: string): string {
  const [placement, side, castling, ep, half = '0', full = '1'] = fen.split(' ');
  const swapCase = (s: string) => s.replace(/[a-zA-Z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
  const ranks = placement.split('/').reverse().map(swapCase).join('/');
  let cas = castling === '-' ? '-' : swapCase(castling);
  if (cas !== '-') cas = ['K', 'Q', 'k', 'q'].filter((c) => cas.includes(c)).join('');
  const epm = ep === '-' ? '-' : ep[0] + (9 - Number(ep[1]));
  return `${ranks} ${side === 'w' ? 'b' : 'w'} ${cas} ${epm} ${half} ${full}`;
}
