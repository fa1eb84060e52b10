/**
 * The one job type for batch work. A job is plain JSON (it travels to worker threads and through
 * Redis), identified by a hash of its content, so a job delivered twice gives the same result
 * under the same id. Analysis is the first kind; self-play data generation and self-play matches
 * fit as further kinds of the same union (a seed range in, a shard or a game list out), run by
 * the same pool, queue and worker.
 */
import { createHash } from 'node:crypto';
import { analyseRecord, type GameAnalysis } from '../analysis/analyse-game.js';
import { moveToUci } from '../core/move.js';
import { parseUciMove } from '../core/notation.js';
import type { PgnRecord } from '../core/pgn-read.js';
import { Position } from '../core/position.js';
import type { Engine } from '../engine/search.js';

/** A game as a job carries it: the start FEN, UCI moves, and what the output keeps. */
export interface JobGame {
  tags: Record<string, string>;
  fen: string;
  moves: string[];
  comments: Array<string | null>;
  result: string;
}

export interface AnalyseJob {
  kind: 'analyse';
  game: JobGame;
  limits: { depth?: number; nodes?: number; movetime?: number };
  hashMb: number;
  /** Search threads per position (Lazy SMP); absent = 1, so one-thread jobs keep their content hash. */
  threads?: number;
}

export type Job = AnalyseJob;

export interface AnalyseResult {
  kind: 'analyse';
  /** The annotated game. */
  pgn: string;
  analysis: Omit<GameAnalysis, 'pgn'>;
}

export type JobResult = AnalyseResult;

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

export function jobGameFromRecord(r: PgnRecord): JobGame {
  return {
    tags: r.tags,
    fen: r.fen,
    moves: r.moves.map(moveToUci),
    comments: r.moves.map((_, i) => r.comments[i] ?? null),
    result: r.result,
  };
}

/** Checks a job received from elsewhere; anything malformed is a JobError naming the field. */
export function parseJob(data: unknown): Job {
  const o = data as Partial<AnalyseJob> | null;
  if (o === null || typeof o !== 'object') throw new JobError('malformed job: expected an object');
  if (o.kind !== 'analyse') throw new JobError(`malformed job: kind ${JSON.stringify(o.kind)} is not 'analyse'`);
  const g = o.game;
  if (g === null || typeof g !== 'object') throw new JobError('malformed job: game is missing');
  if (typeof g.fen !== 'string' || !Array.isArray(g.moves) || !Array.isArray(g.comments) || typeof g.result !== 'string')
    throw new JobError('malformed job: game needs fen, moves, comments and result');
  if (g.tags === null || typeof g.tags !== 'object') throw new JobError('malformed job: game.tags is not an object');
  const l = o.limits;
  if (l === null || typeof l !== 'object') throw new JobError('malformed job: limits is missing');
  for (const k of ['depth', 'nodes', 'movetime'] as const)
    if (l[k] !== undefined && !(Number.isInteger(l[k]) && (l[k] as number) > 0))
      throw new JobError(`malformed job: limits.${k} is not a positive whole number`);
  if (!(Number.isInteger(o.hashMb) && (o.hashMb as number) >= 1 && (o.hashMb as number) <= 4096))
    throw new JobError('malformed job: hashMb is not a whole number from 1 to 4096');
  if (o.threads !== undefined && !(Number.isInteger(o.threads) && (o.threads as number) >= 1 && (o.threads as number) <= 256))
    throw new JobError('malformed job: threads is not a whole number from 1 to 256');
  return o as AnalyseJob;
}

function recordFromJobGame(g: JobGame): PgnRecord {
  let pos: Position;
  try {
    pos = Position.fromFen(g.fen);
  } catch (e) {
    throw new JobError(`malformed job: game.fen: ${(e as Error).message}`);
  }
  const moves = g.moves.map((uci, i) => {
    try {
      const m = parseUciMove(pos, String(uci));
      pos.makeMove(m);
      return m;
    } catch (e) {
      throw new JobError(`malformed job: game.moves[${i}]: ${(e as Error).message}`);
    }
  });
  return { tags: g.tags, fen: g.fen, moves, comments: g.comments.map((c) => (typeof c === 'string' ? c : undefined)), result: g.result };
}

/** Runs one job (already parsed); `onProgress` gets the positions done and in all. */
export function runJob(job: Job, engine: Engine | undefined, onProgress?: (done: number, total: number) => void): JobResult {
  const record = recordFromJobGame(job.game);
  const { pgn, ...analysis } = analyseRecord(record, { ...job.limits, hashMb: job.hashMb, engine, onPosition: onProgress });
  return { kind: 'analyse', pgn, analysis };
}

/** Positions a job searches, for progress and ETA before it runs. */
export function jobSize(job: Job): number {
  return job.game.moves.length + 1;
}
