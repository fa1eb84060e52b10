/**
 * `match --resume`: the games in a match PGN are read back as the games that were played, only
 * the missing ones are played again, and a PGN that does not belong to the match is refused
 * with the file, the game and the field named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { START_FEN } from '../src/core/fen.js';
import { runMatch, type GameOutcome, type MatchConfig } from '../src/match/match.js';
import { MatchResumeError, checkResumedNames, readResumablePgn } from '../src/match/resume.js';
import type { EngineSpec } from '../src/match/uci-engine.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(HERE, '..', '..', 'test', 'fixtures', 'random-mover.mjs');
const BIN = join(HERE, '..', '..', 'bin', 'matrix-chess');
const mover = (name: string, ...extra: string[]): EngineSpec => ({ name, cmd: process.execPath, args: [FIXTURE, ...extra], options: [] });

function config(e1: EngineSpec, e2: EngineSpec, games: number): MatchConfig {
  return {
    engines: [e1, e2],
    openings: [
      { fen: START_FEN, moves: ['e2e4', 'e7e5'] },
      { fen: START_FEN, moves: ['d2d4'] },
    ],
    games,
    tc: { baseMs: 20_000, incMs: 100 },
    toleranceMs: 1000,
    concurrency: 1,
    maxPlies: 40,
    event: 'test',
    site: 'test',
  };
}

/** What a game read back must share with the game as played (times are written to 10 ms). */
function assertSameGame(read: GameOutcome, played: GameOutcome): void {
  const where = `game ${played.index + 1}`;
  assert.equal(read.index, played.index, where);
  assert.equal(read.opening, played.opening, where);
  assert.equal(read.whiteEngine, played.whiteEngine, where);
  assert.deepEqual(
    [read.verdict.result, read.verdict.reason, read.verdict.termination],
    [played.verdict.result, played.verdict.reason, played.verdict.termination],
    where,
  );
  assert.equal(read.faultEngine, played.faultEngine, where);
  assert.equal(read.plies, played.plies, where);
  assert.equal(read.pgn, played.pgn, where);
  for (const e of [0, 1] as const) {
    const [r, p] = [read.usage[e], played.usage[e]];
    assert.deepEqual([r.moves, r.depthSum, r.depthCount], [p.moves, p.depthSum, p.depthCount], where);
    assert.ok(Math.abs(r.timeMs - p.timeMs) <= 5 * p.moves + 1, `${where}: time ${r.timeMs} against ${p.timeMs}`);
  }
}

test('games read back from the PGN are the games played, and a resumed match plays only the missing ones', async () => {
  // Long enough for random movers to end some games by the rules (mate, material, fifty moves).
  const cfg = { ...config(mover('A', '--seed', '3'), mover('B', '--seed', '4'), 6), maxPlies: 400 };
  const first = await runMatch(cfg);
  assert.ok(first.games.some((g) => g.verdict.termination === 'normal'));
  const text = first.games.map((g) => g.pgn).join('');
  const read = readResumablePgn(text, 'm.pgn', cfg);
  assert.equal(read.games.length, 6);
  assert.equal(read.keptText, text);
  assert.equal(read.droppedTail, undefined);
  read.games.forEach((g, i) => assertSameGame(g, first.games[i]));
  // Endings by the rules keep their text too (the final comment after the last move's own).
  for (const [i, g] of read.games.entries())
    if (g.verdict.termination === 'normal') assert.equal(g.verdict.text, first.games[i].verdict.text);
  checkResumedNames(read.games, ['A', 'B'], 'm.pgn');

  // Games 2 and 5 missing (say, the run was killed while game 5 was being written): only they are played.
  const kept = read.games.filter((g) => g.index !== 1 && g.index !== 4);
  const played: number[] = [];
  const second = await runMatch({ ...cfg, done: kept, onGame: (g) => played.push(g.index) });
  assert.deepEqual(played, [1, 4]);
  assert.deepEqual(
    second.games.map((g) => g.index),
    [0, 1, 2, 3, 4, 5],
  );
  assert.equal(second.wins + second.draws + second.losses, 6);
  assert.equal(
    second.pairs.reduce((a, b) => a + b, 0),
    3,
  );
  // With every game there, nothing is played.
  const none: number[] = [];
  const third = await runMatch({ ...cfg, done: read.games, onGame: (g) => none.push(g.index) });
  assert.deepEqual(none, []);
  assert.deepEqual([third.wins, third.draws, third.losses], [first.wins, first.draws, first.losses]);
});

test('losses by fault read back with the engine at fault: illegal move, crash, time', async () => {
  const runs: Array<[MatchConfig, string]> = [];
  runs.push([config(mover('A'), mover('B', '--illegal-at', '2'), 2), 'illegal-move']);
  runs.push([config(mover('A', '--crash-at', '1'), mover('B'), 2), 'crash']);
  const hang = config(mover('A'), mover('B', '--hang-at', '1'), 2);
  hang.tc = { baseMs: 300, incMs: 0 };
  hang.toleranceMs = 50;
  runs.push([hang, 'time']);
  for (const [cfg, reason] of runs) {
    const r = await runMatch(cfg);
    assert.ok(
      r.games.some((g) => g.verdict.reason === reason),
      reason,
    );
    const read = readResumablePgn(r.games.map((g) => g.pgn).join(''), 'f.pgn', cfg);
    read.games.forEach((g, i) => assertSameGame(g, r.games[i]));
  }
});

test('a PGN that is not this match is refused, naming the file, the game and the field', async () => {
  const cfg = config(mover('A', '--seed', '3'), mover('B', '--seed', '4'), 4);
  const r = await runMatch(cfg);
  const pgns = r.games.map((g) => g.pgn);
  const refuse = (text: string, c: MatchConfig, msg: RegExp): void => {
    assert.throws(
      () => readResumablePgn(text, 'm.pgn', c),
      (e: unknown) => e instanceof MatchResumeError && msg.test(e.message),
    );
  };
  refuse(pgns.join(''), { ...cfg, games: 2 }, /m\.pgn: game 3: Round: 3 is beyond this match's 2 games/);
  refuse(
    pgns.join(''),
    { ...cfg, tc: { baseMs: 5000, incMs: 50 } },
    /game 1: TimeControl: the game was played at '20\+0.1', this match is 5\+0.05/,
  );
  refuse(pgns[0] + pgns[0], cfg, /game 2: Round 1 appears twice/);
  refuse(
    pgns.join(''),
    { ...cfg, openings: [{ fen: START_FEN, moves: ['c2c4'] }] },
    /game 1: moves: the game does not follow its opening \(1: c2c4\)/,
  );
  refuse(pgns[0].replace('[Round "1"]', '[Round "x"]'), cfg, /game 1: Round: expected a game number from 1, got 'x'/);
  refuse(pgns.join('').replace(/\[Termination "[^"]*"\]/, '[Termination "unterminated"]'), cfg, /game 1: Termination: 'unterminated'/);
  // Engines under other names than the games were played with.
  const read = readResumablePgn(pgns.join(''), 'm.pgn', cfg);
  assert.throws(
    () => checkResumedNames(read.games, ['A', 'C'], 'm.pgn'),
    /m\.pgn: Round 1: played by 'A' \(White\) and 'B' \(Black\), this run schedules 'A' and 'C'/,
  );
  // An incomplete last game (a killed write) is left out, and said so; the rest is kept as it was.
  const cut = pgns.join('').slice(0, -30);
  const partial = readResumablePgn(cut, 'm.pgn', cfg);
  assert.equal(partial.games.length, 3);
  assert.equal(partial.keptText, pgns.slice(0, 3).join(''));
  assert.match(partial.droppedTail ?? '', /the last game \(Round 4\) is incomplete/);
});

test('matrix-chess match --resume: continues a match in its PGN; without --pgn it is a usage error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matrix-chess-resume-'));
  try {
    const pgn = join(dir, 'm.pgn');
    const args = (games: number): string[] => [
      BIN,
      'match',
      '--engine1',
      `cmd=${process.execPath} arg=${FIXTURE} arg=--seed arg=3 name=A`,
      '--engine2',
      `cmd=${process.execPath} arg=${FIXTURE} arg=--seed arg=4 name=B`,
      '--games',
      String(games),
      '--tc',
      '20+0.1',
      '--max-plies',
      '30',
      '--pgn',
      pgn,
      '--resume',
    ];
    const a = spawnSync(process.execPath, args(2), { encoding: 'utf8' });
    assert.equal(a.status, 0, a.stderr);
    const firstTwo = readFileSync(pgn, 'utf8');
    // A killed write of game 3: its tags and a few moves, no result.
    writeFileSync(pgn, firstTwo + '[Event "Matrix Chess match"]\n[Site "localhost"]\n[Round "3"]\n\n1. e4 e5 2. Nf3');
    const b = spawnSync(process.execPath, args(4), { encoding: 'utf8' });
    assert.equal(b.status, 0, b.stderr);
    assert.match(b.stderr, /match --resume: .*m\.pgn: the last game \(Round 3\) is incomplete; it is played again/);
    assert.match(b.stdout, /^A vs B: 4 games at 20\+0\.1, openings: .* \(2 resumed from the PGN\)/);
    const all = readFileSync(pgn, 'utf8');
    assert.ok(all.startsWith(firstTwo));
    assert.deepEqual(
      [...all.matchAll(/\[Round "(\d+)"\]/g)].map((m) => m[1]),
      ['1', '2', '3', '4'],
    );
    // The engines renamed: refused before any game is played, the PGN left as it was (a cut-off game included).
    const tail = '[Event "Matrix Chess match"]\n[Site "localhost"]\n[Round "5"]\n\n1. d4';
    writeFileSync(pgn, all + tail);
    const c = spawnSync(
      process.execPath,
      args(6).map((x) => x.replace('name=B', 'name=C')),
      { encoding: 'utf8' },
    );
    assert.equal(c.status, 2);
    assert.match(
      c.stderr,
      /^matrix-chess: match --resume: .*m\.pgn: Round 1: played by 'A' \(White\) and 'B' \(Black\), this run schedules 'A' and 'C'\n$/,
    );
    assert.equal(readFileSync(pgn, 'utf8'), all + tail);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const r = spawnSync(process.execPath, [BIN, 'match', '--engine1', 'cmd=a', '--engine2', 'cmd=b', '--resume'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'matrix-chess: match --resume: needs --pgn FILE, the match to continue\n');
});
