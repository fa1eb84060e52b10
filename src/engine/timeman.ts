/**
 * Time management: turns UCI limits into a soft limit (do not start another iteration past it)
 * and a hard limit (abort the search), both in milliseconds from the moment timing starts.
 * The hard limit never exceeds the remaining clock minus the move overhead.
 */
import type { SearchLimits } from './types.js';

export interface TimeBudget {
  /** Whether the clock limits apply at all (false for depth/nodes/infinite searches). */
  timed: boolean;
  softMs: number;
  hardMs: number;
}

/**
 * @param horizonMoves how many moves the remaining clock is shared over when the GUI sends no
 *   `movestogo` (sudden death, with or without increment): smaller spends more on early moves
 *   (SearchParams.timeHorizonMoves).
 */
export function computeTimeBudget(limits: SearchLimits, side: number, moveOverheadMs: number, horizonMoves: number): TimeBudget {
  if (limits.movetime !== undefined && limits.movetime > 0) {
    const t = Math.max(1, limits.movetime - moveOverheadMs);
    return { timed: true, softMs: t, hardMs: t };
  }
  const time = side === 0 ? limits.wtime : limits.btime;
  if (time === undefined) return { timed: false, softMs: Infinity, hardMs: Infinity };
  const inc = Math.max(0, (side === 0 ? limits.winc : limits.binc) ?? 0);
  const available = Math.max(1, time - moveOverheadMs);
  const mtg = limits.movestogo !== undefined && limits.movestogo > 0 ? Math.min(limits.movestogo, 40) : horizonMoves;
  let soft: number, hard: number;
  if (mtg === 1) {
    // Last move before the time control: use most of it, but keep a margin.
    soft = available * 0.5;
    hard = available * 0.85;
  } else {
    soft = available / mtg + inc * 0.75;
    hard = Math.min(soft * 5, available * 0.6);
    // A generous increment can make soft exceed what is safe.
    soft = Math.min(soft, hard);
  }
  return { timed: true, softMs: Math.max(1, Math.floor(soft)), hardMs: Math.max(1, Math.floor(hard)) };
}
