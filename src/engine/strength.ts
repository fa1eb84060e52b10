/**
 * Playing strength by Elo (UCI_LimitStrength, UCI_Elo). A weaker level is not a strong engine
 * that blunders at random: it searches less (a node budget, and at the bottom a depth cap, so it
 * misses what is deep, as a weaker player does), looks at a few candidate moves (MultiPV) and
 * picks among them by a softmax over their scores with a temperature, never one that loses more
 * than the level's cap against the best it saw. The mapping is a small table of anchor levels,
 * set by calibration against Stockfish 15.1's UCI_Elo (docs/strength.md, "Levels by Elo"),
 * interpolated in between: nodes geometrically, the rest linearly.
 */
import type { Sfc32 } from '../core/rng.js';
import type { SearchLimits } from './types.js';
import { MATE_BOUND } from './score.js';

/** The lowest level. */
export const STRENGTH_ELO_MIN = 800;
/** The level that means full strength: here and above nothing is limited. */
export const STRENGTH_ELO_MAX = 2400;

/** What a level plays with. */
export interface StrengthLevel {
  elo: number;
  /** Node budget per move (Infinity: none). */
  nodes: number;
  /** Candidate moves searched as MultiPV lines. */
  multiPv: number;
  /** Softmax temperature in centipawns: a line `d` cp worse than the best weighs exp(−d/T) as much (0: always the best). */
  temperatureCp: number;
  /** A line more than this many centipawns worse than the best is never chosen. */
  maxLossCp: number;
  /** Depth cap (Infinity: none). */
  maxDepth: number;
}

/** The calibrated anchors, weakest first; STRENGTH_ELO_MAX is full strength. */
export const STRENGTH_ANCHORS: readonly StrengthLevel[] = [
  { elo: 800, nodes: 60, multiPv: 6, temperatureCp: 180, maxLossCp: 600, maxDepth: 2 },
  { elo: 1000, nodes: 122, multiPv: 5, temperatureCp: 130, maxLossCp: 425, maxDepth: 2 },
  { elo: 1400, nodes: 670, multiPv: 4, temperatureCp: 68, maxLossCp: 225, maxDepth: 4 },
  { elo: 1800, nodes: 2640, multiPv: 3, temperatureCp: 40, maxLossCp: 120, maxDepth: Infinity },
  { elo: 2200, nodes: 80000, multiPv: 2, temperatureCp: 8, maxLossCp: 25, maxDepth: Infinity },
  { elo: STRENGTH_ELO_MAX, nodes: Infinity, multiPv: 1, temperatureCp: 0, maxLossCp: 0, maxDepth: Infinity },
];

/** A UCI_Elo / `elo` value that is not a whole number in [STRENGTH_ELO_MIN, STRENGTH_ELO_MAX]. */
export class StrengthError extends RangeError {
  constructor(readonly value: unknown) {
    super(`elo: expected a whole number from ${STRENGTH_ELO_MIN} to ${STRENGTH_ELO_MAX}, got ${String(value)}`);
    this.name = 'StrengthError';
  }
}

/** Checks an Elo value; throws StrengthError if it is not a whole number in range. */
export function checkElo(elo: number): number {
  if (typeof elo !== 'number' || !Number.isInteger(elo) || elo < STRENGTH_ELO_MIN || elo > STRENGTH_ELO_MAX) throw new StrengthError(elo);
  return elo;
}

/** The level at `elo` (STRENGTH_ELO_MIN..STRENGTH_ELO_MAX), interpolated between the two anchors around it. */
export function strengthLevel(elo: number, anchors: readonly StrengthLevel[] = STRENGTH_ANCHORS): StrengthLevel {
  checkElo(elo);
  let i = 0;
  while (i < anchors.length - 2 && elo > anchors[i + 1].elo) i++;
  const a = anchors[i],
    b = anchors[i + 1];
  if (elo <= a.elo) return { ...a, elo };
  if (elo >= b.elo) return { ...b, elo };
  const t = (elo - a.elo) / (b.elo - a.elo);
  const lin = (x: number, y: number): number => x + (y - x) * t;
  // Full strength has no budget: the last step runs up to ten times the anchor below's nodes.
  const bNodes = Number.isFinite(b.nodes) ? b.nodes : a.nodes * 10;
  const nodes = Math.round(a.nodes * Math.pow(bNodes / a.nodes, t));
  // Towards an anchor without a depth cap, the cap grows by up to four plies.
  const maxDepth = !Number.isFinite(a.maxDepth)
    ? Infinity
    : Number.isFinite(b.maxDepth)
      ? Math.round(lin(a.maxDepth, b.maxDepth))
      : Math.round(a.maxDepth + 4 * t);
  return {
    elo,
    nodes,
    multiPv: Math.round(lin(a.multiPv, b.multiPv)),
    temperatureCp: lin(a.temperatureCp, b.temperatureCp),
    maxLossCp: lin(a.maxLossCp, b.maxLossCp),
    maxDepth,
  };
}

/** Whether a level limits anything (false at full strength). */
export function isLimited(level: StrengthLevel): boolean {
  return level.elo < STRENGTH_ELO_MAX;
}

/**
 * The share of the clock a limited level lets the time manager see. Its strength comes from the
 * node budget, not from the clock: a weaker level keeps half its time in reserve, so that a
 * level whose budget is slow on a busy machine plays faster instead of losing on time (the
 * 2200 level, with the whole clock, lost 5 of 100 games at 10+0.1 in its first calibration).
 */
export const STRENGTH_CLOCK_SHARE = 0.5;

/**
 * The time manager a limited level searches with (SearchParams.timeManagement's values): 0, the
 * one its levels were calibrated with. The clock's manager (1) may stop a search well before the
 * node budget when the best move is settled, which would make a level weaker than its name.
 */
export const STRENGTH_TIME_MANAGER = 0;

/**
 * The limits a level searches with: the caller's, with the level's node budget and depth cap on
 * top, and the remaining clock times STRENGTH_CLOCK_SHARE (increments and movetime unchanged).
 */
export function levelLimits(limits: SearchLimits, level: StrengthLevel): SearchLimits {
  const capped: SearchLimits = { ...limits };
  if (Number.isFinite(level.nodes)) capped.nodes = Math.min(limits.nodes ?? Infinity, level.nodes);
  if (Number.isFinite(level.maxDepth)) capped.depth = Math.min(limits.depth ?? Infinity, level.maxDepth);
  if (isLimited(level)) {
    if (limits.wtime !== undefined) capped.wtime = Math.floor(limits.wtime * STRENGTH_CLOCK_SHARE);
    if (limits.btime !== undefined) capped.btime = Math.floor(limits.btime * STRENGTH_CLOCK_SHARE);
  }
  return capped;
}

/** A candidate: a root move and its score from the side to move, in the search's units (centipawns, or mates). */
export interface CandidateLine {
  move: number;
  score: number;
}

/** Mates count as a large but finite score, so that a softmax over them stays finite. */
function cappedScore(score: number): number {
  if (score >= MATE_BOUND) return 10_000 + (score - MATE_BOUND);
  if (score <= -MATE_BOUND) return -10_000 + (score + MATE_BOUND);
  return score;
}

/**
 * The index of the line a level plays, among `lines` (best first, as the search sorts them):
 * a softmax over the scores with the level's temperature, drawn with `rng`, among the lines
 * within the level's loss cap of the best. -1 if `lines` is empty.
 */
export function chooseLine(lines: readonly CandidateLine[], level: StrengthLevel, rng: Sfc32): number {
  if (lines.length === 0) return -1;
  let bestIdx = 0;
  for (let i = 1; i < lines.length; i++) if (lines[i].score > lines[bestIdx].score) bestIdx = i;
  if (level.temperatureCp <= 0 || lines.length === 1) return bestIdx;
  const best = cappedScore(lines[bestIdx].score);
  const weights = lines.map((l) => {
    const loss = best - cappedScore(l.score);
    return loss > level.maxLossCp ? 0 : Math.exp(-loss / level.temperatureCp);
  });
  const total = weights.reduce((s, w) => s + w, 0);
  let r = rng.nextFloat() * total;
  for (let i = 0; i < lines.length; i++) {
    if (weights[i] === 0) continue;
    r -= weights[i];
    if (r < 0) return i;
  }
  return bestIdx;
}
