/**
 * The search's scores: centipawns, or a mate as MATE minus its distance in plies from the root
 * (negated when getting mated); how the transposition table stores a mate (distance from the
 * node instead), and how UCI shows one (in moves).
 */
import type { Score } from './types.js';
import { MAX_PLY } from './ordering.js';

export const MATE = 32000;
/** Scores at or beyond this are mates (found within MAX_PLY plies). */
export const MATE_BOUND = MATE - 2 * MAX_PLY;
/** Beyond every score: the open end of a search window, and a root move's "no score". */
export const INF = 32001;

export function scoreToTt(score: number, ply: number): number {
  return score >= MATE_BOUND ? score + ply : score <= -MATE_BOUND ? score - ply : score;
}
export function scoreFromTt(score: number, ply: number): number {
  return score >= MATE_BOUND ? score - ply : score <= -MATE_BOUND ? score + ply : score;
}
/** Internal score to UCI score: mate in moves (negative when getting mated). */
export function toUciScore(score: number): Score {
  if (score >= MATE_BOUND) return { mate: (MATE - score + 1) >> 1 };
  if (score <= -MATE_BOUND) return { mate: -((MATE + score) >> 1) };
  return { cp: score | 0 }; // | 0: never -0
}
