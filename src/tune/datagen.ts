/**
 * `matrix-chess tune datagen`: self-play training data for the learned evaluation, in resumable
 * shards of the binary game format (game-records.ts). Shard k holds games k·G … k·G+G−1 of the
 * run, and a game depends only on (seed, index, nodes, random plies, openings, engine), so a run
 * that is stopped and started again writes exactly the files an uninterrupted run would have.
 * Each shard is written to a temporary name and renamed when whole; a manifest records the run's
 * parameters and a restart with other parameters is refused. With --queue the missing shards go
 * to a Redis queue as `datagen-shard` jobs (src/jobs) and each is written as it comes back.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadNetworkArg } from './network-arg.js';
import { availableParallelism } from 'node:os';
import { parseCommandArgs, parseIntIn } from '../cmdline/args.js';
import { UsageError } from '../cmdline/errors.js';
import { createProgress } from '../cmdline/progress.js';
import { loadOpenings, OpeningError } from '../match/openings.js';
import { RECORD_VERSION, shardName } from './game-records.js';
import { networkCrc, playDatagenShard, type DatagenShardSpec } from './datagen-shard.js';

export const DATAGEN_USAGE = `  datagen  --out DIR --shards N [--games-per-shard 200] [--nodes 5000] [--seed 1]
           [--random-plies 4] [--workers N] [--openings data/openings/balanced.txt]
           [--nnue FILE (the learned evaluation plays; default the classical one)]
           [--queue redis://HOST:PORT (shards as jobs for 'matrix-chess worker' processes)]`;

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

/**
 * Runs shard jobs on a Redis queue (src/jobs/redis-queue.ts). The command line passes it in, so the
 * tuner never imports the job layer, which imports the tuner's shard player.
 */
export type ShardQueue = (
  url: string,
  jobs: Array<DatagenShardSpec & { kind: 'datagen-shard' }>,
  hooks: { onProgress(index: number, games: number): void; onDone(index: number, result: Error | { kind: string; data?: string }): void },
) => Promise<unknown>;

export async function datagenCommand(args: string[], out: (line: string) => void, loadQueue?: () => Promise<ShardQueue>): Promise<void> {
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
      queue: { type: 'string' },
    },
    0,
  );
  const nnueFile = values.nnue as string | undefined;
  let evalName = 'classical',
    nnueCrc = '';
  if (nnueFile !== undefined) {
    loadNetworkArg('tune datagen --nnue', nnueFile);
    nnueCrc = networkCrc(nnueFile);
    evalName = `${basename(nnueFile)} crc ${nnueCrc}`;
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
  try {
    loadOpenings(manifest.openings);
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
  const openingsText = readFileSync(manifest.openings, 'utf8');
  const spec = (shard: number): DatagenShardSpec => ({
    seed: manifest.seed,
    shard,
    gamesPerShard: manifest.gamesPerShard,
    nodes: manifest.nodes,
    randomPlies: manifest.randomPlies,
    openings: openingsText,
    ...(nnueFile ? { nnue: { file: nnueFile, crc32: nnueCrc } } : {}),
  });
  const write = (k: number, data: Buffer): void => {
    const path = join(dir, shardName(k));
    writeFileSync(path + '.tmp', data);
    renameSync(path + '.tmp', path);
  };
  const progress = createProgress('datagen');
  const total = todo.length * manifest.gamesPerShard;
  let done = 0,
    plies = 0,
    failed = 0;
  const t0 = Date.now();
  if (values.queue !== undefined) {
    // Progress counts games; a shard's progress replaces its earlier report, and plies are counted from the bytes.
    if (loadQueue === undefined) throw new UsageError('tune datagen: --queue is not available here');
    const runOnQueue = await loadQueue();
    const { decodeShard } = await import('./game-records.js');
    const doneByJob = new Int32Array(todo.length);
    await runOnQueue(
      values.queue as string,
      todo.map((k) => ({ kind: 'datagen-shard' as const, ...spec(k) })),
      {
        onProgress(i, games) {
          done += games - doneByJob[i];
          doneByJob[i] = games;
          progress.update(done, total);
        },
        onDone(i, r) {
          if (r instanceof Error || r.kind !== 'datagen-shard') {
            failed++;
            process.stderr.write(`matrix-chess tune datagen: shard ${todo[i]}: ${r instanceof Error ? r.message : `a ${r.kind} result`}\n`);
            return;
          }
          const data = Buffer.from(r.data ?? '', 'base64');
          write(todo[i], data);
          for (const g of decodeShard(data, shardName(todo[i]))) plies += g.moves.length;
          done += manifest.gamesPerShard - doneByJob[i];
          doneByJob[i] = manifest.gamesPerShard;
          progress.update(done, total);
        },
      },
    );
  } else {
    for (const k of todo)
      write(
        k,
        await playDatagenShard(spec(k), workers, (g) => {
          plies += g.moves.length;
          progress.update(++done, total);
        }),
      );
  }
  progress.finish();
  if (failed > 0) throw new Error(`tune datagen: ${failed} of ${todo.length} shards failed (run again to retry them)`);
  out(`${todo.length} shards, ${done} games, ${plies} positions in ${((Date.now() - t0) / 1000).toFixed(0)} s -> ${dir}`);
}
