/**
 * Time management: turns UCI limits into a soft limit (do not start another iteration past it)
 * and a hard limit (abort the search), both in milliseconds from the moment timing starts, and
 * scales the soft limit after each iteration by how the search is going (softLimitScale). Two
 * managers, chosen by SearchParams.timeManagement so that one build can play one against the
 * other: 0, computeTimeBudget, the clock shared over a fixed horizon and the soft limit scaled in
 * three steps by the best move's stability; 1 (the default), computeClockBudget, which counts the
 * increments to come and spends the base time, with softLimitScale's three factors.
 * The hard limit never exceeds the remaining clock minus the move overhead.
 */
import type { SearchLimits } from './types.js';
import type { SearchParams } from './search-params.js';

export interface TimeBudget {
  /** Whether the clock limits apply at all (false for depth/nodes/infinite searches). */
  timed: boolean;
  softMs: number;
  hardMs: number;
}

/** The hard limit's multiple of the soft limit, and its share of the remaining clock (both managers). */
const HARD_SOFT_MULTIPLE = 5;
const HARD_CLOCK_SHARE = 0.6;

/**
 * The budget of manager 0, and of `movetime` and `movestogo` for both.
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
    hard = Math.min(soft * HARD_SOFT_MULTIPLE, available * HARD_CLOCK_SHARE);
    // A generous increment can make soft exceed what is safe.
    soft = Math.min(soft, hard);
  }
  return { timed: true, softMs: Math.max(1, Math.floor(soft)), hardMs: Math.max(1, Math.floor(hard)) };
}

/** The fields of SearchParams the time managers read. */
export type ClockParams = Pick<
  SearchParams,
  | 'timeManagement'
  | 'timeHorizonMoves'
  | 'timeHorizonStart'
  | 'timeHorizonEnd'
  | 'timeClockPercent'
  | 'timeNodeBasePercent'
  | 'timeFallingCp'
  | 'timeStableBasePercent'
  | 'timeUnstablePercent'
>;

/**
 * The budget of the time manager `params.timeManagement` chooses: 0, computeTimeBudget over
 * `timeHorizonMoves`; 1, the same for `movetime`, `movestogo` and searches without a clock, and
 * for sudden death (with or without increment):
 * - the increments to come count: the clock plus the next H − 1 increments, each less the move
 *   overhead it will cost, is shared over H moves, so the soft limit is a move's share of all the
 *   time it has rather than of the clock alone;
 * - with an increment left after the move overhead, H shrinks as the game goes on, from
 *   `timeHorizonStart` at move 1 by one every two moves to `timeHorizonEnd`, so the base time is
 *   spent by the middle of the game instead of being kept; without one there is nothing to live
 *   on once the clock is spent, and H stays `timeHorizonStart`;
 * - the soft limit never passes `timeClockPercent` of the clock: once the base time is spent the
 *   engine lives on the increment instead of keeping a reserve it never spends (270 games at
 *   10+0.1: a median 1.6 s left at the end, manager 0 2.1 s).
 * The hard limit is manager 0's: five soft limits, never more than 60% of the clock left after
 * the move overhead. `fullmove` is the position's move number (its FEN's, counted on).
 */
export function computeClockBudget(
  limits: SearchLimits,
  side: number,
  moveOverheadMs: number,
  params: ClockParams,
  fullmove: number,
): TimeBudget {
  const time = side === 0 ? limits.wtime : limits.btime;
  const movetime = limits.movetime !== undefined && limits.movetime > 0;
  const movestogo = limits.movestogo !== undefined && limits.movestogo > 0;
  if (params.timeManagement === 0 || time === undefined || movetime || movestogo)
    return computeTimeBudget(limits, side, moveOverheadMs, params.timeHorizonMoves);
  const inc = Math.max(0, (side === 0 ? limits.winc : limits.binc) ?? 0);
  const available = Math.max(1, time - moveOverheadMs);
  const netInc = Math.max(0, inc - moveOverheadMs);
  const movesPlayed = Math.floor((Math.max(1, fullmove) - 1) / 2);
  const horizon = netInc > 0 ? Math.max(params.timeHorizonEnd, params.timeHorizonStart - movesPlayed) : params.timeHorizonStart;
  const spendable = available + (horizon - 1) * netInc;
  let soft = Math.min(spendable / horizon, (available * params.timeClockPercent) / 100);
  const hard = Math.min(soft * HARD_SOFT_MULTIPLE, available * HARD_CLOCK_SHARE);
  soft = Math.min(soft, hard);
  return { timed: true, softMs: Math.max(1, Math.floor(soft)), hardMs: Math.max(1, Math.floor(hard)) };
}

/** What the iterative deepening knows after an iteration, for manager 1's soft-limit scale. */
export interface IterationTimeInfo {
  /** The share of the iteration's root nodes searched under its best move, 0…1. */
  bestMoveNodeShare: number;
  /** The previous iterations' average best score less this iteration's, centipawns (> 0: falling). */
  scoreDropCp: number;
  /**
   * How unsettled the best move is: each iteration halves it and a change of best move adds one
   * (0: the same move for many iterations; 1 just after a change; towards 2 when it changes
   * every iteration).
   */
  bestMoveChanges: number;
}

/** Each factor's bounds (stability's upper one apart) and the product's; the hard limit bounds it again. */
const FACTOR_MIN = 0.5,
  FACTOR_MAX = 1.5,
  STABILITY_MAX = 2,
  SCALE_MIN = 0.25,
  SCALE_MAX = 3;

const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

/**
 * Manager 1's scale of the soft limit after an iteration: the product of three factors, clamped
 * to 0.25–3 (the iterative deepening caps soft × scale at the hard limit too). With the
 * defaults a typical search's product is near 1, so the soft limit is about what a move spends:
 * - node effort, `timeNodeBasePercent` / 100 − share, within 0.5–1.5: a best move that took
 *   nearly all the nodes had no rival worth a full search, one that took few had close rivals
 *   (0.6 at share 1 and 1 at share 0.6, the median, with the default 160);
 * - falling score, 1 + drop / (2 · `timeFallingCp`), within 0.5–1.5: a score `timeFallingCp`
 *   below the previous four iterations' average earns 50% more, one as far above it 50% less;
 * - stability, (`timeStableBasePercent` + `timeUnstablePercent` · changes) / 100, within
 *   0.5–2: 0.8 for a best move that has not changed in many iterations, 1.4 just after a
 *   change, towards 2 when it changes every iteration (manager 0's steps 0.6 / 0.8 / 1.2, smooth).
 */
export function softLimitScale(info: IterationTimeInfo, params: ClockParams): number {
  const share = clamp(info.bestMoveNodeShare, 0, 1);
  const effort = clamp(params.timeNodeBasePercent / 100 - share, FACTOR_MIN, FACTOR_MAX);
  const falling = clamp(1 + info.scoreDropCp / (2 * params.timeFallingCp), FACTOR_MIN, FACTOR_MAX);
  const changes = Math.max(0, info.bestMoveChanges);
  const stability = clamp((params.timeStableBasePercent + params.timeUnstablePercent * changes) / 100, FACTOR_MIN, STABILITY_MAX);
  return clamp(effort * falling * stability, SCALE_MIN, SCALE_MAX);
}
