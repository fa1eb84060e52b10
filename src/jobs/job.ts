/**
 * The one job type for batch work. A job is plain JSON (it travels to worker threads and through
 * Redis), identified by a hash of its content, so a job delivered twice gives the same result
 * under the same id. Three kinds: `analyse` (a game in, the annotated game out), `datagen-shard`
 * (one shard of `tune datagen` in, the shard file's bytes out) and `selfplay-pair` (one opening
 * pair of an A/B test match in, its two games out), run by the same pool, queue and worker.
 */
import { createHash } from 'node:crypto';
import { analysePgnGame, type GameAnalysis } from '../analysis/analyse-game.js';
import { PgnError, makePgn, parsePgnGame, type PgnGame } from '../core/pgn/index.js';
import { Engine } from '../engine/engine.js';
import type { NnueEvaluator } from '../engine/nnue/evaluator.js';
import { loadNnue } from '../engine/nnue/load-node.js';
import { OpeningError, parseOpenings } from '../match/openings.js';
import { checkNetwork, playDatagenShard, type DatagenShardSpec } from '../tune/datagen-shard.js';
import { parseEvalParamsJson } from '../tune/texel/eval-params-source.js';
import { AB_VARIANT_NAMES, playAbPairSpec, searchSettingsProblem, type AbPairResult, type AbPairSpec } from '../tune/selfplay/ab.js';

/** A game as a job carries it: the whole game as PGN (tags, comments, variations: the output keeps them) and its main line's length. */
export interface JobGame {
  pgn: string;
  plies: number;
}

export interface AnalyseJob {
  kind: 'analyse';
  game: JobGame;
  limits: { depth?: number; nodes?: number; movetime?: number };
  hashMb: number;
  /** Search threads per position (Lazy SMP); absent = 1, so one-thread jobs keep their content hash. */
  threads?: number;
  /** The network to evaluate with (its file on the worker's machine and CRC-32); absent = the classical evaluation. */
  nnue?: { file: string; crc32: string };
}

/** One shard of `matrix-chess tune datagen` (src/tune/datagen-shard.ts). */
export interface DatagenShardJob extends DatagenShardSpec {
  kind: 'datagen-shard';
}

/** One opening pair of an A/B self-play test match (src/tune/selfplay/ab.ts, bench/engine-selfplay.ts). */
export interface SelfplayPairJob extends AbPairSpec {
  kind: 'selfplay-pair';
}

export type Job = AnalyseJob | DatagenShardJob | SelfplayPairJob;

export interface AnalyseResult {
  kind: 'analyse';
  /** The annotated game. */
  pgn: string;
  analysis: Omit<GameAnalysis, 'pgn'>;
}

export interface DatagenShardResult {
  kind: 'datagen-shard';
  shard: number;
  /** The shard file's bytes (gzip), base64: the file `tune datagen` writes for this shard. */
  data: string;
}

export interface SelfplayPairResult extends AbPairResult {
  kind: 'selfplay-pair';
}

export type JobResult = AnalyseResult | DatagenShardResult | SelfplayPairResult;

export class JobError extends Error {
  override readonly name = 'JobError';
}

/** The job's id: a hash of its canonical JSON (keys sorted), so equal content has one id. */
export function jobId(job: Job): string {
  return 'job-' + createHash('sha256').update(canonicalJson(job)).digest('hex').slice(0, 32);
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export function jobGameOf(game: PgnGame): JobGame {
  return { pgn: makePgn(game), plies: game.moves.length };
}

/** Checks a job received from elsewhere; anything malformed is a JobError naming the field. */
export function parseJob(data: unknown): Job {
  const o = data as Partial<AnalyseJob> | Partial<DatagenShardJob> | Partial<SelfplayPairJob> | null;
  if (o === null || typeof o !== 'object') throw new JobError('malformed job: expected an object');
  if (o.kind === 'datagen-shard') return parseDatagenShardJob(o);
  if (o.kind === 'selfplay-pair') return parseSelfplayPairJob(o);
  if (o.kind !== 'analyse')
    throw new JobError(`malformed job: kind ${JSON.stringify(o.kind)} is not 'analyse', 'datagen-shard' or 'selfplay-pair'`);
  const g = o.game;
  if (g === null || typeof g !== 'object') throw new JobError('malformed job: game is missing');
  if (typeof g.pgn !== 'string') throw new JobError('malformed job: game.pgn is not a string');
  if (!(Number.isInteger(g.plies) && g.plies >= 0)) throw new JobError('malformed job: game.plies is not a whole number');
  const l = o.limits;
  if (l === null || typeof l !== 'object') throw new JobError('malformed job: limits is missing');
  for (const k of ['depth', 'nodes', 'movetime'] as const)
    if (l[k] !== undefined && !(Number.isInteger(l[k]) && (l[k] as number) > 0))
      throw new JobError(`malformed job: limits.${k} is not a positive whole number`);
  if (!(Number.isInteger(o.hashMb) && (o.hashMb as number) >= 1 && (o.hashMb as number) <= 4096))
    throw new JobError('malformed job: hashMb is not a whole number from 1 to 4096');
  if (o.threads !== undefined && !(Number.isInteger(o.threads) && (o.threads as number) >= 1 && (o.threads as number) <= 256))
    throw new JobError('malformed job: threads is not a whole number from 1 to 256');
  if (o.nnue !== undefined && !isNetwork(o.nnue)) throw new JobError('malformed job: nnue is not { file, crc32 (hex) }');
  return o as AnalyseJob;
}

const isNetwork = (n: unknown): boolean => {
  const o = n as { file?: unknown; crc32?: unknown } | null;
  return o !== null && typeof o === 'object' && typeof o.file === 'string' && /^[0-9a-f]{1,8}$/.test(String(o.crc32));
};

/** The ranges `tune datagen` accepts for the same parameters. */
function parseDatagenShardJob(o: Partial<DatagenShardJob>): DatagenShardJob {
  const whole = (k: 'seed' | 'shard' | 'gamesPerShard' | 'nodes' | 'randomPlies', min: number, max: number): void => {
    const v = o[k];
    if (!(Number.isInteger(v) && (v as number) >= min && (v as number) <= max))
      throw new JobError(`malformed job: ${k} is not a whole number from ${min} to ${max}`);
  };
  whole('seed', 0, 0xffffffff);
  whole('shard', 0, 99_999);
  whole('gamesPerShard', 1, 100_000);
  whole('nodes', 100, 100_000_000);
  whole('randomPlies', 0, 40);
  if (typeof o.openings !== 'string') throw new JobError('malformed job: openings is not the text of an openings file');
  try {
    parseOpenings(o.openings);
  } catch (e) {
    if (e instanceof OpeningError) throw new JobError(`malformed job: ${e.message}`);
    throw e;
  }
  if (o.nnue !== undefined && !isNetwork(o.nnue)) throw new JobError('malformed job: nnue is not { file, crc32 (hex) }');
  return o as DatagenShardJob;
}

/** The ranges bench/engine-selfplay.ts accepts for the same parameters. */
function parseSelfplayPairJob(o: Partial<SelfplayPairJob>): SelfplayPairJob {
  const whole = (k: 'seed' | 'pair' | 'nodes', min: number, max: number): void => {
    const v = o[k];
    if (!(Number.isInteger(v) && (v as number) >= min && (v as number) <= max))
      throw new JobError(`malformed job: ${k} is not a whole number from ${min} to ${max}`);
  };
  whole('seed', 0, 0xffffffff);
  whole('pair', 0, 999_999);
  whole('nodes', 1, 1_000_000_000);
  if (o.movetimeMs !== undefined && !(Number.isInteger(o.movetimeMs) && o.movetimeMs >= 1 && o.movetimeMs <= 600_000))
    throw new JobError('malformed job: movetimeMs is not a whole number from 1 to 600000');
  for (const k of ['test', 'base'] as const) {
    const side = o[k];
    if (side === null || typeof side !== 'object')
      throw new JobError(`malformed job: ${k} is not an engine ({ variant, params?, nnue?, nodes?, search? })`);
    if (!AB_VARIANT_NAMES.includes(side.variant))
      throw new JobError(`malformed job: ${k}.variant ${JSON.stringify(side.variant)} is not a known variant`);
    if (side.params !== undefined) {
      try {
        parseEvalParamsJson(JSON.stringify(side.params), `${k}.params`);
      } catch (e) {
        throw new JobError(`malformed job: ${(e as Error).message}`);
      }
    }
    if (side.nnue !== undefined && !isNetwork(side.nnue)) throw new JobError(`malformed job: ${k}.nnue is not { file, crc32 (hex) }`);
    if (side.nodes !== undefined && !(Number.isInteger(side.nodes) && side.nodes >= 1 && side.nodes <= 1_000_000_000))
      throw new JobError(`malformed job: ${k}.nodes is not a whole number from 1 to 1000000000`);
    const problem = side.search === undefined ? null : searchSettingsProblem(side.search);
    if (problem !== null) throw new JobError(`malformed job: ${k}.search: ${problem}`);
  }
  return o as SelfplayPairJob;
}

function gameOfJob(g: JobGame): PgnGame {
  let game: PgnGame;
  try {
    game = parsePgnGame(g.pgn);
  } catch (e) {
    if (e instanceof PgnError) throw new JobError(`malformed job: game.pgn: ${e.message}`);
    throw e;
  }
  if (game.moves.length !== g.plies) throw new JobError(`malformed job: game.plies is ${g.plies}, the game has ${game.moves.length}`);
  return game;
}

/**
 * Runs one job (already parsed); `onProgress` gets the positions (analyse) or games (datagen,
 * self-play pair) done and in all. A datagen shard plays on one self-play thread: jobs run side by
 * side instead.
 */
export async function runJob(job: Job, engine: Engine | undefined, onProgress?: (done: number, total: number) => void): Promise<JobResult> {
  if (job.kind === 'selfplay-pair') {
    const r = playAbPairSpec(job);
    onProgress?.(2, 2);
    return { kind: 'selfplay-pair', ...r };
  }
  if (job.kind === 'datagen-shard') {
    let done = 0;
    const { kind: _, ...spec } = job;
    const bytes = await playDatagenShard(spec, 1, () => onProgress?.(++done, job.gamesPerShard));
    return { kind: 'datagen-shard', shard: job.shard, data: bytes.toString('base64') };
  }
  const game = gameOfJob(job.game);
  const eng = engine ?? new Engine({ hashMb: job.hashMb });
  // A thread's engine keeps its evaluator between jobs: setting it again would send the network
  // to every search helper again.
  const nnue = job.nnue === undefined ? null : analysisNetwork(job.nnue);
  if (eng.evaluator !== nnue) eng.setEvaluator(nnue);
  const { pgn, ...analysis } = analysePgnGame(game, { ...job.limits, hashMb: job.hashMb, engine: eng, onPosition: onProgress });
  return { kind: 'analyse', pgn, analysis };
}

// Networks loaded by this thread, by file and CRC-32: loading (and compiling the kernel) once.
const networks = new Map<string, NnueEvaluator>();

function analysisNetwork(nnue: { file: string; crc32: string }): NnueEvaluator {
  const key = `${nnue.crc32} ${nnue.file}`;
  let e = networks.get(key);
  if (e === undefined) {
    checkNetwork(nnue);
    e = loadNnue(nnue.file);
    networks.set(key, e);
  }
  return e;
}

/** Positions (analyse) or games (datagen, self-play pair) a job plays, for progress and ETA before it runs. */
export function jobSize(job: Job): number {
  return job.kind === 'datagen-shard' ? job.gamesPerShard : job.kind === 'selfplay-pair' ? 2 : job.game.plies + 1;
}
