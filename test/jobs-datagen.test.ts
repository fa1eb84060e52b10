/**
 * The `datagen-shard` job kind on the local pool: a shard played as a job is the file `tune
 * datagen` writes for that shard, byte for byte; a malformed datagen job is a typed failure
 * naming the field, and the pool carries on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jobId, type DatagenShardJob } from '../src/jobs/job.js';
import { JobFailed, LocalPool } from '../src/jobs/local-pool.js';
import { shardName } from '../src/tune/game-records.js';
import { networkCrc } from '../src/tune/datagen-shard.js';
import { crc32 } from '../src/core/crc32.js';

const BIN = fileURLToPath(new URL('../../bin/matrix-chess', import.meta.url));
const OPENINGS = fileURLToPath(new URL('../../data/openings/balanced.txt', import.meta.url));

test('a datagen-shard job on the local pool gives the bytes tune datagen writes; a malformed one fails alone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-datagen-'));
  const cli = spawnSync(
    process.execPath,
    [BIN, 'tune', 'datagen', '--out', dir, '--shards', '2', '--games-per-shard', '2', '--nodes', '200', '--seed', '7', '--workers', '1'],
    { encoding: 'utf8', env: { ...process.env, CI: 'true' } },
  );
  assert.equal(cli.status, 0, cli.stderr);
  const job: DatagenShardJob = {
    kind: 'datagen-shard',
    seed: 7,
    shard: 1,
    gamesPerShard: 2,
    nodes: 200,
    randomPlies: 4,
    openings: readFileSync(OPENINGS, 'utf8'),
  };
  const pool = new LocalPool(2);
  try {
    const progress: number[] = [];
    const [shard, bad] = await Promise.allSettled([pool.run(job, (done) => progress.push(done)), pool.run({ ...job, nodes: 5 })]);
    assert.equal(shard.status, 'fulfilled');
    const r = shard.value;
    assert.equal(r.kind, 'datagen-shard');
    if (r.kind !== 'datagen-shard') return;
    assert.equal(r.shard, 1);
    const expected = readFileSync(join(dir, shardName(1)));
    assert.ok(Buffer.from(r.data, 'base64').equals(expected), 'the job played the same shard file');
    assert.ok(!Buffer.from(r.data, 'base64').equals(readFileSync(join(dir, shardName(0)))), 'shards differ');
    assert.equal(progress.at(-1), 2, 'progress counts games up to the shard size');

    assert.equal(bad.status, 'rejected');
    const e = bad.reason as JobFailed;
    assert.ok(e instanceof JobFailed);
    assert.equal(e.malformed, true);
    assert.equal(e.message, 'malformed job: nodes is not a whole number from 100 to 100000000');
    await assert.rejects(
      pool.run({ ...job, openings: 'e2e5' }),
      (x: JobFailed) => x.malformed && /^malformed job: openings:1/.test(x.message),
    );
  } finally {
    await pool.close();
  }
  // Another shard or seed is another job; the same content is the same id.
  assert.equal(jobId({ ...job }), jobId(job));
  assert.notEqual(jobId({ ...job, shard: 0 }), jobId(job));
  assert.notEqual(jobId({ ...job, seed: 8 }), jobId(job));
});

test('networkCrc tells networks apart: it is the checksum the file stores, not the CRC of the whole file', () => {
  const shipped = fileURLToPath(new URL('../../weights/nnue.bin', import.meta.url));
  const bytes = readFileSync(shipped);
  assert.equal(networkCrc(shipped), bytes.readUInt32LE(bytes.length - 4).toString(16));
  // Another network: one weight changed, checksum rewritten.
  const other = Buffer.from(bytes);
  other[200] ^= 1;
  other.writeUInt32LE(crc32(other.subarray(0, other.length - 4)), other.length - 4);
  const file = join(mkdtempSync(join(tmpdir(), 'network-crc-')), 'other.bin');
  writeFileSync(file, other);
  assert.notEqual(networkCrc(file), networkCrc(shipped));
  // What the old definition returned for both: CRC-32's residue, the same for every valid file.
  assert.equal(crc32(bytes).toString(16), crc32(other).toString(16));
});
