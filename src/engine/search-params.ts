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
  /**
   * Two more correction tables, by each colour's non-pawn pieces and king (needs
   * correctionHistory): the three corrections add up, and each learns its share of what is left.
   */
  nonPawnCorrection = false;
  /** A move that gives direct check without losing material by exchange is searched one ply deeper. */
  checkExtension = false;
  /** The correction also applies to quiescence search's stand-pat score (needs correctionHistory). */
  qsCorrection = false;
  /** Late captures that lose material by exchange (SEE < 0) are searched one ply shallower first. */
  lmrBadCaptures = false;
  /** Time management: the clock is shared over this many moves when no `movestogo` comes (timeman). */
  timeHorizonMoves = 20;
  /** No new iteration starts past this percentage of the soft limit (scaled by the best move's stability). */
  timeSoftPercent = 70;
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
  singularMinDepth: [4, 64], // the verification search runs at (depth − 1) / 2: at least one ply
  timeHorizonMoves: [2, 60],
  timeSoftPercent: [10, 300],
};
