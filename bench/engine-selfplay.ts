/**
 * A/B self-play for the engine: two Engine instances that differ in search parameters (or
 * evaluation weights) play colour-reversed pairs of random short openings at a fixed node budget
 * per move (src/tune/selfplay/ab.ts), in process or, with --queue, as `selfplay-pair` jobs for
 * `matrix-chess worker` processes (docs/scale.md). A quick sanity check of a change, not a rating
 * list: use the match runner (matrix-chess match) for real measurements.
 *
 *   node dist/bench/engine-selfplay.js --variant NAME [--nodes 4000 | --movetime MS] [--pairs 20] [--seed 1]
 *       [--test-params FILE.json] [--base-params FILE.json] [--test-nnue FILE] [--base-nnue FILE]
 *       [--test-nodes N] [--base-nodes N] [--test-set name=V,...] [--base-set name=V,...]
 *       [--sprt 'elo0=0 elo1=10 [alpha=0.05] [beta=0.05]']
 *       [--queue redis://HOST:PORT [--queue-chunk N]]
 * The params files (written by `matrix-chess tune fit --json` / `tune export --json`) replace the
 * whole evaluation (material, piece-square tables, terms) of the tested or the baseline engine.
 * --test-nodes / --base-nodes give one side its own budget (node odds): a faster evaluation
 * against a slower one at the node ratio `bench` measured, what equal time would give each.
 * --movetime searches every move for MS milliseconds instead, so each side plays at its own node
 * rate (a change that makes nodes cheaper or dearer is charged for it); the games then depend on
 * the machine's speed and are not reproducible move for move.
 * --test-set / --base-set set numeric search parameters of one side (`tune spsa`'s results).
 * --sprt stops at the first decision of a sequential probability ratio test on the pair counts
 * (the match runner's, src/match/stats.ts); --pairs is then the most it plays. Through --queue the
 * pairs go out --queue-chunk at a time (all of them, or 64 under --sprt, so a decision strands
 * few jobs).
 */
import { readFileSync } from 'node:fs';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { createProgress, progressEnabled } from '../src/cmdline/progress.js';
import type { JobFailed } from '../src/jobs/local-pool.js';
import type { JobResult, SelfplayPairJob } from '../src/jobs/job.js';
import { parseSprtConfig } from '../src/match/cli.js';
import { eloPentanomial, eloTrinomial, formatElo, pairBucket, sprt, type SprtConfig } from '../src/match/stats.js';
import { networkCrc } from '../src/tune/datagen-shard.js';
import { parseEvalParamsJson } from '../src/tune/texel/eval-params-source.js';
import {
  AB_VARIANT_NAMES,
  abOpenings,
  abPlayer,
  parseSearchSettings,
  playAbPair,
  testScore,
  type AbPairResult,
  type AbSide,
} from '../src/tune/selfplay/ab.js';

interface Options {
  variant: string;
  base: string;
  nodes: number;
  movetimeMs?: number;
  pairs: number;
  seed: number;
  testParams?: string;
  baseParams?: string;
  testNnue?: string;
  baseNnue?: string;
  testNodes?: number;
  baseNodes?: number;
  testSet?: Record<string, number>;
  baseSet?: Record<string, number>;
  queue?: string;
  queueChunk?: number;
  sprt?: SprtConfig;
}

function parseOptions(args: string[]): Options {
  const { values } = parseCommandArgs(
    'engine-selfplay',
    args,
    {
      variant: { type: 'string' },
      base: { type: 'string' },
      nodes: { type: 'string' },
      movetime: { type: 'string' },
      pairs: { type: 'string' },
      seed: { type: 'string' },
      'test-params': { type: 'string' },
      'base-params': { type: 'string' },
      'test-nnue': { type: 'string' },
      'base-nnue': { type: 'string' },
      'test-nodes': { type: 'string' },
      'base-nodes': { type: 'string' },
      'test-set': { type: 'string' },
      'base-set': { type: 'string' },
      'queue-chunk': { type: 'string' },
      queue: { type: 'string' },
      sprt: { type: 'string' },
    },
    0,
  );
  const str = (name: string): string | undefined => values[name] as string | undefined;
  const variant = (flag: string): string => {
    const name = str(flag) ?? 'base';
    if (!AB_VARIANT_NAMES.includes(name))
      throw new UsageError(`--${flag}: unknown variant '${name}' (expected ${AB_VARIANT_NAMES.join(', ')})`);
    return name;
  };
  const int = (flag: string, dflt: number, min: number, max: number): number =>
    str(flag) === undefined ? dflt : parseIntIn(`--${flag}`, str(flag), min, max);
  const optionalInt = (flag: string, min: number, max: number): number | undefined =>
    str(flag) === undefined ? undefined : parseIntIn(`--${flag}`, str(flag), min, max);
  const movetimeMs = optionalInt('movetime', 1, 600_000);
  if (movetimeMs !== undefined) {
    const clash = ['nodes', 'test-nodes', 'base-nodes'].find((f) => str(f) !== undefined);
    if (clash !== undefined)
      throw new UsageError(`--${clash}: a node budget does not apply with --movetime (every move is searched by time)`);
  }
  return {
    variant: variant('variant'),
    base: variant('base'),
    nodes: int('nodes', 4000, 1, 1e9),
    ...(movetimeMs === undefined ? {} : { movetimeMs }),
    pairs: int('pairs', 20, 1, 1e6),
    seed: int('seed', 1, 0, 0xffffffff),
    testParams: str('test-params'),
    baseParams: str('base-params'),
    testNnue: str('test-nnue'),
    baseNnue: str('base-nnue'),
    testNodes: optionalInt('test-nodes', 1, 1e9),
    baseNodes: optionalInt('base-nodes', 1, 1e9),
    ...(str('test-set') === undefined ? {} : { testSet: parseSearchSettings('--test-set', str('test-set')!) }),
    ...(str('base-set') === undefined ? {} : { baseSet: parseSearchSettings('--base-set', str('base-set')!) }),
    queue: str('queue'),
    queueChunk: optionalInt('queue-chunk', 1, 1e6),
    ...(str('sprt') === undefined ? {} : { sprt: parseSprtConfig('--sprt', str('sprt')!) }),
  };
}

function side(
  who: 'test' | 'base',
  variant: string,
  paramsFile: string | undefined,
  nnueFile: string | undefined,
  nodes: number | undefined,
  search: Record<string, number> | undefined,
): AbSide {
  const read = <T>(flag: string, file: string, f: () => T): T => {
    try {
      return f();
    } catch (e) {
      throw new UsageError(`--${who}-${flag}: cannot read '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  return {
    variant,
    ...(paramsFile === undefined
      ? {}
      : {
          params: parseEvalParamsJson(
            read('params', paramsFile, () => readFileSync(paramsFile, 'utf8')),
            paramsFile,
          ),
        }),
    ...(nnueFile === undefined ? {} : { nnue: { file: nnueFile, crc32: read('nnue', nnueFile, () => networkCrc(nnueFile)) } }),
    ...(nodes === undefined ? {} : { nodes }),
    ...(search === undefined ? {} : { search }),
  };
}

/** Pairs queued at a time under an SPRT (more than a few workers' worth, few past a decision). */
const QUEUE_SPRT_CHUNK = 64;

/** The pairs as jobs through Redis (`matrix-chess worker` processes play them); results in pair order. */
async function pairsOnQueue(
  url: string,
  seed: number,
  first: number,
  pairs: number,
  nodes: number,
  movetimeMs: number | undefined,
  test: AbSide,
  base: AbSide,
): Promise<AbPairResult[]> {
  const { parseRedisUrl, runJobsOnQueue } = await import('../src/jobs/redis-queue.js');
  const jobs: SelfplayPairJob[] = Array.from({ length: pairs }, (_, i) => ({
    kind: 'selfplay-pair',
    seed,
    pair: first + i,
    nodes,
    ...(movetimeMs === undefined ? {} : { movetimeMs }),
    test,
    base,
  }));
  let done = 0;
  const progress = createProgress('pairs on the queue');
  const results = await runJobsOnQueue(parseRedisUrl(url), jobs, {
    onDone: () => progress.update(++done, pairs),
  });
  progress.finish();
  return results.map((r: JobResult | JobFailed, i) => {
    if (r instanceof Error) throw new UsageError(`pair ${first + i}: ${r.message}`);
    if (r.kind !== 'selfplay-pair') throw new UsageError(`pair ${first + i}: a ${r.kind} result came back`);
    return r;
  });
}

async function main(): Promise<void> {
  const {
    variant: variantName,
    base: baseName,
    nodes,
    movetimeMs,
    pairs,
    seed,
    testParams,
    baseParams,
    testNnue,
    baseNnue,
    testNodes,
    baseNodes,
    testSet,
    baseSet,
    queue,
    queueChunk,
    sprt: sprtCfg,
  } = parseOptions(process.argv.slice(2));
  const testSide = side('test', variantName, testParams, testNnue, testNodes, testSet);
  const baseSide = side('base', baseName, baseParams, baseNnue, baseNodes, baseSet);
  // Through a queue the pairs are played elsewhere, a chunk at a time: all at once without an
  // SPRT, and with one in chunks, so that a decision leaves no pairs queued beyond the chunk.
  const chunk = queue === undefined ? 0 : (queueChunk ?? (sprtCfg === undefined ? pairs : QUEUE_SPRT_CHUNK));
  let queued: AbPairResult[] = [];
  const openings = queue === undefined ? abOpenings(seed, pairs) : [];
  const test = queue === undefined ? abPlayer(testSide) : undefined;
  const base = queue === undefined ? abPlayer(baseSide) : undefined;
  let w = 0,
    d = 0,
    l = 0;
  // Pairs by the test side's points in them, 0, 1/2, …, 2 (the pentanomial counts).
  const pairCounts = [0, 0, 0, 0, 0];
  // Progress (ETA) on a terminal only; in a pipe or a log, a plain running score every 50 games.
  const progress = createProgress(`${variantName} vs ${baseName}`);
  let decision = '',
    running = '';
  for (let i = 0; i < pairs && decision === ''; i++) {
    if (queue !== undefined && i % chunk === 0)
      queued = await pairsOnQueue(queue, seed, i, Math.min(chunk, pairs - i), nodes, movetimeMs, testSide, baseSide);
    const result = queue !== undefined ? queued[i % chunk] : playAbPair(i, openings[i], test!, base!, nodes, movetimeMs);
    for (const g of [0, 1] as const) {
      const s = testScore(result, g);
      if (s === 1) w++;
      else if (s === 0) l++;
      else d++;
    }
    pairCounts[pairBucket(testScore(result, 0), testScore(result, 1))]++;
    running = scoreLine(w, d, l, pairCounts);
    if (sprtCfg !== undefined) {
      // After every pair, on the pentanomial counts: the test stops at the first decision.
      const state = sprt(sprtCfg, { wins: w, draws: d, losses: l }, pairCounts);
      running += `, LLR ${state.llr.toFixed(2)} (${state.lower.toFixed(2)}, ${state.upper.toFixed(2)})`;
      if (state.decision !== null) decision = state.decision;
    }
    progress.update(i + 1, pairs, running);
    if (!progressEnabled() && (2 * (i + 1)) % 50 === 0 && i + 1 < pairs && decision === '') process.stdout.write(`after ${running}\n`);
  }
  progress.finish();
  process.stdout.write(`test: ${describeSide(testSide, nodes, movetimeMs)}\nbase: ${describeSide(baseSide, nodes, movetimeMs)}\n`);
  process.stdout.write(`final: ${running}\n`);
  if (sprtCfg !== undefined) {
    const { elo0, elo1 } = sprtCfg;
    process.stdout.write(
      decision === 'H1'
        ? `sprt: H1 accepted (elo1 ${elo1}: the test side is better) after ${w + d + l} games\n`
        : decision === 'H0'
          ? `sprt: H0 accepted (elo0 ${elo0}: the test side is not better) after ${w + d + l} games\n`
          : `sprt: no decision after ${w + d + l} games (--pairs ${pairs})\n`,
    );
  }
}

/** What a side was: its variant, its evaluation (network file and checksum), its node budget or time a move. */
function describeSide(side: AbSide, nodes: number, movetimeMs: number | undefined): string {
  const net = side.nnue === undefined ? 'classical evaluation' : `network ${side.nnue.file} (CRC ${side.nnue.crc32})`;
  const set =
    side.search === undefined
      ? ''
      : `, ${Object.entries(side.search)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`;
  return `variant ${side.variant}${set}, ${net}${side.params === undefined ? '' : ', own evaluation params'}, ${movetimeMs !== undefined ? `${movetimeMs} ms` : `${side.nodes ?? nodes} nodes`} a move`;
}

/**
 * Games, +W =D -L, score, Elo with its 95% interval over games (trinomial) and over colour-reversed
 * pairs (pentanomial: the pair is the sample, the opening's bias cancels out of the variance).
 */
function scoreLine(w: number, d: number, l: number, pairCounts: readonly number[]): string {
  const t = eloTrinomial(w, d, l),
    p = eloPentanomial(pairCounts);
  return `${w + d + l} games, +${w} =${d} -${l}, score ${(100 * t.score).toFixed(1)}%, elo ${formatElo(t)}, pairs ${pairCounts.join('/')} ${formatElo(p)}`;
}

await runScript('engine-selfplay', main);
