/**
 * Search margins and switches in one place, per engine instance, so that versions can be
 * compared in-process (A/B self-play) and tuned. Call engine.paramsChanged() after edits. The
 * eleven margins `tune spsa` tunes by default (SPSA_DEFAULT_PARAMS) are its θ after 5,224 pairs
 * with the shipped network (data/spsa/margins-8000n-s1.json, docs/strength.md).
 */
export class SearchParams {
  aspirationDelta = 17;
  rfpDepth = 7;
  rfpMargin = 69;
  nullMinDepth = 3;
  nullVerifyDepth = 10;
  razorMargin = 101;
  iirDepth = 4;
  lmpDepth = 8;
  lmpBase = 3;
  futilityBase = 135;
  futilityMult = 112;
  seeQuietMult = 35;
  seeCaptureMult = 88;
  /** Late-move reduction = (base + ln(depth)·ln(moves) / divisor), both in hundredths (integers, for UCI spin options). */
  lmrBaseHundredths = 57;
  lmrDivisorHundredths = 239;
  lmrHistoryDiv = 9067;
  qsDeltaMargin = 206;
  continuationHistory = true;
  lmpKeepsChecks = true;
  /** Singular extensions: a hash move that alone holds the score is searched one ply deeper. */
  singularExtension = true;
  singularMinDepth = 8;
  /** Continuation history also from the move two plies back (the side to move's own previous move); needs continuationHistory. */
  followupHistory = true;
  /** Capture history orders captures of the same victim by how often they refuted their node. */
  captureHistory = true;
  /** Correction history: the static evaluation is corrected by what searches of the same pawn structure found. */
  correctionHistory = true;
  /** Late captures get a late-move reduction too: the table's less one (less two if SEE ≥ 0), more or less by capture history. */
  captureReductions = true;
  /** captureReductions: a capture's reduction falls by one ply per this much capture history (negative history: rises). */
  captureLmrHistoryDiv = 6000;
  /** Late quiet moves at non-PV nodes whose history (main plus continuation) is below −historyPruneMargin·depth are skipped. */
  historyPruning = true;
  /** historyPruning: only where the reduced depth (depth − 1 − the late-move reduction) is at most this. */
  historyPruneDepth = 4;
  /**
   * historyPruning: the history threshold per ply of depth. This engine's histories are small
   * (bonus depth² + depth; Stockfish's thresholds are near 4000): where this pruning would look,
   * in a self-played game at depth 10, history / depth is below −20 for 11% of quiet moves, below
   * −30 for 6%, below −50 for 1.6%.
   */
  historyPruneMargin = 25;
  /** Continuation history also from the move four plies back (the side to move's move before last); needs continuationHistory. */
  contHistory4 = true;
  /**
   * Which time manager (timeman.ts): 1, the clock's manager (computeClockBudget, the soft limit
   * scaled by softLimitScale after each iteration); 0, the one before it (computeTimeBudget over
   * `timeHorizonMoves`, the soft limit scaled 0.6 / 0.8 / 1.2 by the best move's stability), kept
   * so one build can play one against the other.
   */
  timeManagement = 1;
  /** Manager 0: the clock is shared over this many moves when no `movestogo` comes. */
  timeHorizonMoves = 20;
  /** Both managers: no new iteration starts past this percentage of the scaled soft limit. */
  timeSoftPercent = 70;
  /** Manager 1: the clock and the increments to come are shared over this many moves at move 1… */
  timeHorizonStart = 32;
  /** …one fewer every two moves, down to this many. */
  timeHorizonEnd = 12;
  /** Manager 1: the soft limit never passes this percentage of the clock, so the clock settles at a few increments once the base time is spent. */
  timeClockPercent = 25;
  /** Manager 1, node effort: the soft limit scales by this / 100 − the best move's share of the iteration's nodes. */
  timeNodeBasePercent = 160;
  /** Manager 1, falling score: a score this many centipawns below the earlier iterations' average earns 50% more time. */
  timeFallingCp = 50;
  /** Manager 1, stability: the scale for a best move that has not changed for many iterations, percent… */
  timeStableBasePercent = 80;
  /** …plus this much per recent change of best move (changes halve each iteration). */
  timeUnstablePercent = 60;
}

export type SearchParamName = keyof SearchParams;
export type NumericSearchParam = { [K in SearchParamName]: SearchParams[K] extends number ? K : never }[SearchParamName];

/**
 * The range each numeric search parameter may take (UCI spin options, `uci --tunables`): wide
 * enough to tune, narrow enough that no value breaks the search (divisors stay positive, depths
 * stay below MAX_PLY).
 */
export const SEARCH_PARAM_RANGES: Record<NumericSearchParam, readonly [min: number, max: number]> = {
  aspirationDelta: [5, 200],
  rfpDepth: [0, 16],
  rfpMargin: [0, 400],
  nullMinDepth: [1, 16],
  nullVerifyDepth: [1, 64],
  razorMargin: [0, 1000],
  iirDepth: [1, 64],
  lmpDepth: [0, 16],
  lmpBase: [0, 32],
  futilityBase: [0, 500],
  futilityMult: [0, 500],
  seeQuietMult: [0, 300],
  seeCaptureMult: [0, 500],
  lmrBaseHundredths: [0, 300],
  lmrDivisorHundredths: [50, 1000],
  lmrHistoryDiv: [500, 64000],
  qsDeltaMargin: [0, 1000],
  captureLmrHistoryDiv: [500, 64000],
  historyPruneDepth: [0, 16],
  historyPruneMargin: [0, 4000],
  singularMinDepth: [4, 64], // the verification search runs at (depth − 1) / 2: at least one ply
  timeManagement: [0, 1],
  timeHorizonMoves: [2, 60],
  timeSoftPercent: [10, 300],
  timeHorizonStart: [2, 100],
  timeHorizonEnd: [2, 100],
  timeClockPercent: [5, 50],
  timeNodeBasePercent: [100, 200], // the factor stays within [0.5, 1.5] whatever the share
  timeFallingCp: [5, 1000],
  timeStableBasePercent: [20, 200],
  timeUnstablePercent: [0, 200],
};
