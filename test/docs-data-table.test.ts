/**
 * The self-play data table of docs/nnue.md is generated (scripts/nnue-data-table.ts) and must be
 * what the committed data gives; the shard counter it uses agrees with the full decoder.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { countShard, decodeShard, encodeShard, shardName } from '../src/tune/game-records.js';
import {
  DATA_TABLE_BEGIN,
  DATA_TABLE_END,
  DATA_TABLE_PAGE,
  DataTableError,
  generatedPage,
  readDataFolders,
  readFolderNotes,
  renderDataTable,
  shardRanges,
  withDataTable,
} from '../scripts/nnue-data-table.js';

const SAMPLE = fileURLToPath(new URL('../../test/data/nnue-sample.mcgr.gz', import.meta.url));

test('countShard gives the games and plies that decodeShard decodes, and refuses what decodeShard refuses', () => {
  const bytes = readFileSync(SAMPLE);
  const games = decodeShard(bytes, SAMPLE);
  const plies = games.reduce((sum, g) => sum + g.moves.length, 0);
  assert.deepEqual(countShard(bytes, SAMPLE), { games: games.length, positions: plies });
  assert.deepEqual(countShard(encodeShard(games.slice(0, 7))), {
    games: 7,
    positions: games.slice(0, 7).reduce((s, g) => s + g.moves.length, 0),
  });
  assert.throws(() => countShard(bytes.subarray(0, 100), 'cut.gz'), /cut\.gz/);
  // A header that promises one game more than the shard holds.
  const unpacked = gunzipSync(bytes);
  unpacked.writeUInt32LE(games.length + 1, 8);
  const gz = gzipSync(unpacked);
  assert.throws(() => countShard(gz, 'more.gz'), /more\.gz: truncated at byte \d+ \(game 100 header\)/);
  assert.throws(() => decodeShard(gz, 'more.gz'), /more\.gz: truncated at byte \d+ \(game 100 header\)/);
  const trailing = gzipSync(Buffer.concat([gunzipSync(bytes), Buffer.from([0, 0])]));
  assert.throws(() => countShard(trailing, 'tail.gz'), /tail\.gz: 2 bytes after the last game/);
});

test('shard ranges: runs of consecutive numbers', () => {
  assert.equal(shardRanges([0, 1, 2, 3]), '0–3');
  assert.equal(shardRanges([0, 1, 2, 5, 7, 8]), '0–2, 5, 7–8');
  assert.equal(shardRanges([4]), '4');
  assert.equal(shardRanges([]), 'none');
});

test('the table counts only the shards git tracks, and every folder needs its line in folders.json', () => {
  const root = mkdtempSync(join(tmpdir(), 'mc-data-table-'));
  try {
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    const folder = join(root, 'data/nnue/selfplay-test-s9');
    mkdirSync(folder, { recursive: true });
    const manifest = {
      format: 'mcgr-v1',
      seed: 9,
      nodes: 700,
      randomPlies: 4,
      gamesPerShard: 100,
      openings: 'x.txt',
      eval: 'network.bin crc 1a2b',
    };
    writeFileSync(join(folder, 'manifest.json'), JSON.stringify(manifest));
    const shard = readFileSync(SAMPLE);
    for (const k of [0, 1, 3, 4]) writeFileSync(join(folder, shardName(k)), shard);
    writeFileSync(join(folder, 'shard-00004.mcgr.gz.tmp'), 'half written');
    git(
      'add',
      'data/nnue/selfplay-test-s9/manifest.json',
      `data/nnue/selfplay-test-s9/${shardName(0)}`,
      `data/nnue/selfplay-test-s9/${shardName(1)}`,
      `data/nnue/selfplay-test-s9/${shardName(3)}`,
    );
    // Shard 4 is in the folder but not committed: a data generator is still writing.
    const folders = readDataFolders(root);
    const { games, positions } = countShard(shard);
    assert.deepEqual(folders, [
      {
        name: 'selfplay-test-s9',
        seed: 9,
        nodes: 700,
        gamesPerShard: 100,
        randomPlies: 4,
        openings: 'x.txt',
        networkCrc: '1a2b',
        shards: [0, 1, 3],
        games: 3 * games,
        positions: 3 * positions,
      },
    ]);
    const table = renderDataTable(folders, { 'selfplay-test-s9': 'a test network' });
    assert.match(table, /^Every folder: 100 games a shard, 4 random plies after the opening, openings `x\.txt`\./);
    assert.ok(
      table.includes(`| \`selfplay-test-s9\` | a test network | 9 | 700 | 1a2b | 0–1, 3 | ${(3 * games).toLocaleString('en-US')} |`),
      table,
    );
    assert.throws(() => renderDataTable(folders, {}), /folders\.json: no description of data\/nnue\/selfplay-test-s9/);
    assert.throws(
      () => renderDataTable(folders, { 'selfplay-test-s9': 'x', 'selfplay-gone-s1': 'y' }),
      /selfplay-gone-s1 is not a data folder/,
    );
    writeFileSync(join(folder, 'manifest.json'), JSON.stringify({ ...manifest, nodes: 'many' }));
    assert.throws(
      () => readDataFolders(root),
      (e: Error) => e instanceof DataTableError && /manifest\.json: field 'nodes' should be a whole number/.test(e.message),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the page keeps everything outside its markers, and a page without them is refused', () => {
  const page = `intro\n${DATA_TABLE_BEGIN}\nold table\n${DATA_TABLE_END}\nrest\n`;
  assert.equal(withDataTable(page, 'T'), `intro\n${DATA_TABLE_BEGIN}\n\nT\n\n${DATA_TABLE_END}\nrest\n`);
  assert.throws(() => withDataTable('no markers', 'T'), /expected the marker lines/);
  assert.throws(() => withDataTable(`${DATA_TABLE_END}\n${DATA_TABLE_BEGIN}`, 'T'), /in that order/);
});

test(`${DATA_TABLE_PAGE}'s data table is what the committed data in data/nnue gives (npm run docs:data rewrites it)`, () => {
  const notes = readFolderNotes();
  assert.ok(Object.keys(notes).length > 0);
  const { current, generated } = generatedPage();
  assert.ok(current === generated, `${DATA_TABLE_PAGE}'s data table is stale: run npm run docs:data after committing shards`);
});
