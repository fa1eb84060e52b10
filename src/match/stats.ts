/**
 * Match statistics: Elo difference with a 95% confidence interval (from the trinomial
 * per-game variance, or the pentanomial per-pair variance when games are played in
 * colour-reversed pairs), and a generalized SPRT (GSPRT) log-likelihood ratio.
 *
 * All Elo figures are logistic Elo: expected score s = 1 / (1 + 10^(-elo/400)).
 */

/** 1.959964 = the two-sided 95% quantile of the standard normal distribution. */
export const Z95 = 1.959963984540054;

/** Elo difference that gives the expected score `score` (0..1); ±Infinity at the ends. */
export function eloFromScore(score: number): number {
  if (score <= 0) return -Infinity;
  if (score >= 1) return Infinity;
  return 400 * Math.log10(score / (1 - score));
}

/** Expected score for an Elo difference. */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + Math.pow(10, -elo / 400));
}

export interface EloEstimate {
  /** Mean score per game, 0..1. */
  score: number;
  elo: number;
  /** 95% interval bounds in Elo (may be ±Infinity for degenerate samples). */
  low: number;
  high: number;
  /** Standard error of the mean score. */
  stderr: number;
  /** Number of samples the variance came from (games, or pairs for the pentanomial model). */
  samples: number;
}

/**
 * Mean, standard error and Elo interval from samples with scores `values[i]` (0..1) seen
 * `counts[i]` times. The interval is taken on the score and mapped through eloFromScore, so it
 * is asymmetric in Elo as it should be.
 */
function estimate(values: readonly number[], counts: readonly number[]): EloEstimate {
  let n = 0,
    sum = 0;
  for (let i = 0; i < values.length; i++) {
    n += counts[i];
    sum += counts[i] * values[i];
  }
  if (n === 0) return { score: NaN, elo: NaN, low: NaN, high: NaN, stderr: NaN, samples: 0 };
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < values.length; i++) ss += counts[i] * (values[i] - mean) ** 2;
  const stderr = Math.sqrt(ss / n / n); // population variance / n: the usual match estimate
  return {
    score: mean,
    elo: eloFromScore(mean),
    low: eloFromScore(mean - Z95 * stderr),
    high: eloFromScore(mean + Z95 * stderr),
    stderr,
    samples: n,
  };
}

/** Trinomial model: every game is an independent sample (win 1, draw 1/2, loss 0). */
export function eloTrinomial(wins: number, draws: number, losses: number): EloEstimate {
  return estimate([1, 0.5, 0], [wins, draws, losses]);
}

/**
 * Pentanomial model: each colour-reversed game pair is one sample, scored 0, 1/2, 1, 3/2 or 2
 * points (pairs[k] = number of pairs that scored k/2 points). Pairing removes the opening's
 * bias from the variance, so this interval is usually narrower and more honest.
 */
export function eloPentanomial(pairs: readonly number[]): EloEstimate {
  if (pairs.length !== 5) throw new RangeError(`pentanomial needs 5 counts (0, 1/2, 1, 3/2, 2 points), got ${pairs.length}`);
  return estimate([0, 0.25, 0.5, 0.75, 1], pairs);
}

/** Pair points (0..4 in half points) to the pentanomial bucket, from the two game scores 0/0.5/1. */
export function pairBucket(firstScore: number, secondScore: number): number {
  return Math.round((firstScore + secondScore) * 2);
}

export interface SprtConfig {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
}

export interface SprtState {
  llr: number;
  lower: number;
  upper: number;
  /** 'H1' when the LLR crossed the upper bound (elo1 accepted), 'H0' at the lower bound. */
  decision: 'H0' | 'H1' | null;
}

/** Stopping bounds of Wald's SPRT: ln(beta/(1-alpha)) and ln((1-beta)/alpha). */
export function sprtBounds(cfg: SprtConfig): { lower: number; upper: number } {
  return { lower: Math.log(cfg.beta / (1 - cfg.alpha)), upper: Math.log((1 - cfg.beta) / cfg.alpha) };
}

/**
 * Generalized SPRT with the normal approximation: the sample mean score x̄ of N samples is
 * taken as Normal(s, σ²/N) with σ² estimated from the data, so
 *   LLR = N (s1 - s0) (2 x̄ - s0 - s1) / (2 σ²),
 * where s0, s1 are the expected scores of elo0 and elo1 (logistic Elo). With pentanomial
 * counts the samples are game pairs (pair score in 0..1), otherwise single games.
 */
export function sprtLlr(values: readonly number[], counts: readonly number[], cfg: SprtConfig): number {
  let n = 0,
    sum = 0;
  for (let i = 0; i < values.length; i++) {
    n += counts[i];
    sum += counts[i] * values[i];
  }
  if (n < 2) return 0;
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < values.length; i++) ss += counts[i] * (values[i] - mean) ** 2;
  // A zero variance (all samples equal) would make the LLR infinite after two games; a small
  // floor keeps the test from stopping on a lucky start.
  const variance = Math.max(ss / n, 1e-3);
  const s0 = scoreFromElo(cfg.elo0),
    s1 = scoreFromElo(cfg.elo1);
  return (n * (s1 - s0) * (2 * mean - s0 - s1)) / (2 * variance);
}

/**
 * Samples (games, or pairs with pentanomial counts) before the SPRT may decide: its variance is
 * estimated from the data, and a handful of equal results has none, so two lost games once made
 * an LLR of −45 and stopped a match.
 */
export const SPRT_MIN_SAMPLES = 20;

/** SPRT state from W/D/L (trinomial) or, when `pairs` is given, from pentanomial pair counts. */
export function sprt(cfg: SprtConfig, wdl: { wins: number; draws: number; losses: number }, pairs?: readonly number[]): SprtState {
  const pairCount = pairs ? pairs.reduce((a, b) => a + b, 0) : 0;
  const pentanomial = pairCount >= 2;
  const llr = pentanomial ? sprtLlr([0, 0.25, 0.5, 0.75, 1], pairs!, cfg) : sprtLlr([1, 0.5, 0], [wdl.wins, wdl.draws, wdl.losses], cfg);
  const samples = pentanomial ? pairCount : wdl.wins + wdl.draws + wdl.losses;
  const { lower, upper } = sprtBounds(cfg);
  const decision = samples < SPRT_MIN_SAMPLES ? null : llr >= upper ? 'H1' : llr <= lower ? 'H0' : null;
  return { llr, lower, upper, decision };
}

/** "+12.3 ± 45.6" style text; intervals are asymmetric so both ends are shown. */
export function formatElo(e: EloEstimate): string {
  const f = (x: number) => (Number.isFinite(x) ? (x >= 0 ? '+' : '') + x.toFixed(1) : x > 0 ? '+inf' : '-inf');
  if (e.samples === 0) return 'n/a';
  return `${f(e.elo)} [${f(e.low)}, ${f(e.high)}]`;
}
