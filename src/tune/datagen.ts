/**
 * `matrix-chess tune datagen`: self-play training data for the learned evaluation, in resumable
 * shards of the binary game format (game-records.ts). Shard k holds games k·G … k·G+G−1 of the
 * run, and a game depends only on (seed, index, nodes, random plies, openings, engine), so a run
 * that is stopped and started again writes exactly the files an uninterrupted run would have.
 * Each shard is written to a temporary name and renamed when whole; a manifest records the run's
 * parameters and a restart with other parameters is refused.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32 } from '../core/crc32.js';
import { loadNetwork, NnueFileError } from '../engine/nnue/network.js';
import { availableParallelism } from 'node:os';
import { parseCommandArgs, parseIntIn } from '../cmdline/args.js';
import { UsageError } from '../cmdline/errors.js';
import { createProgress } from '../cmdline/progress.js';
import { loadOpenings, OpeningError } from '../match/openings.js';
import { runSelfplay } from './selfplay-run.js';
import { encodeShard, RECORD_VERSION, type GameRecord } from './game-records.js';
import type { SelfplayGame } from './selfplay.js';

export const DATAGEN_USAGE = `  datagen  --out DIR --shards N [--games-per-shard 200] [--nodes 5000] [--seed 1]
           [--random-plies 4] [--workers N] [--openings data/openings/balanced.txt]
           [--nnue FILE (the learned evaluation plays; default the classical one)]`;

interface Manifest {
  format: string;
  seed: number;
  nodes: number;
  randomPlies: number;
  gamesPerShard: number;
  openings: string;
  /** 'classical', or the network file and its CRC-32 (the data depends on the exact network). */
  eval: string;
}

export const shardName = (k: number): string => `shard-${String(k).padStart(5, '0')}.mcgr.gz`;

function toRecord(g: SelfplayGame): GameRecord {
  const result = g.result === '1-0' ? 2 : g.result === '0-1' ? 0 : 1;
  const termination = g.termination.startsWith('adjudicated') ? 1 : g.termination === 'ply limit' ? 2 : 0;
  return { fen: g.fen, result, termination, moves: g.moves, scores: g.scores };
}

export async function datagenCommand(args: string[], out: (line: string) => void): Promise<void> {
  const { values } = parseCommandArgs(
    'tune datagen',
    args,
    {
      out: { type: 'string' },
      shards: { type: 'string' },
      'games-per-shard': { type: 'string' },
      nodes: { type: 'string' },
      seed: { type: 'string' },
      'random-plies': { type: 'string' },
      workers: { type: 'string' },
      openings: { type: 'string' },
      nnue: { type: 'string' },
    },
    0,
  );
  const nnueFile = values.nnue as string | undefined;
  let evalName = 'classical';
  if (nnueFile !== undefined) {
    try {
      loadNetwork(nnueFile);
    } catch (e) {
      if (e instanceof NnueFileError) throw new UsageError(`tune datagen --nnue: ${e.message}`);
      throw e;
    }
    evalName = `${basename(nnueFile)} crc ${crc32(readFileSync(nnueFile)).toString(16)}`;
  }
  const dir = values.out as string | undefined;
  if (!dir) throw new UsageError('tune datagen: --out DIR is required');
  const shards = parseIntIn('--shards', values.shards as string | undefined, 1, 100_000);
  const opt = (name: string, dflt: number, min: number, max: number): number =>
    values[name] === undefined ? dflt : parseIntIn(`--${name}`, values[name] as string, min, max);
  const manifest: Manifest = {
    format: `mcgr-v${RECORD_VERSION}`,
    seed: opt('seed', 1, 0, 0xffffffff),
    nodes: opt('nodes', 5000, 100, 100_000_000),
    randomPlies: opt('random-plies', 4, 0, 40),
    gamesPerShard: opt('games-per-shard', 200, 1, 100_000),
    openings: (values.openings as string | undefined) ?? 'data/openings/balanced.txt',
    eval: evalName,
  };
  const workers = opt('workers', Math.min(2, availableParallelism()), 1, 256);
  let openings;
  try {
    openings = loadOpenings(manifest.openings);
  } catch (e) {
    if (e instanceof OpeningError) throw new UsageError(`tune datagen: ${e.message}`);
    throw e;
  }
  mkdirSync(dir, { recursive: true });
  const manifestPath = join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const old = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    old.eval ??= 'classical'; // manifests written before --nnue existed
    for (const key of Object.keys(manifest) as (keyof Manifest)[]) {
      if (old[key] !== manifest[key])
        throw new UsageError(
          `tune datagen: ${dir} was started with ${key} ${JSON.stringify(old[key])}, not ${JSON.stringify(manifest[key])}: use another --out or the same parameters`,
        );
    }
  } else {
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  }
  const todo: number[] = [];
  for (let k = 0; k < shards; k++) if (!existsSync(join(dir, shardName(k)))) todo.push(k);
  out(`${shards - todo.length} of ${shards} shards already in ${dir}; ${todo.length} to play`);
  const progress = createProgress('datagen');
  const total = todo.length * manifest.gamesPerShard;
  let done = 0,
    plies = 0;
  const t0 = Date.now();
  for (const k of todo) {
    const games: GameRecord[] = [];
    await runSelfplay({
      games: manifest.gamesPerShard,
      firstIndex: k * manifest.gamesPerShard,
      nodes: manifest.nodes,
      seed: manifest.seed,
      randomPlies: manifest.randomPlies,
      openings,
      workers,
      ...(nnueFile ? { nnueFile } : {}),
      onGame(g) {
        games.push(toRecord(g));
        plies += g.moves.length;
        progress.update(++done, total);
      },
    });
    const path = join(dir, shardName(k));
    writeFileSync(path + '.tmp', encodeShard(games));
    renameSync(path + '.tmp', path);
  }
  progress.finish();
  out(`${todo.length} shards, ${done} games, ${plies} positions in ${((Date.now() - t0) / 1000).toFixed(0)} s -> ${dir}`);
}
