/**
 * The job queue against a real Redis (Debian's redis-server, started here on a free loopback
 * port): games analysed by three worker processes equal the single-process output byte for
 * byte; a worker killed in the middle of a job loses nothing (its job is retried elsewhere);
 * a malformed job is reported and skipped; an unreachable Redis is one line and exit 1. The
 * datagen-shard kind: `tune datagen --queue` with two workers writes the shard files of a local run.
 * The selfplay-pair kind: `engine-selfplay --queue` with two workers prints the local run's results.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { jobId } from '../../src/jobs/job.js';
import { probeRedis, QUEUE_NAME } from '../../src/jobs/redis-queue.js';

const BIN = fileURLToPath(new URL('../../../bin/matrix-chess', import.meta.url));
const SELFPLAY = fileURLToPath(new URL('../../bench/engine-selfplay.js', import.meta.url));
const MATCH_PGN = fileURLToPath(new URL('../../../data/matches/matrixchess-14bd57e-vs-sf15.1-elo2000-10+0.1-200.pgn', import.meta.url));
const ENV = { ...process.env, CI: 'true' };

let port = 0;
let redis: ChildProcess | undefined;
const children: ChildProcess[] = [];
const clients: Redis[] = [];
const dir = mkdtempSync(join(tmpdir(), 'jobs-queue-'));
const games = join(dir, 'games.pgn');
// Long games for the killed-worker run, so a job lasts long enough to be caught in the middle.
const longGames = join(dir, 'long-games.pgn');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

before(async () => {
  // Four short games of a match file (the shortest, so the test stays fast).
  const all = readFileSync(MATCH_PGN, 'utf8').split(/\n(?=\[Event )/);
  const short = all.filter((g) => /\[PlyCount "(\d+)"\]/.exec(g) && Number(/\[PlyCount "(\d+)"\]/.exec(g)![1]) < 60).slice(0, 4);
  assert.equal(short.length, 4);
  writeFileSync(games, short.join('\n'));
  const long = all.filter((g) => /\[PlyCount "(\d+)"\]/.exec(g) && Number(/\[PlyCount "(\d+)"\]/.exec(g)![1]) >= 120).slice(0, 3);
  assert.equal(long.length, 3);
  writeFileSync(longGames, long.join('\n'));
  port = await freePort();
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const spawned = new Promise<never>((_, reject) =>
    redis!.on('error', (e) => reject(new Error(`redis-server did not start (.ci/run installs it): ${e.message}`))),
  );
  for (let i = 0; ; i++) {
    try {
      await Promise.race([probeRedis({ host: '127.0.0.1', port }), spawned]);
      break;
    } catch (e) {
      if (i > 50 || !/ECONNREFUSED/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});

after(() => {
  for (const c of clients) c.disconnect();
  for (const c of children) c.kill('SIGKILL');
  redis?.kill('SIGTERM');
});

function startWorker(): { child: ChildProcess; log: () => string } {
  const child = spawn(
    process.execPath,
    [BIN, 'worker', '--queue', `redis://127.0.0.1:${port}`, '--lock-duration', '1000', '--stalled-interval', '500'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: ENV,
    },
  );
  children.push(child);
  let text = '';
  child.stderr!.on('data', (d) => (text += d));
  return { child, log: () => text };
}

/** Runs `node ARGS` to the end (killed with the others after the tests), capturing its output. */
function runNode(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: ENV });
    children.push(child);
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function analyse(extra: string[], file = games): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return runNode([BIN, 'analyse', file, '--nodes', '800', ...extra]);
}

async function flush(): Promise<void> {
  const r = new Redis({ host: '127.0.0.1', port });
  clients.push(r);
  await r.flushall();
}

test('three worker processes give the single-process output byte for byte; a worker killed mid-job loses nothing; a malformed job is skipped', async () => {
  const local = await analyse([]);
  assert.equal(local.status, 0, local.stderr);
  assert.equal((local.stdout.match(/\[Event /g) ?? []).length, 4);

  const workers = [startWorker(), startWorker(), startWorker()];
  const queued = await analyse(['--queue', `redis://127.0.0.1:${port}`]);
  assert.equal(queued.status, 0, queued.stderr);
  assert.equal(queued.stdout, local.stdout);
  assert.ok(workers.filter((w) => /job \S+ done/.test(w.log())).length >= 2, 'the jobs were shared among the workers');

  // Again from an empty Redis, long games, a malformed job waiting first, and a worker killed in
  // the middle of a job: frozen (SIGSTOP) the moment it reports a job started, killed if that job
  // is still unfinished (else let go on: a loaded machine may have finished it meanwhile).
  const longLocal = await analyse([], longGames);
  assert.equal(longLocal.status, 0, longLocal.stderr);
  await flush();
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null });
  clients.push(client);
  const queue = new Queue(QUEUE_NAME, { connection: client });
  await queue.add('job', { kind: 'nonsense' }, { jobId: 'job-malformed', attempts: 3 });
  const marks = workers.map((w) => w.log().length);
  const run = analyse(['--queue', `redis://127.0.0.1:${port}`], longGames);
  let killedJob = '',
    victim = -1;
  const seen = new Set<string>();
  for (let i = 0; i < 1200 && killedJob === ''; i++) {
    let found = false;
    for (let w = 0; w < workers.length && killedJob === '' && !found; w++) {
      const started = [
        ...workers[w]
          .log()
          .slice(marks[w])
          .matchAll(/job (job-[0-9a-f]+) started/g),
      ]
        .map((m) => m[1])
        .find((j) => !seen.has(j));
      if (started === undefined) continue;
      found = true;
      seen.add(started);
      workers[w].child.kill('SIGSTOP');
      await new Promise((r) => setTimeout(r, 50)); // the last lines it wrote before stopping
      if (workers[w].log().includes(`job ${started} done`)) workers[w].child.kill('SIGCONT');
      else {
        workers[w].child.kill('SIGKILL');
        killedJob = started;
        victim = w;
      }
    }
    if (!found) await new Promise((r) => setTimeout(r, 25));
  }
  assert.notEqual(killedJob, '', 'a worker was stopped in the middle of a job');
  const result = await run;
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, longLocal.stdout);
  assert.ok(!workers[victim].log().includes(`job ${killedJob} done`), 'the killed worker did not finish its job');
  assert.ok(
    workers.some((w, i) => i !== victim && w.log().includes(`job ${killedJob} done`)),
    'another worker finished the killed job',
  );
  // The malformed job failed once, for good, and was named in a worker's log.
  const bad = await queue.getJob('job-malformed');
  assert.equal(await bad!.getState(), 'failed');
  assert.equal(bad!.attemptsMade, 1);
  assert.ok(workers.some((w) => /job job-malformed failed: malformed job: kind "nonsense"/.test(w.log())));
  await queue.close();
});

function datagen(out: string, extra: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const args = [
      'tune',
      'datagen',
      '--out',
      out,
      '--shards',
      '2',
      '--games-per-shard',
      '2',
      '--nodes',
      '200',
      '--seed',
      '3',
      '--workers',
      '1',
    ];
    const child = spawn(process.execPath, [BIN, ...args, ...extra], { stdio: ['ignore', 'pipe', 'pipe'], env: ENV });
    children.push(child);
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('tune datagen --queue: two workers write the shard files of the local run; a malformed datagen job is skipped; a rerun is answered from Redis', async () => {
  const local = join(dir, 'datagen-local'),
    queued = join(dir, 'datagen-queued');
  // Two workers of their own (the earlier test's are stopped), starting while the local run plays.
  for (const c of children) c.kill('SIGKILL');
  await flush();
  const workers = [startWorker(), startWorker()];
  const localRun = await datagen(local, []);
  assert.equal(localRun.status, 0, localRun.stderr);
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null });
  clients.push(client);
  const queue = new Queue(QUEUE_NAME, { connection: client });
  await queue.add('job', { kind: 'datagen-shard', seed: 3, shard: 0, gamesPerShard: 0 }, { jobId: 'job-bad-shard', attempts: 3 });
  const run = await datagen(queued, ['--queue', `redis://127.0.0.1:${port}`]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^0 of 2 shards already in .*; 2 to play\n2 shards, 4 games, \d+ positions in/);
  const files = readdirSync(local).sort();
  assert.deepEqual(files, ['manifest.json', 'shard-00000.mcgr.gz', 'shard-00001.mcgr.gz']);
  assert.deepEqual(readdirSync(queued).sort(), files);
  for (const f of files) assert.ok(readFileSync(join(queued, f)).equals(readFileSync(join(local, f))), `${f} is the local run's`);
  const done = workers.map((w) => [...w.log().matchAll(/job (job-[0-9a-f]+) done/g)].map((m) => m[1]));
  const openings = readFileSync(fileURLToPath(new URL('../../../data/openings/balanced.txt', import.meta.url)), 'utf8');
  const shardJob = (shard: number): string =>
    jobId({ kind: 'datagen-shard', seed: 3, shard, gamesPerShard: 2, nodes: 200, randomPlies: 4, openings });
  assert.deepEqual(done.flat().sort(), [shardJob(0), shardJob(1)].sort(), 'the two shard jobs were played once each, by the workers');

  const bad = await queue.getJob('job-bad-shard');
  assert.equal(await bad!.getState(), 'failed');
  assert.equal(bad!.attemptsMade, 1);
  assert.ok(
    workers.some((w) => /job job-bad-shard failed: malformed job: gamesPerShard is not a whole number from 1 to 100000/.test(w.log())),
  );

  // A shard lost on this side is sent again and answered from Redis (same content, same id): no worker plays it.
  rmSync(join(queued, 'shard-00001.mcgr.gz'));
  const rerun = await datagen(queued, ['--queue', `redis://127.0.0.1:${port}`]);
  assert.equal(rerun.status, 0, rerun.stderr);
  assert.match(rerun.stdout, /^1 of 2 shards already in .*; 1 to play\n/);
  assert.ok(readFileSync(join(queued, 'shard-00001.mcgr.gz')).equals(readFileSync(join(local, 'shard-00001.mcgr.gz'))));
  assert.equal(
    workers.map((w) => [...w.log().matchAll(/job \S+ done/g)].length).reduce((a, b) => a + b),
    2,
    'no shard played twice',
  );
  await queue.close();
});

test('engine-selfplay --queue: two workers play the pairs of the local run, gathered in pair order; a malformed pair job is skipped', async () => {
  for (const c of children) c.kill('SIGKILL');
  await flush();
  const workers = [startWorker(), startWorker()];
  const args = [SELFPLAY, '--variant', 'no-lmp', '--nodes', '150', '--pairs', '3', '--seed', '5'];
  const local = spawnSync(process.execPath, args, { encoding: 'utf8', env: ENV });
  assert.equal(local.status, 0, local.stderr);
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null });
  clients.push(client);
  const queue = new Queue(QUEUE_NAME, { connection: client });
  await queue.add('job', { kind: 'selfplay-pair', seed: 5, pair: 0, nodes: 150, test: { variant: 'nope' } }, { jobId: 'job-bad-pair' });
  const queued = await runNode([...args, '--queue', `redis://127.0.0.1:${port}`]);
  assert.equal(queued.status, 0, queued.stderr);
  // The same summary: what played and the count of the same games.
  assert.match(local.stdout, /\nfinal: 6 games, /);
  assert.equal(queued.stdout, local.stdout);
  const pairJob = (pair: number): string =>
    jobId({ kind: 'selfplay-pair', seed: 5, pair, nodes: 150, test: { variant: 'no-lmp' }, base: { variant: 'base' } });
  const done = workers.map((w) => [...w.log().matchAll(/job (job-[0-9a-f]+) done/g)].map((m) => m[1]));
  assert.deepEqual(done.flat().sort(), [0, 1, 2].map(pairJob).sort(), 'the three pair jobs were played once each, by the workers');
  assert.ok(workers.some((w) => /job job-bad-pair failed: malformed job: test.variant "nope" is not a known variant/.test(w.log())));
  // Under an SPRT the pairs go out in chunks (here 2, then 1): the same lines as in process.
  const sprtArgs = [...args, '--sprt', 'elo0=0 elo1=10'];
  const sprtLocal = spawnSync(process.execPath, sprtArgs, { encoding: 'utf8', env: ENV });
  assert.equal(sprtLocal.status, 0, sprtLocal.stderr);
  const sprtQueued = await runNode([...sprtArgs, '--queue-chunk', '2', '--queue', `redis://127.0.0.1:${port}`]);
  assert.equal(sprtQueued.status, 0, sprtQueued.stderr);
  assert.match(sprtLocal.stdout, /\nsprt: no decision after 6 games \(--pairs 3\)\n$/);
  assert.equal(sprtQueued.stdout, sprtLocal.stdout);
  await queue.close();
});

test('an unreachable Redis is one line and exit status 1, for analyse and worker', async () => {
  const closed = await freePort();
  for (const args of [
    ['analyse', games, '--queue', `redis://127.0.0.1:${closed}`],
    ['worker', '--queue', `redis://127.0.0.1:${closed}`],
  ]) {
    const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000, env: ENV });
    assert.equal(r.status, 1, args.join(' '));
    assert.equal(r.stderr, `matrix-chess: cannot reach Redis at 127.0.0.1:${closed}: ECONNREFUSED\n`);
  }
});
