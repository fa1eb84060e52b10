/**
 * One shard of `matrix-chess tune datagen`: everything its bytes depend on, as plain JSON, and
 * the one function that plays it. `tune datagen` calls it for each missing shard on local
 * threads; a `datagen-shard` job (src/jobs) calls it on whichever machine takes the job, so a
 * shard is the same file byte for byte wherever it was played.
 */
import { readFileSync } from 'node:fs';
import { crc32 } from '../core/crc32.js';
import { parseOpenings } from '../match/openings.js';
import { runSelfplay } from './selfplay/run.js';
import { encodeShard, type GameRecord } from './game-records.js';
import type { SelfplayGame } from './selfplay/game.js';

export interface DatagenShardSpec {
  seed: number;
  /** Shard k holds games k·gamesPerShard … k·gamesPerShard + gamesPerShard − 1 of the run. */
  shard: number;
  gamesPerShard: number;
  nodes: number;
  randomPlies: number;
  /** The openings file's text, so another machine needs no copy of the file. */
  openings: string;
  /** The learned evaluation: a network file on the playing machine and the CRC-32 (hex) it must have. */
  nnue?: { file: string; crc32: string };
}

export class DatagenShardError extends Error {
  override readonly name = 'DatagenShardError';
}

/**
 * A network's identity as the manifests and the jobs write it: the CRC-32 of the file before its
 * last four bytes, which for a valid network file is the checksum stored there. (The CRC-32 of a
 * whole file that ends in its own CRC-32 is the same constant, 2144df1c, for every such file.)
 */
export function networkCrc(file: string): string {
  const bytes = readFileSync(file);
  return crc32(bytes.subarray(0, Math.max(0, bytes.length - 4))).toString(16);
}

/**
 * A network named by a run or a job must be on this machine with the CRC-32 the run wants: the
 * results depend on the exact network, and another file under the same name would poison them.
 */
export function checkNetwork(nnue: { file: string; crc32: string }): void {
  let crc: string;
  try {
    crc = networkCrc(nnue.file);
  } catch (e) {
    throw new DatagenShardError(`network '${nnue.file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} on this machine`);
  }
  if (crc !== nnue.crc32) throw new DatagenShardError(`network '${nnue.file}' has CRC-32 ${crc} here, the run wants ${nnue.crc32}`);
}

function toRecord(g: SelfplayGame): GameRecord {
  const result = g.result === '1-0' ? 2 : g.result === '0-1' ? 0 : 1;
  const termination = g.termination.startsWith('adjudicated') ? 1 : g.termination === 'ply limit' ? 2 : 0;
  return { fen: g.fen, result, termination, moves: g.moves, scores: g.scores };
}

/** Plays the shard's games on `workers` threads and returns the shard file's bytes; `onGame` after each game, in order. */
export async function playDatagenShard(spec: DatagenShardSpec, workers: number, onGame?: (g: SelfplayGame) => void): Promise<Buffer> {
  if (spec.nnue !== undefined) checkNetwork(spec.nnue);
  const games: GameRecord[] = [];
  await runSelfplay({
    games: spec.gamesPerShard,
    firstIndex: spec.shard * spec.gamesPerShard,
    nodes: spec.nodes,
    seed: spec.seed,
    randomPlies: spec.randomPlies,
    openings: parseOpenings(spec.openings),
    workers,
    ...(spec.nnue ? { nnueFile: spec.nnue.file } : {}),
    onGame(g) {
      games.push(toRecord(g));
      onGame?.(g);
    },
  });
  return encodeShard(games);
}
