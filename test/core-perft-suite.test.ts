/**
 * The perft-suite script's contract: totals and exit 0 when every count matches, one MISMATCH
 * line and exit 1 when one does not, one line on stderr and exit 2 for bad usage.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  ];
  for (const [args, message] of cases) {
    const r = suite(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}${r.err}`);
    assert.match(r.err, message);
    assert.equal(r.err.trim().split('\n').length, 1, `one line for ${args.join(' ')}: ${r.err}`);
    assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
  }
});
