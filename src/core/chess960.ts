/**
 * Chess960 start positions by the standard (Scharnagl) numbering 0..959: number 518 is the
 * classical start. The digits of N in the mixed radix 4·4·6·10 place the light-squared bishop,
 * the dark-squared bishop, the queen and the knight pair; king and rooks take the last three
 * files as R K R, so the king is always between its rooks.
 */
import { FenError } from './fen.js';

export const CHESS960_POSITIONS = 960;
/** The classical start's number. */
export const CLASSICAL_CHESS960_INDEX = 518;

/** Knight pairs on the five files left after bishops and queen (index = the digit 0..9). */
const KNIGHT_PAIRS: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, 2],
  [0, 3],
  [0, 4],
  [1, 2],
  [1, 3],
  [1, 4],
  [2, 3],
  [2, 4],
  [3, 4],
];

/** The back rank of start position `n` as white piece letters, a-file first (518: RNBQKBNR). */
export function chess960BackRank(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= CHESS960_POSITIONS)
    throw new FenError('position', `Chess960 start position number must be a whole number from 0 to 959, got ${String(n)}`);
  const rank: string[] = new Array<string>(8).fill('');
  rank[2 * (n % 4) + 1] = 'B'; // light squares: b, d, f, h
  rank[2 * (Math.floor(n / 4) % 4)] = 'B'; // dark squares: a, c, e, g
  const free = (): number[] => rank.flatMap((p, f) => (p === '' ? [f] : []));
  rank[free()[Math.floor(n / 16) % 6]] = 'Q';
  const [k1, k2] = KNIGHT_PAIRS[Math.floor(n / 96)];
  const afterQueen = free();
  rank[afterQueen[k1]] = 'N';
  rank[afterQueen[k2]] = 'N';
  const [r1, k, r2] = free();
  rank[r1] = 'R';
  rank[k] = 'K';
  rank[r2] = 'R';
  return rank.join('');
}

/** The FEN of Chess960 start position `n` (X-FEN castling, which is KQkq for every start). */
export function chess960StartFen(n: number): string {
  const white = chess960BackRank(n);
  return `${white.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${white} w KQkq - 0 1`;
}
