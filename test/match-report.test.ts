/**
 * `match --report`: games already played, read back from match PGNs, give the report the runner
 * printed when it played them (the committed runs against Stockfish and their reports), summed
 * over files and over runs joined in one file; a PGN of other engines or not written by the
 * runner is refused with the file, the game and the field named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { reportFromPgns } from '../src/match/report.js';
import { MatchResumeError } from '../src/match/resume.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'matrix-chess');
// Two runs of 200 games, each file the PGNs of two side-by-side processes (Rounds 1-100 twice).
const RUN1 = 'data/matches/matrixchess-gen17-vs-sf15.1-elo2400-10+0.1-200.pgn.gz';
const RUN2 = 'data/matches/matrixchess-gen17-vs-sf15.1-elo2400-10+0.1-200-run2.pgn.gz';
const read = (name: string) => ({ name, text: gunzipSync(readFileSync(join(ROOT, name))).toString('utf8') });
const endings = (games: { verdict: { reason: string } }[]) => {
  const m: Record<string, number> = {};
  for (const g of games) m[g.verdict.reason] = (m[g.verdict.reason] ?? 0) + 1;
  return m;
};

test('a file of two joined runs gives the sum of the reports the runner printed for them', () => {
  const { result: r, timeControls, notes } = reportFromPgns([read(RUN2)]);
  assert.deepEqual(r.names, ['MatrixChess', 'Stockfish15.1-Elo2400']);
  assert.deepEqual([r.wins, r.draws, r.losses], [81, 39, 80]);
  // The two processes' own reports: pairs [7,10,19,10,4] and [9,3,19,10,9].
  assert.deepEqual(r.pairs, [16, 13, 38, 20, 13]);
  // Their endings: checkmate 76 + 85, repetition 11 + 8, insufficient material 6 + 4, fifty moves 6 + 3, stalemate 1.
  assert.deepEqual(endings(r.games), { checkmate: 161, repetition: 19, 'insufficient-material': 10, 'fifty-move': 9, stalemate: 1 });
  assert.deepEqual(r.faults, [
    { illegal: 0, time: 0, crash: 0 },
    { illegal: 0, time: 0, crash: 0 },
  ]);
  assert.deepEqual(timeControls, ['10+0.1']);
  assert.deepEqual(notes, []);
  // Per move, as the runner averages (0.18 s and 0.19 s, depth 15.9 and 15.1 in the two halves).
  const u = r.usage[0];
  assert.ok(u.timeMs / u.moves > 180 && u.timeMs / u.moves < 190, `${u.timeMs / u.moves} ms a move`);
  assert.ok(u.depthSum / u.depthCount > 15.1 && u.depthSum / u.depthCount < 15.9);
});

test('two files are summed as one match, with no pair across them', () => {
  const { result: r } = reportFromPgns([read(RUN1), read(RUN2)]);
  assert.equal(r.games.length, 400);
  assert.deepEqual([r.wins, r.draws, r.losses], [154, 85, 161]);
  assert.deepEqual(r.pairs, [34, 33, 65, 42, 26]);
  assert.equal(endings(r.games)['max-plies'], 1);
  assert.equal(new Set(r.games.map((g) => g.index)).size, 400);
});

test('engine1 is found from the colours when the first game is a second of its pair', () => {
  const { name, text } = read(RUN2);
  const withoutFirst = text.slice(text.indexOf('[Event ', 1));
  const { result: r } = reportFromPgns([{ name, text: withoutFirst }]);
  assert.deepEqual(r.names, ['MatrixChess', 'Stockfish15.1-Elo2400']);
  // Round 1 (the file's first game) was a loss for MatrixChess: one loss and one pair fewer.
  assert.deepEqual([r.wins, r.draws, r.losses], [81, 39, 79]);
  assert.equal(
    r.pairs.reduce((a, b) => a + b, 0),
    99,
  );
});

test('games of other engines, or not written by the runner, are refused by file, game and field', () => {
  const { name, text } = read(RUN2);
  const games = text.split(/\n(?=\[Event )/);
  const renamed = [games[0], games[1].replace('[White "Stockfish15.1-Elo2400"]', '[White "Other"]')].join('\n');
  assert.throws(
    () => reportFromPgns([{ name, text: renamed }]),
    (e: unknown) =>
      e instanceof MatchResumeError && /^match --report: .*run2\.pgn\.gz: Round 2: played by 'Other' and 'MatrixChess'/.test(e.message),
  );
  const bare = games[0].replace(/\{[^}]*\}/g, '');
  assert.throws(
    () => reportFromPgns([{ name: 'bare.pgn', text: bare }]),
    (e: unknown) =>
      e instanceof MatchResumeError &&
      /^match --report: bare\.pgn: game 1: moves: ply 1 has no "score\/depth seconds" comment/.test(e.message),
  );
  assert.throws(() => reportFromPgns([]), /no PGN file given/);
});

test('the command prints the report, and a file it cannot read is one line and status 2', () => {
  const ok = spawnSync(process.execPath, [BIN, 'match', '--report', RUN2], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /^MatrixChess vs Stockfish15\.1-Elo2400: 200 games at 10\+0\.1/);
  assert.match(ok.stdout, /Score of MatrixChess: \+81 =39 -80 {2}50\.3%/);
  const bad = spawnSync(process.execPath, [BIN, 'match', '--report', 'no-such.pgn'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
  assert.match(bad.stderr, /match --report: cannot read 'no-such\.pgn': ENOENT/);
});
