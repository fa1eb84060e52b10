/**
 * The perft-suite script's contract: totals and exit 0 when every count matches, one MISMATCH
 * line and exit 1 when one does not, one line on stderr and exit 2 for bad usage; a recorded run
 * writes one line per count, resumes where it stopped (an incomplete last line dropped), and the
 * summary totals the record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPerftEpd, standardSuitePath } from '../scripts/perft-files.js';
import { BACKEND_NAMES } from '../src/backends.js';

const SCRIPT = fileURLToPath(new URL('../scripts/perft-suite.js', import.meta.url));

function suite(...args: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('perft-suite passes a slice of the standard file and reports totals', () => {
  const r = suite('--positions', '2-4', '--depth', '2');
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /positions 2-4 of 128, depths up to 2/);
  assert.match(r.out, /^OK: \d+ counts on 3 positions, [\d,]+ nodes in [\d.]+ s, [\d.]+ M nodes\/s$/m);
  assert.equal(r.err, '', 'quiet on stderr when not on a terminal');
});

test('perft-suite --chess960 --backend all runs the published Chess960 list on every backend', () => {
  const r = suite('--chess960', '--backend', 'all', '--positions', '1-3', '--depth', '2');
  assert.equal(r.code, 0, r.out + r.err);
  for (const name of BACKEND_NAMES) assert.match(r.out, new RegExp(`backend ${name}, positions 1-3 of 960, depths up to 2`));
  assert.equal(r.out.match(/^OK: 6 counts on 3 positions/gm)?.length, BACKEND_NAMES.length);
});

test('perft-suite reports a wrong count with FEN, depth, expected and got, and exits 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perft-suite-'));
  try {
    const file = join(dir, 'wrong.epd');
    writeFileSync(
      file,
      ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401', '4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15', ''].join('\n'),
    );
    const r = suite('--file', file);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /^MISMATCH #1 rnbqkbnr\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/RNBQKBNR w KQkq - 0 1 depth 2: expected 401, got 400$/m);
    assert.equal(r.out.match(/MISMATCH/g)?.length, 1);
    assert.match(r.out, /FAILED: 1 mismatches: 3 counts on 2 positions/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function withDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'perft-suite-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The entries of a record file (the header comment left out). */
const recordLines = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));

test('perft-suite --record writes one line per count and a rerun resumes, skipping what is recorded', () => {
  withDir((dir) => {
    const rec = join(dir, 'record.txt');
    let r = suite('--positions', '2-4', '--only-depth', '3', '--record', rec);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /positions 2-4 of 128, depth 3 only: 3 counts/);
    assert.match(r.out, /^resumed: 0 already done$/m);
    assert.deepEqual(
      recordLines(rec).map((l) => l.split(' ').slice(0, 4).join(' ')),
      ['standard bitboard 3 2', 'standard bitboard 3 3', 'standard bitboard 3 4'],
    );
    for (const line of recordLines(rec)) assert.match(line, /^standard bitboard 3 \d+ [0-9a-f]{8} (\d+) \1 ok [\d.]+ [\d.]+ [\d.]+ -$/);

    // The same command again runs nothing; a wider range runs only the new positions.
    r = suite('--positions', '2-4', '--only-depth', '3', '--record', rec);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /depth 3 only: 0 counts/);
    assert.match(r.out, /^OK: 0 counts \(\+3 recorded\) on 3 positions, 0 nodes/m);
    assert.match(r.out, /^resumed: 3 already done$/m);
    r = suite('--positions', '2-5', '--only-depth', '3', '--record', rec, '--hash', '4');
    assert.match(r.out, /depth 3 only: 1 counts, [\d,]+ nodes expected, perft table 4 MB/);
    assert.match(r.out, /^resumed: 3 already done$/m);
    assert.equal(recordLines(rec).length, 4);
    assert.match(recordLines(rec)[3], /^standard bitboard 3 5 .* ok .* h4$/);

    // Another backend or depth is another entry: not resumed from bitboard's.
    r = suite('--positions', '2', '--only-depth', '3', '--record', rec, '--backend', 'matrix');
    assert.match(r.out, /^resumed: 0 already done$/m);
    assert.equal(recordLines(rec).length, 5);

    // A run killed while writing leaves part of a line: the next run drops it, says so, and redoes that count.
    appendFileSync(rec, 'standard bitboard 3 6 1a2b');
    r = suite('--summary', rec);
    assert.match(r.out, /^note: .*ignored an incomplete last line/m);
    r = suite('--positions', '2-6', '--only-depth', '3', '--record', rec);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /^note: .*dropped an incomplete last line .*'standard bitboard 3 6 1a2b'$/m);
    assert.match(r.out, /^resumed: 4 already done$/m);
    assert.match(r.out, /depth 3 only: 1 counts/);
    assert.equal(recordLines(rec).length, 6);
    assert.ok(readFileSync(rec, 'utf8').endsWith('\n'));
    assert.match(
      readFileSync(rec, 'utf8'),
      /^# perft record \(docs\/testing.md\): suite backend depth position/,
      'a header names the fields',
    );
    assert.equal(r.err, '', 'quiet on stderr when not on a terminal');

    r = suite('--summary', rec);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /^suite\s+backend\s+depth\s+done\s+nodes\s+mismatches\s+cpu\s+wall\s+hashed$/m);
    const withDepth3 = readPerftEpd(standardSuitePath()).filter((c) => c.counts.has(3)).length;
    const nodes = recordLines(rec)
      .filter((l) => l.startsWith('standard bitboard'))
      .reduce((sum, l) => sum + Number(l.split(' ')[5]), 0);
    assert.match(
      r.out,
      new RegExp(
        `^standard\\s+bitboard\\s+3\\s+5/${withDepth3}\\s+${nodes.toLocaleString('en-US')}\\s+0\\s+[\\d.]+s\\s+[\\d.]+s\\s+1$`,
        'm',
      ),
    );
    assert.match(r.out, new RegExp(`^standard\\s+matrix\\s+3\\s+1/${withDepth3}\\s+[\\d,]+\\s+0\\s`, 'm'));
  });
});

test('perft-suite --record keeps a mismatch: the rerun reports it again and exits 1, and so does the summary', () => {
  withDir((dir) => {
    const file = join(dir, 'wrong.epd'),
      rec = join(dir, 'record.txt');
    writeFileSync(file, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n');
    let r = suite('--file', file, '--record', rec);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(recordLines(rec)[1], /^wrong bitboard 2 1 [0-9a-f]{8} 400 401 mismatch /);
    r = suite('--file', file, '--record', rec);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /^resumed: 2 already done$/m);
    assert.match(r.out, /^MISMATCH #1 .* depth 2: expected 401, got 400 \(recorded\)$/m);
    r = suite('--summary', rec);
    assert.equal(r.code, 1);
    assert.match(r.out, /^wrong\s+bitboard\s+2\s+1\/\?\s+400\s+1\s/m);
    // A suite file changed under a record is refused, not silently resumed.
    writeFileSync(file, '4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n');
    r = suite('--file', file, '--record', rec);
    assert.equal(r.code, 2);
    assert.match(r.err, /holds wrong #1 depth 1 for another position or count/);
    writeFileSync(rec, 'standard bitboard 3 2 zz\n');
    r = suite('--summary', rec);
    assert.equal(r.code, 2);
    assert.match(r.err, /^perft-suite: --summary: .*record.txt:1: expected 12 fields, got 5$/m);
  });
});

test('perft-suite rejects bad options with one line on stderr and exit 2', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--depth', 'x'], /^perft-suite: --depth: 'x' is not a whole number \(expected 1 to 20\)$/m],
    [['--depth', '21'], /--depth: 21 is out of range \(expected 1 to 20\)/],
    [['--depth'], /^perft-suite: Option '--depth <value>' argument missing$/m],
    [['--positions', '9-3'], /--positions expects N or A-B/],
    [['--positions', '500'], /selects nothing \(the file has 128 positions\)/],
    [['--backend', 'nope'], /--backend: unknown backend 'nope'/],
    [['--file', '/no/such/file.epd'], /--file: no such file/],
    [['--fast'], /^perft-suite: Unknown option '--fast'$/m],
    [['--chess960', '--file', 'x.epd'], /--chess960 picks the Chess960 suite file; do not give --file too/],
    [['stray'], /unexpected argument 'stray'/],
    [['--depth', '3', '--only-depth', '3'], /--depth \(all depths up to N\) and --only-depth \(depth N alone\) exclude each other/],
    [['--hash', '0'], /--hash: 0 is out of range \(expected 1 to 4096\)/],
    [['--summary', 'x.txt', '--depth', '3'], /--summary FILE prints the totals of a record and takes no other option/],
  ];
  for (const [args, message] of cases) {
    const r = suite(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}${r.err}`);
    assert.match(r.err, message);
    assert.equal(r.err.trim().split('\n').length, 1, `one line for ${args.join(' ')}: ${r.err}`);
    assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
  }
});
