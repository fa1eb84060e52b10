/**
 * A/B self-play test games: an engine under test and a baseline (each a named variant of search
 * parameters or evaluation weights, optionally its own evaluation parameters or network) play
 * colour-reversed pairs of random short openings at a fixed node budget per move. The pair is the
 * unit: bench/engine-selfplay.ts plays the pairs in process, a `selfplay-pair` job (src/jobs)
 * plays one on whichever machine takes it, and both give the same games.
 */
import { defaultGenerator } from '../../core/movegen.js';
import { moveToUci } from '../../core/move.js';
import { Position } from '../../core/position.js';
import { Sfc32 } from '../../core/rng.js';
import { Engine, evaluate, insufficientMaterial, EVAL_TERMS } from '../../engine/index.js';
import { SEARCH_PARAM_RANGES, type NumericSearchParam, type SearchParams } from '../../engine/search-params.js';
import { UsageError } from '../../cmdline/errors.js';
import { loadNnue } from '../../engine/nnue/load-node.js';
import { checkNetwork } from '../datagen-shard.js';
import { applyEvalParams, currentEvalParams, type EvalParamValues } from '../texel/eval-params-source.js';

interface Variant {
  setup(e: Engine): void;
  weights?(w: Int16Array): void;
}

/** A variant that changes search parameters only (tables derived from them are rebuilt). */
function search(params: Partial<SearchParams>): Variant {
  return {
    setup(e) {
      Object.assign(e.params, params);
      e.paramsChanged();
    },
  };
}

/** Named experiments: each changes the engine under test relative to the baseline. */
const VARIANTS: Record<string, Variant> = {
  base: { setup() {} },
  // The search of November 2026, before the switches measured in December became the default.
  'search-2026-11': search({
    singularExtension: false,
    correctionHistory: false,
    continuationHistory: false,
    followupHistory: false,
    captureHistory: false,
    captureReductions: false,
    historyPruning: false,
    contHistory4: false,
  }),
  'no-singular': search({ singularExtension: false }),
  'no-correction': search({ correctionHistory: false }),
  'no-cont': search({ continuationHistory: false }),
  'no-cont2': search({ followupHistory: false }),
  'no-caphist': search({ captureHistory: false }),
  'no-capture-reductions': search({ captureReductions: false }),
  'no-history-pruning': search({ historyPruning: false }),
  'no-cont-history-4': search({ contHistory4: false }),
  // The search before the history-driven reductions and pruning (Stockfish's ideas) became the default, December 2026.
  'no-history-search': search({ captureReductions: false, historyPruning: false, contHistory4: false }),
  'no-threats': {
    setup() {},
    weights(w) {
      for (const t of [EVAL_TERMS.PAWN_THREAT, EVAL_TERMS.MINOR_THREAT]) {
        w[2 * t] = 0;
        w[2 * t + 1] = 0;
      }
    },
  },
  'no-outpost': {
    setup() {},
    weights(w) {
      w[2 * EVAL_TERMS.OUTPOST] = 0;
      w[2 * EVAL_TERMS.OUTPOST + 1] = 0;
    },
  },
  'no-hanging': {
    setup() {},
    weights(w) {
      w[2 * EVAL_TERMS.HANGING] = 0;
      w[2 * EVAL_TERMS.HANGING + 1] = 0;
    },
  },
  'lmp-prunes-checks': search({ lmpKeepsChecks: false }),
  'no-lmp': search({ lmpDepth: 0 }),
  'rfp-120': search({ rfpMargin: 120 }),
  'rfp-60': search({ rfpMargin: 60 }),
  'lmr-soft': search({ lmrDivisorHundredths: 300 }),
  'lmr-hard': search({ lmrDivisorHundredths: 180 }),
  'no-futility': search({ futilityBase: -10000, futilityMult: 0 }),
  'no-razor': search({ razorMargin: 100000 }),
  'no-see-quiet': search({ seeQuietMult: 100000 }),
  'no-iir': search({ iirDepth: 1000 }),
  'no-mobility': {
    setup() {},
    weights(w) {
      for (let i = 0; i < 4; i++) {
        w[2 * (EVAL_TERMS.MOBILITY + i)] = 0;
        w[2 * (EVAL_TERMS.MOBILITY + i) + 1] = 0;
      }
    },
  },
  'no-kingsafety': {
    setup() {},
    weights(w) {
      for (let i = 0; i < 4; i++) w[2 * (EVAL_TERMS.KING_ATTACK + i)] = 0;
      w[2 * EVAL_TERMS.SHIELD_NEAR] = 0;
      w[2 * EVAL_TERMS.SHIELD_FAR] = 0;
      w[2 * EVAL_TERMS.KING_OPEN_FILE] = 0;
    },
  },
  'no-pawns': {
    setup() {},
    weights(w) {
      for (const t of [EVAL_TERMS.ISOLATED, EVAL_TERMS.DOUBLED, EVAL_TERMS.BACKWARD]) {
        w[2 * t] = 0;
        w[2 * t + 1] = 0;
      }
    },
  },
};

/** Scales the weights of terms [from, from + count) by `f` (both phases). */
function scaled(from: number, count: number, f: number): Variant {
  return {
    setup() {},
    weights(w) {
      for (let i = from; i < from + count; i++) {
        w[2 * i] = Math.round(w[2 * i] * f);
        w[2 * i + 1] = Math.round(w[2 * i + 1] * f);
      }
    },
  };
}
for (const f of [0.5, 1.5]) {
  VARIANTS[`passed-x${f}`] = scaled(EVAL_TERMS.PASSED, 17, f);
  VARIANTS[`mobility-x${f}`] = scaled(EVAL_TERMS.MOBILITY, 4, f);
  VARIANTS[`kingattack-x${f}`] = scaled(EVAL_TERMS.KING_ATTACK, 4, f);
  VARIANTS[`shield-x${f}`] = scaled(EVAL_TERMS.SHIELD_NEAR, 3, f);
  VARIANTS[`threats-x${f}`] = scaled(EVAL_TERMS.PAWN_THREAT, 4, f);
}

export const AB_VARIANT_NAMES: readonly string[] = Object.keys(VARIANTS);

/** One side of an A/B match, as plain JSON (it travels in a job). */
export interface AbSide {
  /** One of AB_VARIANT_NAMES. */
  variant: string;
  /** The whole evaluation (material, piece-square tables, terms); absent = the built-in one. */
  params?: EvalParamValues;
  /** The learned evaluation: a network file on the playing machine and the CRC-32 (hex) it must have. */
  nnue?: { file: string; crc32: string };
  /**
   * This side's node budget per move when it differs from the pair's (node odds: a faster
   * evaluation's speed, measured by `bench`, shown at fixed nodes).
   */
  nodes?: number;
  /** Numeric search parameters set after the variant's (an SPSA result, say): name → value. */
  search?: Record<string, number>;
}

/** What is wrong with `name` as the name of a numeric search parameter, or null. */
export function searchParamNameProblem(name: string): string | null {
  return Object.hasOwn(SEARCH_PARAM_RANGES, name)
    ? null
    : `'${name}' is not a numeric search parameter (expected one of ${Object.keys(SEARCH_PARAM_RANGES).join(', ')})`;
}

/**
 * What is wrong with search settings (name → whole number, each a numeric search parameter in
 * its range), or null: one check for the command line and for jobs from a queue.
 */
export function searchSettingsProblem(settings: unknown): string | null {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) return 'not an object of name: value';
  const entries = Object.entries(settings as Record<string, unknown>);
  if (entries.length === 0) return 'no name=value given';
  for (const [name, v] of entries) {
    const unknown = searchParamNameProblem(name);
    if (unknown !== null) return unknown;
    const [min, max] = SEARCH_PARAM_RANGES[name as NumericSearchParam];
    if (!Number.isInteger(v) || (v as number) < min || (v as number) > max)
      return `${name}=${String(v)} is out of range (expected a whole number from ${min} to ${max})`;
  }
  return null;
}

/** `name=value,...` of numeric search parameters (`--test-set rfpMargin=70,futilityBase=100`). */
export function parseSearchSettings(flag: string, text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of text.split(',').filter((s) => s !== '')) {
    const m = /^(\w+)=(-?\d+)$/.exec(item.trim());
    if (!m) throw new UsageError(`${flag}: '${item}' is not name=whole number`);
    out[m[1]] = Number(m[2]);
  }
  const problem = searchSettingsProblem(out);
  if (problem !== null) throw new UsageError(`${flag}: ${problem}`);
  return out;
}

/** One opening pair: the test engine plays White in the first game, Black in the second. */
export interface AbPairSpec {
  seed: number;
  /** The pair's index in the run: its opening is the seed's random opening number `pair`. */
  pair: number;
  nodes: number;
  /**
   * When set, every move is searched for this many milliseconds instead (the sides' node budgets
   * are then unused): a faster search gets its speed's worth, which fixed nodes do not show.
   */
  movetimeMs?: number;
  test: AbSide;
  base: AbSide;
}

export interface AbGame {
  result: '1-0' | '0-1' | '1/2-1/2';
  /** The whole game from the start position, UCI moves separated by spaces (opening included). */
  moves: string;
}

export interface AbPairResult {
  pair: number;
  /** [test engine White, test engine Black]. */
  games: [AbGame, AbGame];
}

/** The test engine's score in game `i` of a pair (1 win, 0.5 draw, 0 loss). */
export function testScore(r: AbPairResult, i: 0 | 1): number {
  const white = r.games[i].result === '1-0' ? 1 : r.games[i].result === '0-1' ? 0 : 0.5;
  return i === 0 ? white : 1 - white;
}

const moves = new Int32Array(256);
const builtIn = currentEvalParams();

interface Player {
  engine: Engine;
  params: EvalParamValues;
  /** Its own node budget per move, or undefined for the pair's. */
  nodes: number | undefined;
}

/** The engine for one side; a network must be on this machine with the CRC the run wants. */
export function abPlayer(side: AbSide): Player {
  const v = VARIANTS[side.variant];
  if (v === undefined) throw new Error(`unknown variant '${side.variant}' (expected ${AB_VARIANT_NAMES.join(', ')})`);
  if (side.nnue !== undefined) checkNetwork(side.nnue);
  // A network file makes the player use the learned evaluation (its own kernel instance).
  // In process there is no GUI latency to keep in reserve: a timed move gets its whole time.
  const engine = new Engine({ hashMb: 16, nnue: side.nnue === undefined ? null : loadNnue(side.nnue.file), moveOverheadMs: 0 });
  v.setup(engine);
  if (side.search !== undefined) {
    Object.assign(engine.params, side.search);
    engine.paramsChanged();
  }
  const params = side.params ?? builtIn;
  const weights = Int16Array.from(params.terms);
  v.weights?.(weights);
  return { engine, params: { ...params, terms: Array.from(weights) }, nodes: side.nodes };
}

function randomOpening(rng: Sfc32): number[] {
  const rand = (n: number): number => rng.next() % n;
  for (;;) {
    const pos = Position.startpos(),
      line: number[] = [];
    const plies = 6 + rand(4);
    for (let i = 0; i < plies; i++) {
      const n = defaultGenerator.generate(pos, moves, 0);
      if (n === 0) break;
      const m = moves[rand(n)];
      line.push(m);
      pos.makeMove(m);
    }
    applyEvalParams(builtIn);
    if (line.length === plies && Math.abs(evaluate(pos)) < 120) return line;
  }
}

/**
 * The openings of pairs 0 … count − 1 for `seed`: one random stream drawn in pair order, so pair
 * k's opening needs the k before it (cheap: random moves and one evaluation each).
 */
export function abOpenings(seed: number, count: number): number[][] {
  const rng = new Sfc32(seed);
  return Array.from({ length: count }, () => randomOpening(rng));
}

/** Plays one game at `nodes` a move (or the side's own budget), or `movetimeMs` when given; the result from White's view. */
function playGame(opening: number[], white: Player, black: Player, nodes: number, movetimeMs: number | undefined): AbGame {
  const pos = Position.startpos();
  const line: string[] = [];
  for (const m of opening) {
    line.push(moveToUci(m));
    pos.makeMove(m);
  }
  white.engine.newGame();
  black.engine.newGame();
  const done = (result: AbGame['result']): AbGame => ({ result, moves: line.join(' ') });
  let bigScorePlies = 0,
    bigSign = 0;
  for (let ply = 0; ply < 400; ply++) {
    const n = defaultGenerator.generate(pos, moves, 0);
    if (n === 0) return done(pos.inCheck() ? (pos.side === 0 ? '0-1' : '1-0') : '1/2-1/2');
    if (pos.halfmove >= 100 || pos.repetitions() >= 2 || insufficientMaterial(pos)) return done('1/2-1/2');
    const p = pos.side === 0 ? white : black;
    applyEvalParams(p.params);
    const r = p.engine.search(pos, movetimeMs !== undefined ? { movetime: movetimeMs } : { nodes: p.nodes ?? nodes });
    // Adjudicate clear wins: the mover's score beyond 1000 (from White's view, same sign) for 8 plies.
    const s = 'mate' in r.score ? (r.score.mate > 0 ? 5000 : -5000) : r.score.cp;
    const whiteView = pos.side === 0 ? s : -s;
    if (Math.abs(whiteView) >= 1000 && Math.sign(whiteView) === bigSign) bigScorePlies++;
    else {
      bigScorePlies = Math.abs(whiteView) >= 1000 ? 1 : 0;
      bigSign = Math.sign(whiteView);
    }
    if (bigScorePlies >= 8) return done(bigSign > 0 ? '1-0' : '0-1');
    line.push(moveToUci(r.bestMove));
    pos.makeMove(r.bestMove);
  }
  return done('1/2-1/2');
}

/**
 * Plays pair `pair` with the opening given: test engine White, then Black. Each game starts from a
 * cleared engine. The evaluation tables the players set are restored to the built-in ones after,
 * so a job thread's next job (an analysis, say) evaluates as before.
 */
export function playAbPair(pair: number, opening: number[], test: Player, base: Player, nodes: number, movetimeMs?: number): AbPairResult {
  try {
    return { pair, games: [playGame(opening, test, base, nodes, movetimeMs), playGame(opening, base, test, nodes, movetimeMs)] };
  } finally {
    applyEvalParams(builtIn);
  }
}

/** Plays a pair from its spec alone (fresh engines, the opening redrawn from the seed): what a job does. */
export function playAbPairSpec(spec: AbPairSpec): AbPairResult {
  const opening = abOpenings(spec.seed, spec.pair + 1)[spec.pair];
  return playAbPair(spec.pair, opening, abPlayer(spec.test), abPlayer(spec.base), spec.nodes, spec.movetimeMs);
}
