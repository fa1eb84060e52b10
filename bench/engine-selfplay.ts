/**
 * In-process A/B self-play for the engine: two Engine instances that differ in search
 * parameters (or evaluation weights) play colour-reversed pairs of random short openings at a
 * fixed node budget per move. A quick sanity check of a change, not a rating list: use the
 * match runner (matrix-chess match) for real measurements.
 *
 *   node dist/bench/engine-selfplay.js --variant NAME [--nodes 4000] [--pairs 20] [--seed 1]
 *       [--test-params FILE.json] [--base-params FILE.json] [--test-nnue FILE] [--base-nnue FILE]
 * The params files (written by `matrix-chess tune fit --json` / `tune export --json`) replace the
 * whole evaluation (material, piece-square tables, terms) of the tested or the baseline engine.
 */
import { readFileSync } from 'node:fs';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { Sfc32 } from '../src/core/rng.js';
import { Position } from '../src/core/position.js';
import { defaultGenerator } from '../src/core/movegen.js';
import { Engine, evaluate, insufficientMaterial, EVAL_TERMS } from '../src/engine/index.js';
import { loadNnue } from '../src/engine/nnue/load.js';
import { applyEvalParams, currentEvalParams, parseEvalParamsJson, type EvalParamValues } from '../src/tune/eval-params-source.js';

interface Variant {
  setup(e: Engine): void;
  weights?(w: Int16Array): void;
}

/** Named experiments: each changes the engine under test relative to the baseline. */
const VARIANTS: Record<string, Variant> = {
  base: { setup() {} },
  cont: {
    setup(e) {
      e.params.continuationHistory = true;
      e.paramsChanged();
    },
  },
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
  'lmp-prunes-checks': {
    setup(e) {
      e.params.lmpKeepsChecks = false;
    },
  },
  'no-lmp': {
    setup(e) {
      e.params.lmpDepth = 0;
    },
  },
  'rfp-120': {
    setup(e) {
      e.params.rfpMargin = 120;
    },
  },
  'rfp-60': {
    setup(e) {
      e.params.rfpMargin = 60;
    },
  },
  'lmr-soft': {
    setup(e) {
      e.params.lmrDivisor = 3;
      e.paramsChanged();
    },
  },
  'lmr-hard': {
    setup(e) {
      e.params.lmrDivisor = 1.8;
      e.paramsChanged();
    },
  },
  'no-futility': {
    setup(e) {
      e.params.futilityBase = -10000;
      e.params.futilityMult = 0;
    },
  },
  'no-razor': {
    setup(e) {
      e.params.razorMargin = 100000;
    },
  },
  'no-see-quiet': {
    setup(e) {
      e.params.seeQuietMult = 100000;
    },
  },
  'no-iir': {
    setup(e) {
      e.params.iirDepth = 1000;
    },
  },
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

interface Options {
  variant: string;
  base: string;
  nodes: number;
  pairs: number;
  seed: number;
  testParams?: string;
  baseParams?: string;
  testNnue?: string;
  baseNnue?: string;
}

function parseOptions(args: string[]): Options {
  const { values } = parseCommandArgs(
    'engine-selfplay',
    args,
    {
      variant: { type: 'string' },
      base: { type: 'string' },
      nodes: { type: 'string' },
      pairs: { type: 'string' },
      seed: { type: 'string' },
      'test-params': { type: 'string' },
      'base-params': { type: 'string' },
      'test-nnue': { type: 'string' },
      'base-nnue': { type: 'string' },
    },
    0,
  );
  const str = (name: string): string | undefined => values[name] as string | undefined;
  const variant = (flag: string): string => {
    const name = str(flag) ?? 'base';
    if (!(name in VARIANTS)) throw new UsageError(`--${flag}: unknown variant '${name}' (expected ${Object.keys(VARIANTS).join(', ')})`);
    return name;
  };
  const int = (flag: string, dflt: number, min: number, max: number): number =>
    str(flag) === undefined ? dflt : parseIntIn(`--${flag}`, str(flag), min, max);
  return {
    variant: variant('variant'),
    base: variant('base'),
    nodes: int('nodes', 4000, 1, 1e9),
    pairs: int('pairs', 20, 1, 1e6),
    seed: int('seed', 1, 0, 0xffffffff),
    testParams: str('test-params'),
    baseParams: str('base-params'),
    testNnue: str('test-nnue'),
    baseNnue: str('base-nnue'),
  };
}

const moves = new Int32Array(256);
const builtIn = currentEvalParams();

function loadParams(path: string | undefined): EvalParamValues {
  return path === undefined ? builtIn : parseEvalParamsJson(readFileSync(path, 'utf8'), path);
}

interface Player {
  engine: Engine;
  params: EvalParamValues;
}
function player(v: Variant, params: EvalParamValues, nnueFile: string | undefined): Player {
  // A network file makes the player use the learned evaluation (its own kernel instance).
  const engine = new Engine({ hashMb: 16, nnue: nnueFile === undefined ? null : loadNnue(nnueFile) });
  v.setup(engine);
  const weights = Int16Array.from(params.terms);
  v.weights?.(weights);
  return { engine, params: { ...params, terms: Array.from(weights) } };
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

/** 1 white wins, 0.5 draw, 0 black wins. */
function playGame(opening: number[], white: Player, black: Player, nodes: number): number {
  const pos = Position.startpos();
  for (const m of opening) pos.makeMove(m);
  white.engine.newGame();
  black.engine.newGame();
  let bigScorePlies = 0,
    bigSign = 0;
  for (let ply = 0; ply < 400; ply++) {
    const n = defaultGenerator.generate(pos, moves, 0);
    if (n === 0) return pos.inCheck() ? (pos.side === 0 ? 0 : 1) : 0.5;
    if (pos.halfmove >= 100 || pos.repetitions() >= 2 || insufficientMaterial(pos)) return 0.5;
    const p = pos.side === 0 ? white : black;
    applyEvalParams(p.params);
    const r = p.engine.search(pos, { nodes });
    // Adjudicate clear wins: the mover's score beyond 1000 (from White's view, same sign) for 8 plies.
    const s = 'mate' in r.score ? (r.score.mate > 0 ? 5000 : -5000) : r.score.cp;
    const whiteView = pos.side === 0 ? s : -s;
    if (Math.abs(whiteView) >= 1000 && Math.sign(whiteView) === bigSign) bigScorePlies++;
    else {
      bigScorePlies = Math.abs(whiteView) >= 1000 ? 1 : 0;
      bigSign = Math.sign(whiteView);
    }
    if (bigScorePlies >= 8) return bigSign > 0 ? 1 : 0;
    pos.makeMove(r.bestMove);
  }
  return 0.5;
}

function main(): void {
  const {
    variant: variantName,
    base: baseName,
    nodes,
    pairs,
    seed,
    testParams,
    baseParams,
    testNnue,
    baseNnue,
  } = parseOptions(process.argv.slice(2));
  const rng = new Sfc32(seed);
  const test = player(VARIANTS[variantName], loadParams(testParams), testNnue);
  const base = player(VARIANTS[baseName], loadParams(baseParams), baseNnue);
  let w = 0,
    d = 0,
    l = 0;
  const t0 = Date.now();
  for (let i = 0; i < pairs; i++) {
    const opening = randomOpening(rng);
    for (const testWhite of [true, false]) {
      const r = testWhite ? playGame(opening, test, base, nodes) : playGame(opening, base, test, nodes);
      const s = testWhite ? r : 1 - r;
      if (s === 1) w++;
      else if (s === 0) l++;
      else d++;
    }
    const games = w + d + l,
      score = (w + d / 2) / games;
    const elo = score <= 0 || score >= 1 ? NaN : -400 * Math.log10(1 / score - 1);
    process.stdout.write(
      `\r${variantName} vs ${baseName}: +${w} =${d} -${l}  score ${(100 * score).toFixed(1)}%  elo ${elo.toFixed(0)}  (${((Date.now() - t0) / 1000).toFixed(0)} s)   `,
    );
  }
  {
    // Trinomial 95% interval of the score, mapped to Elo.
    const n = w + d + l,
      s = (w + d / 2) / n;
    const sd = Math.sqrt((w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n / n);
    const elo = (x: number) => (x <= 0 ? -Infinity : x >= 1 ? Infinity : -400 * Math.log10(1 / x - 1));
    process.stdout.write(
      `\nfinal: ${n} games, +${w} =${d} -${l}, score ${(100 * s).toFixed(1)}%, elo ${elo(s).toFixed(0)} [${elo(s - 1.96 * sd).toFixed(0)}, ${elo(s + 1.96 * sd).toFixed(0)}]\n`,
    );
  }
}

await runScript('engine-selfplay', main);
