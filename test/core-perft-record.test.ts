/**
 * The perft record file: lines round-trip, a malformed or self-contradicting line is a typed
 * error naming its line, an incomplete last line is ignored by readers and dropped by the next
 * writer, and the summary totals by suite, backend and depth.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PERFT_RECORD_HEADER,
  PerftRecordError,
  fenChecksum,
  formatRecordLine,
  parsePerftRecord,
  summarizePerftRecord,
  type PerftRecordEntry,
} from '../src/core/perft-record.js';
import { PerftRecorder, readPerftRecord } from '../scripts/perft-files.js';

const entry = (over: Partial<PerftRecordEntry> = {}): PerftRecordEntry => ({
  suite: 'chess960',
  backend: 'bitboard',
  depth: 6,
  position: 17,
  fenCrc: fenChecksum('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'),
  count: 119060324,
  expected: 119060324,
  result: 'ok',
  wallSeconds: 25.314,
  cpuSeconds: 24.9,
  hashMb: 256,
  ...over,
});

function withDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'perft-record-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a record line is short, round-trips, and states count, expected, verdict, times, rate and table', () => {
  const line = formatRecordLine(entry());
  assert.match(line, /^chess960 bitboard 6 17 [0-9a-f]{8} 119060324 119060324 ok 25\.31 24\.90 4\.70 h256$/);
  assert.ok(line.length < 90, `${line.length} characters`);
  const back = parsePerftRecord(`# header\n${line}\n`).entries[0];
  assert.deepEqual(back, { ...entry(), wallSeconds: 25.31 });
  const err = formatRecordLine(entry({ count: null, result: 'error', hashMb: 0 }));
  assert.match(err, / - 119060324 error .* -$/);
  assert.equal(parsePerftRecord(err + '\n').entries[0].count, null);
});

test('a malformed or self-contradicting line is a PerftRecordError naming the line and the field', () => {
  const good = formatRecordLine(entry());
  const cases: Array<[string, RegExp]> = [
    [good.replace(' h256', ''), /^rec:2: expected 12 fields, got 11$/],
    [good.replace(' 6 17 ', ' six 17 '), /^rec:2: depth: expected a depth from 1, got 'six'$/],
    [good.replace(/ [0-9a-f]{8} /, ' xyz '), /^rec:2: fen checksum: expected 8 hex digits, got 'xyz'$/],
    [good.replace(' ok ', ' fine '), /^rec:2: result: expected ok, mismatch or error, got 'fine'$/],
    // A hand edit cannot make a wrong count pass.
    [
      good.replace('119060324 119060324', '119060323 119060324'),
      /^rec:2: result: expected 'mismatch' for count 119060323 and expected 119060324, got 'ok'$/,
    ],
    [good.replace(' h256', ' h0'), /^rec:2: hash: expected h<MB> or '-', got 'h0'$/],
  ];
  for (const [line, message] of cases) {
    assert.throws(
      () => parsePerftRecord(`# ok\n${line}\n`, 'rec'),
      (e: Error) => e instanceof PerftRecordError && message.test(e.message),
      line,
    );
  }
  // The same entry twice with another count is a contradiction; with the same count it is counted once.
  const twice = parsePerftRecord(`${good}\n${good}\n`, 'rec');
  assert.equal(twice.entries.length, 1);
  assert.match(twice.notes.join(), /1 entries recorded twice/);
  assert.throws(
    () => parsePerftRecord(`${good}\n${formatRecordLine(entry({ count: 5, result: 'mismatch' }))}\n`, 'rec'),
    /rec:2: .* recorded again/,
  );
});

test('an incomplete last line is ignored by a reader and dropped by the next writer, with a note', () => {
  withDir((dir) => {
    const path = join(dir, 'r.txt');
    const first = formatRecordLine(entry({ position: 1 }));
    const cut = formatRecordLine(entry({ position: 2 })).slice(0, 30);
    writeFileSync(path, `${first}\n${cut}`);
    const read = readPerftRecord(path);
    assert.deepEqual(
      read.entries.map((e) => e.position),
      [1],
    );
    assert.match(read.notes.join(), /ignored an incomplete last line/);

    const rec = new PerftRecorder(path);
    assert.match(rec.note ?? '', /dropped an incomplete last line/);
    rec.append(entry({ position: 3 }));
    rec.close();
    assert.equal(readFileSync(path, 'utf8'), `${first}\n${formatRecordLine(entry({ position: 3 }))}\n`);
    assert.equal(new PerftRecorder(path).note, undefined, 'a clean file opens without a note');

    // A file that is one cut line and nothing else becomes empty.
    appendFileSync(join(dir, 'only.txt'), cut);
    new PerftRecorder(join(dir, 'only.txt')).close();
    assert.equal(readFileSync(join(dir, 'only.txt'), 'utf8'), PERFT_RECORD_HEADER + '\n', 'a new record starts with the header');
    assert.deepEqual(readPerftRecord(join(dir, 'absent.txt')), { entries: [], notes: [] });
  });
});

test('the summary totals done, nodes, mismatches, errors, times and hashed entries by suite, backend and depth', () => {
  const rows = summarizePerftRecord([
    entry({ position: 1, count: 10, expected: 10, cpuSeconds: 1, wallSeconds: 2 }),
    entry({ position: 2, count: 11, expected: 12, result: 'mismatch', cpuSeconds: 2, wallSeconds: 3, hashMb: 0 }),
    entry({ position: 3, count: null, expected: 12, result: 'error', cpuSeconds: 0.5, wallSeconds: 0.5 }),
    entry({ backend: 'matrix', position: 1, count: 10, expected: 10, cpuSeconds: 4, wallSeconds: 5 }),
  ]);
  assert.deepEqual(rows, [
    {
      suite: 'chess960',
      backend: 'bitboard',
      depth: 6,
      done: 3,
      mismatches: 1,
      errors: 1,
      nodes: 21,
      cpuSeconds: 3.5,
      wallSeconds: 5.5,
      hashed: 2,
    },
    {
      suite: 'chess960',
      backend: 'matrix',
      depth: 6,
      done: 1,
      mismatches: 0,
      errors: 0,
      nodes: 10,
      cpuSeconds: 4,
      wallSeconds: 5,
      hashed: 1,
    },
  ]);
});
