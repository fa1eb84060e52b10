import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Chess } from 'chess.js';
import { START_FEN } from '../../src/core/fen.js';
import { runMatch, type MatchConfig } from '../../src/match/match.js';
import { parseMatchArgs, parseEngineSpec, splitWords } from '../../src/match/cli.js';
import { UsageError } from '../../src/cmdline/errors.js';
import type { EngineSpec } from '../../src/match/uci-engine.js';

// Compiled to dist/test/slow/; the fixture stays in the source tree.
const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'random-mover.mjs');
const mover = (name: string, ...extra: string[]): EngineSpec => ({
  name,
  cmd: process.execPath,
  args: [FIXTURE, ...extra],
  options: [['Hash', '1']],
});

function config(e1: EngineSpec, e2: EngineSpec, games: number): MatchConfig {
  return {
    engines: [e1, e2],
    openings: [{ fen: START_FEN, moves: ['e2e4', 'e7e5'] }],
    games,
    tc: { baseMs: 20_000, incMs: 100 },
    toleranceMs: 1000,
    concurrency: 1,
    maxPlies: 24,
    event: 'test',
    site: 'test',
  };
}

test('end to end: two random movers play a colour-reversed pair; PGN is valid; counts add up', async () => {
  const r = await runMatch(config(mover('A', '--seed', '3'), mover('B', '--seed', '4'), 2));
  assert.equal(r.games.length, 2);
  assert.equal(r.wins + r.draws + r.losses, 2);
  assert.deepEqual(r.names, ['A', 'B']);
  assert.equal(r.games[0].whiteEngine, 0);
  assert.equal(r.games[1].whiteEngine, 1);
  assert.equal(
    r.pairs.reduce((a, b) => a + b, 0),
    1,
  );
  for (const g of r.games) {
    const chess = new Chess();
    chess.loadPgn(g.pgn);
    const h = chess.getHeaders();
    assert.equal(h['Result'], g.verdict.result);
    assert.equal(h['White'], g.whiteEngine === 0 ? 'A' : 'B');
    assert.equal(chess.history().length, g.plies);
    assert.deepEqual(chess.history().slice(0, 2), ['e4', 'e5']);
    assert.ok(g.plies <= 24);
  }
  assert.deepEqual(r.faults, [
    { illegal: 0, time: 0, crash: 0 },
    { illegal: 0, time: 0, crash: 0 },
  ]);
  // Every engine move is counted once, with the fixture's reported depth 1.
  const bookPlies = 2 * 2;
  assert.equal(r.usage[0].moves + r.usage[1].moves, r.games[0].plies + r.games[1].plies - bookPlies);
  assert.equal(r.usage[0].depthSum, r.usage[0].moves);
});

test('an engine at MultiPV 2: the score of its first line is its opinion, not that of its last (PGN, adjudication)', async () => {
  // Each mover reports 0 on line 1 and −900 on line 2. Read from line 2, the scores would be ±900
  // and the draw rule (both within 10 cp for 2 moves each from move 3) could never apply.
  const cfg = config(mover('A', '--seed', '5', '--multipv-lines'), mover('B', '--seed', '6', '--multipv-lines'), 2);
  cfg.draw = { moveNumber: 3, score: 10, moves: 2 };
  const r = await runMatch(cfg);
  for (const g of r.games) {
    assert.equal(g.verdict.reason, 'draw-adjudication', g.verdict.text);
    const chess = new Chess();
    chess.loadPgn(g.pgn);
    const scores = chess.getComments().flatMap((c) => /^([+-]?\d+\.\d+)\//.exec(c.comment)?.[1] ?? []);
    assert.ok(scores.length > 0);
    assert.ok(
      scores.every((v) => Number(v) === 0),
      `scores in the PGN: ${scores.join(' ')}`,
    );
  }
});

test('an illegal move loses the game and is counted against the engine that made it', async () => {
  // B answers its 2nd go with a1a1: in game 1 (B is Black) that is ply 6 after the 2 book plies.
  const r = await runMatch(config(mover('A'), mover('B', '--illegal-at', '2'), 1));
  const g = r.games[0];
  assert.equal(g.verdict.reason, 'illegal-move');
  assert.equal(g.verdict.result, '1-0');
  assert.equal(g.faultEngine, 1);
  assert.equal(r.faults[1].illegal, 1);
  assert.equal(r.wins, 1);
  assert.match(g.pgn, /\[Termination "rules infraction"\]/);
  assert.match(g.pgn, /Black makes an illegal move: illegal move 'a1a1'/);
});

test('a crash and a hang lose the game (abandoned, time forfeit); the next game restarts the engine', async () => {
  const crash = await runMatch(config(mover('A', '--crash-at', '1'), mover('B'), 2));
  assert.equal(crash.games[0].verdict.reason, 'crash');
  // The restarted process crashes again at its first go, now as Black: the second game was played.
  assert.equal(crash.games[1].verdict.reason, 'crash');
  assert.equal(crash.games[1].verdict.result, '1-0');
  assert.equal(crash.faults[0].crash, 2);
  assert.equal(crash.faults[1].crash, 0);
  assert.equal(crash.losses, 2);
  // The hung engine is killed after its flag falls and restarted for game 2, where it hangs again.
  const cfg = config(mover('A'), mover('B', '--hang-at', '1'), 2);
  cfg.tc = { baseMs: 300, incMs: 0 };
  cfg.toleranceMs = 50;
  const hang = await runMatch(cfg);
  assert.deepEqual(
    hang.games.map((g) => [g.verdict.reason, g.verdict.result]),
    [
      ['time', '1-0'],
      ['time', '0-1'],
    ],
  );
  assert.equal(hang.faults[1].time, 2);
  assert.equal(hang.faults[0].time, 0);
  // A flag fall against a bare king is a draw (the time loss is still counted as a fault).
  const bare = config(mover('A', '--hang-at', '1'), mover('B'), 1);
  bare.openings = [{ fen: '8/8/4k3/8/8/3QK3/8/8 w - - 0 1', moves: [] }];
  bare.tc = { baseMs: 300, incMs: 0 };
  bare.toleranceMs = 50;
  const draw = await runMatch(bare);
  assert.equal(draw.games[0].verdict.result, '1/2-1/2');
  assert.equal(draw.games[0].verdict.reason, 'time');
  assert.equal(draw.faults[0].time, 1);
  assert.match(draw.games[0].pgn, /\[FEN "8\/8\/4k3/);
});

test('command line: engine specs, time control, key=value groups and clear errors', () => {
  assert.deepEqual(splitWords(`cmd=a arg='x y' option.Name="v w"`), ['cmd=a', 'arg=x y', 'option.Name=v w']);
  const spec = parseEngineSpec('cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=1500 name=SF', '--engine1');
  assert.deepEqual(spec, {
    name: 'SF',
    cmd: '/usr/games/stockfish',
    args: [],
    options: [
      ['UCI_LimitStrength', 'true'],
      ['UCI_Elo', '1500'],
    ],
  });
  const o = parseMatchArgs([
    '--engine1',
    'cmd=a',
    '--engine2',
    'cmd=b arg=uci',
    '--tc',
    '8+0.08',
    '--rounds',
    '3',
    '--sprt',
    'elo0=0',
    'elo1=5',
    '--resign',
    'score=600 moves=3',
    '--openings',
    join(dirname(FIXTURE), 'two-openings.txt'),
  ]);
  assert.deepEqual(o.config.tc, { baseMs: 8000, incMs: 80 });
  assert.equal(o.config.games, 6);
  assert.deepEqual(o.config.sprt, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 });
  assert.deepEqual(o.config.resign, { score: 600, moves: 3 });
  assert.equal(o.config.openings.length, 2);
  const bad = (args: string[], re: RegExp) =>
    assert.throws(
      () => parseMatchArgs(args),
      (e: unknown) => e instanceof UsageError && re.test(e.message),
    );
  bad(['--engine1', 'cmd=a'], /missing --engine2/);
  bad(['--engine1', 'cmd=a', '--engine2', 'cmd=b', '--tc', '10m'], /--tc: expected BASE\+INC/);
  bad(['--engine1', 'cmd=a', '--engine2', 'cmd=b', '--games', '0'], /--games: 0 is out of range/);
  bad(['--engine1', 'cmd=a', '--engine2', 'cmd=b', '--sprt', 'elo0=5', 'elo1=0'], /elo1 must be greater/);
  bad(['--engine1', 'cmd=a', '--engine2', 'cmd=b', '--frobnicate'], /Unknown option '--frobnicate'/);
  bad(['--engine1', 'arg=x', '--engine2', 'cmd=b'], /--engine1: missing cmd=/);
  bad(['--engine1', 'cmd=a', '--engine2', 'cmd=b', '--draw', 'movenumber=30 score=5'], /--draw: missing moves=/);
  bad(['--engine1', 'cmd=a', '--engine2', 'cmd=b', 'extra'], /unexpected argument 'extra'/);
  // Words after --draw may also come as separate arguments, up to the next flag.
  const d = parseMatchArgs(['--engine1', 'cmd=a', '--engine2', 'cmd=b', '--draw', 'movenumber=30', 'score=5', 'moves=4', '--games', '4']);
  assert.deepEqual(d.config.draw, { moveNumber: 30, score: 5, moves: 4 });
  assert.equal(d.config.games, 4);
});

test('matrix-chess match: a usage mistake exits 2 with one line on stderr and no stack trace', () => {
  const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'matrix-chess');
  const r = spawnSync(process.execPath, [bin, 'match', '--engine1', 'cmd=a', '--engine2', 'cmd=b', '--tc', 'fast'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, "matrix-chess: match --tc: expected BASE+INC in seconds like 10+0.1, got 'fast'\n");
  assert.equal(r.stdout, '');
});

test('--chess960: seeded random 960 starts, each played from both sides; engines get UCI_Chess960 and castle king-takes-rook', async () => {
  const { chess960Openings } = await import('../../src/match/openings.js');
  const parsed = parseMatchArgs([
    '--engine1',
    `cmd=${process.execPath} arg=${FIXTURE}`,
    '--engine2',
    `cmd=${process.execPath} arg=${FIXTURE}`,
    '--chess960',
    '--rounds',
    '3',
    '--seed',
    '7',
  ]);
  assert.equal(parsed.config.chess960, true);
  assert.deepEqual(parsed.config.openings, chess960Openings(3, 7));
  assert.equal(new Set(parsed.config.openings.map((o) => o.fen)).size, 3);
  for (const e of parsed.config.engines) assert.deepEqual(e.options[0], ['UCI_Chess960', 'true']);
  assert.match(parsed.openingsSource, /Chess960, 3 random start positions \(seed 7\)/);
  assert.throws(
    () => parseMatchArgs(['--engine1', 'cmd=a', '--engine2', 'cmd=b', '--chess960', '--openings', 'x.txt']),
    /do not give --openings too/,
  );

  // Two random movers play a 960 start from both sides without a fault (moves parsed as UCI_Chess960).
  const cfg = config(mover('A', '--seed', '5'), mover('B', '--seed', '6'), 2);
  cfg.engines.forEach((e) => e.options.unshift(['UCI_Chess960', 'true']));
  const r = await runMatch({ ...cfg, chess960: true, openings: chess960Openings(1, 7), maxPlies: 40 });
  assert.deepEqual(r.faults, [
    { illegal: 0, time: 0, crash: 0 },
    { illegal: 0, time: 0, crash: 0 },
  ]);
  for (const g of r.games) {
    assert.match(g.pgn, /\[Variant "Chess960"\]/);
    assert.match(g.pgn, new RegExp(`\\[FEN "${chess960Openings(1, 7)[0].fen.replace(/\//g, '\\/')}"\\]`));
  }
});
