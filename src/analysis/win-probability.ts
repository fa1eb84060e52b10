/**
 * Lichess's move judgements and accuracy, on evaluations from white's point of view: winning
 * chances from centipawns, the inaccuracy/mistake/blunder thresholds, per-move accuracy and the
 * game accuracy (volatility-weighted and harmonic mean). Constants and rules as in lila
 * (modules/tree Advice.scala, modules/analyse AccuracyPercent.scala, AccuracyCP.scala) and
 * scalachess (eval.scala); docs/analysis.md gives the formulas.
 */
import type { Score } from '../core/types.js';

/** Lichess's logistic fit of game results on centipawns (lila PR #11148). */
export const WIN_MULTIPLIER = 0.00368208;
/** Evaluations count as at most ±10 pawns; a mate counts as the ceiling with its sign. */
export const CP_CEILING = 1000;

export type Judgement = 'inaccuracy' | 'mistake' | 'blunder';
/** Loss of winning chances (on the −1..+1 scale) from which a move is judged, worst first. */
export const JUDGEMENT_THRESHOLDS: ReadonlyArray<readonly [number, Judgement]> = [
  [0.3, 'blunder'],
  [0.2, 'mistake'],
  [0.1, 'inaccuracy'],
];
export const JUDGEMENT_NAG: Readonly<Record<Judgement, string>> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** A score as ceiled centipawns from the same point of view; a mate counts as the ceiling with its sign. */
export function scoreToCp(s: Score): number {
  if ('mate' in s) return s.mate > 0 ? CP_CEILING : -CP_CEILING;
  return Math.max(-CP_CEILING, Math.min(CP_CEILING, s.cp));
}

/** Winning chances in −1..+1 for the side whose centipawns these are. */
export function winningChances(cp: number): number {
  return 2 / (1 + Math.exp(-WIN_MULTIPLIER * cp)) - 1;
}

/** Win% (0..100) = 50 + 50·winningChances(cp). */
export function winPercent(cp: number): number {
  return 50 + 50 * winningChances(cp);
}

/** Lichess's judgement of a move that took the mover from `cpBefore` to `cpAfter` (mover's view, ceiled). */
export function judgeMove(cpBefore: number, cpAfter: number): Judgement | undefined {
  const loss = winningChances(cpBefore) - winningChances(cpAfter);
  for (const [threshold, judgement] of JUDGEMENT_THRESHOLDS) if (loss >= threshold) return judgement;
  return undefined;
}

/** Lichess's move accuracy from the mover's win% before and after, 0..100 (with its +1 "uncertainty bonus"). */
export function moveAccuracy(winBefore: number, winAfter: number): number {
  if (winAfter >= winBefore) return 100;
  const raw = 103.1668100711649 * Math.exp(-0.04354415386753951 * (winBefore - winAfter)) - 3.166924740191411 + 1;
  return Math.max(0, Math.min(100, raw));
}

function standardDeviation(xs: number[]): number {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - mean) * (x - mean), 0) / xs.length);
}

export interface SideAccuracy {
  /** Lichess's game accuracy: the mean of the volatility-weighted mean and the harmonic mean of the move accuracies. */
  accuracy: number;
  /** Average centipawn loss (ceiled at ±1000, never negative per move). */
  acpl: number;
}

/**
 * Game accuracy per side, as lichess computes it. `cps` are white-view centipawns of every
 * position, the start first (ceiled here); `whiteStarts` says who made the first move. A side
 * without moves gets NaN.
 */
export function gameAccuracy(cps: readonly number[], whiteStarts: boolean): { white: SideAccuracy; black: SideAccuracy } {
  const ceiled = cps.map((c) => Math.max(-CP_CEILING, Math.min(CP_CEILING, c)));
  const wins = ceiled.map(winPercent);
  const moves = wins.length - 1;
  const windowSize = Math.max(2, Math.min(8, Math.floor(moves / 10)));
  // Windows of win% around each move: the first ones repeat the opening window (as lila does).
  const windows: number[][] = [];
  for (let i = 0; i < Math.min(windowSize, wins.length) - 2; i++) windows.push(wins.slice(0, windowSize));
  for (let i = 0; i + windowSize <= wins.length; i++) windows.push(wins.slice(i, i + windowSize));
  if (wins.length < windowSize && wins.length >= 2) windows.push(wins.slice());
  const sums = { white: { w: 0, wa: 0, inv: 0, n: 0, loss: 0 }, black: { w: 0, wa: 0, inv: 0, n: 0, loss: 0 } };
  for (let i = 0; i < moves; i++) {
    const whiteMoved = (i % 2 === 0) === whiteStarts;
    const sign = whiteMoved ? 1 : -1;
    const before = whiteMoved ? wins[i] : 100 - wins[i];
    const after = whiteMoved ? wins[i + 1] : 100 - wins[i + 1];
    const acc = moveAccuracy(before, after);
    const weight = Math.max(0.5, Math.min(12, windows[i] ? standardDeviation(windows[i]) : 0.5));
    const s = whiteMoved ? sums.white : sums.black;
    s.w += weight;
    s.wa += weight * acc;
    s.inv += 1 / Math.max(1, acc);
    s.n++;
    s.loss += Math.max(0, sign * (ceiled[i] - ceiled[i + 1]));
  }
  const side = (s: typeof sums.white): SideAccuracy =>
    s.n === 0 ? { accuracy: NaN, acpl: NaN } : { accuracy: (s.wa / s.w + s.n / s.inv) / 2, acpl: s.loss / s.n };
  return { white: side(sums.white), black: side(sums.black) };
}
