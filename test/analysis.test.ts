/**
 * Game analysis: lichess's judgement thresholds and accuracy, [%eval] comments, mates,
 * a hanging queen judged ??, the engine's move never judged, bad games skipped and reported
 * while the others are analysed, and byte-identical output for a node limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyseGame, formatEval } from '../src/analysis/analyse-game.js';
import { gameAccuracy, judgeMove, moveAccuracy, winningChances, winPercent } from '../src/analysis/win-probability.js';
import { PgnError, parsePgn, parsePgnGame } from '../src/core/pgn/index.js';
import { Position } from '../src/core/position.js';
import { legalMoveList, parseSan } from '../src/core/notation.js';
import { gameStatus } from '../src/core/status.js';
import { jobGameOf, parseJob, runJob, type AnalyseJob } from '../src/jobs/job.js';
import { DEFAULT_NETWORK_FILE } from '../src/engine/nnue/load-node.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const BIN = fileURLToPath(new URL('../../bin/matrix-chess', import.meta.url));

function game(fen: string, moves: string, result = '*'): string {
  return `[Event "t"]\n[Site "?"]\n[Date "?"]\n[Round "1"]\n[White "w"]\n[Black "b"]\n[Result "${result}"]\n[SetUp "1"]\n[FEN "${fen}"]\n\n${moves} ${result}\n`;
}

/** The centipawns (mover's view) at which a drop from `from` loses exactly `loss` winning chances. */
function cpAfterLoss(from: number, loss: number): number {
  const wc = winningChances(from) - loss;
  return Math.log((1 + wc) / (1 - wc)) / 0.00368208;
}

test('win% and judgement thresholds: 0.1 / 0.2 / 0.3 winning chances (5 / 10 / 15 points of win%)', () => {
  assert.equal(winPercent(0), 50);
  assert.ok(Math.abs(winPercent(300) + winPercent(-300) - 100) < 1e-9);
  for (const [loss, judgement] of [
    [0.1, 'inaccuracy'],
    [0.2, 'mistake'],
    [0.3, 'blunder'],
  ] as const) {
    for (const from of [-200, 0, 150]) {
      const at = cpAfterLoss(from, loss);
      assert.equal(judgeMove(from, at - 0.01), judgement, `from ${from}: a loss just over ${loss}`);
      assert.notEqual(judgeMove(from, at + 0.01), judgement, `from ${from}: a loss just under ${loss}`);
      // Win% points lost at the threshold: half the winning-chance loss times 100.
      assert.ok(Math.abs(winPercent(from) - winPercent(at) - 50 * loss) < 1e-6);
    }
  }
  assert.equal(judgeMove(50, 60), undefined, 'a gain is never judged');
});

test('move accuracy: 100 for no loss, falls with the win% lost, stays in 0..100', () => {
  assert.equal(moveAccuracy(60, 60), 100);
  assert.equal(moveAccuracy(40, 70), 100);
  let prev = 100;
  for (let lost = 1; lost <= 100; lost++) {
    const a = moveAccuracy(100, 100 - lost);
    assert.ok(a >= 0 && (prev === 0 ? a === 0 : a < prev), `loss ${lost}: ${a}`);
    prev = a;
  }
  assert.equal(moveAccuracy(100, 0), 0);
  // A game of perfect moves (no win% ever lost by the mover) is 100 for both sides.
  const steady = gameAccuracy([20, 20, 20, 20, 20], true);
  assert.equal(steady.white.accuracy, 100);
  assert.equal(steady.black.accuracy, 100);
  assert.equal(steady.white.acpl, 0);
  // White throws 500 cp away on its second move; black never loses anything.
  const thrown = gameAccuracy([0, 0, 0, -500, -500], true);
  assert.ok(thrown.white.accuracy < 80, String(thrown.white.accuracy));
  assert.equal(thrown.black.accuracy, 100);
  assert.equal(thrown.white.acpl, 250);
});

test('[%eval] format: pawns with two decimals for white, #N / #-N for mates', () => {
  assert.equal(formatEval({ cp: 35 }), '0.35');
  assert.equal(formatEval({ cp: -120 }), '-1.20');
  assert.equal(formatEval({ cp: 0 }), '0.00');
  assert.equal(formatEval({ mate: 3 }), '#3');
  assert.equal(formatEval({ mate: -2 }), '#-2');
});

// White's queen on d1 faces black's undefended rook on d5.
const QUEEN_FEN = '4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1';

test('a move that hangs the queen is ??, with the better move as a variation; the best move gets no NAG', () => {
  const blunder = analyseGame(game(QUEEN_FEN, '1. Qd4 Rxd4'), { nodes: 20000 });
  assert.equal(blunder.moves[0].judgement, 'blunder');
  assert.equal(blunder.moves[0].best, 'Qxd5');
  assert.ok(blunder.moves[0].winBefore - blunder.moves[0].winAfter > 15);
  assert.match(blunder.pgn, /1\. Qd4\?\? \{\[%eval -?\d+\.\d\d\] Blunder\. Qxd5 was best\.\} \(1\. Qxd5/);
  assert.equal(blunder.moves[1].judgement, undefined, 'taking the queen is the best move');
  assert.equal(blunder.white.blunders, 1);
  assert.match(blunder.pgn, /\[WhiteAccuracy "\d+\.\d"\]/);
  assert.match(blunder.pgn, /\[BlackACPL "\d+"\]/);

  const best = analyseGame(game(QUEEN_FEN, '1. Qxd5 Kf8'), { nodes: 20000 });
  assert.equal(best.moves[0].judgement, undefined);
  assert.ok(!/\?/.test(best.pgn.split('\n\n')[1]), best.pgn);
  assert.equal(best.white.blunders + best.white.mistakes + best.white.inaccuracies, 0);
  // The analysed game reads back with our own reader, move for move.
  assert.deepEqual(parsePgn(blunder.pgn)[0].moves.length, 2);
});

test('mates: #N before the mate, no evaluation after it; a missed mate is judged', () => {
  const fen = '6k1/1p3ppp/8/8/8/8/8/R6K w - - 0 1';
  const a = analyseGame(game(fen, '1. Kg2 b6 2. Ra8#', '1-0'), { nodes: 20000 });
  assert.deepEqual(a.moves[0].evalBefore, { mate: 1 });
  assert.equal(a.moves[0].judgement !== undefined, true, 'Kg2 misses the mate in one');
  // b6 allows the mate again: [%eval #1] after it, and ?? with a move that stops the mate as the
  // better one (Kf8 or a flight square for the king: the engine may name any); the mate itself has no [%eval].
  const better = /1\.\.\. b6\?\?\s\{\[%eval #1\] Blunder\. (\S+) was best\.\}/.exec(a.pgn);
  assert.ok(better, a.pgn);
  const pos = Position.fromFen(fen);
  pos.makeMove(parseSan(pos, 'Kg2'));
  pos.makeMove(parseSan(pos, better[1]));
  for (const m of legalMoveList(pos)) {
    pos.makeMove(m);
    assert.notEqual(gameStatus(pos).reason, 'checkmate', `${better[1]} does not stop the mate`);
    pos.unmakeMove();
  }
  assert.match(a.pgn, /2\.\sRa8# 1-0/);
  assert.equal(a.moves[2].judgement, undefined);
});

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, CI: 'true' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('analyse: a bad game is reported with its number and skipped, the others analysed; --nodes output is byte-identical', () => {
  const dir = mkdtempSync(join(tmpdir(), 'analyse-'));
  const file = join(dir, 'games.pgn');
  writeFileSync(file, [game(QUEEN_FEN, '1. Qd4 Rxd4'), game(QUEEN_FEN, '1. Qd4 Kxe8'), game(QUEEN_FEN, '1. Qxd5 Kf8')].join('\n'));
  const a = run(['analyse', file, '--nodes', '3000']);
  assert.equal(a.status, 1, a.stderr);
  const errors = a.stderr.split('\n').filter((l) => l.startsWith('matrix-chess'));
  assert.equal(errors.length, 1, a.stderr);
  assert.match(errors[0], /games\.pgn: game 2, line 23, column 8: move 1\.\.\. Kxe8: illegal move 'Kxe8': .*\(game skipped\)$/);
  assert.match(a.stderr, /analyse: 2 games analysed, 1 skipped \(game 2\)/);
  const games = parsePgn(a.stdout);
  assert.equal(games.length, 2);
  assert.equal(games[0].tags.get('Annotator'), 'Matrix Chess (nodes 3000)');
  assert.match(a.stdout, /1\. Qd4\?\?/);
  // Same input, same output, with one or two worker threads and to a file.
  const out = join(dir, 'out.pgn');
  const b = run(['analyse', file, '--nodes', '3000', '--workers', '2', '--out', out]);
  assert.equal(b.status, 1);
  assert.equal(readFileSync(out, 'utf8'), a.stdout);
  const j = run(['analyse', file, '--nodes', '3000', '--json']);
  const parsed = JSON.parse(j.stdout) as { games: Array<{ game: number; error?: string; white?: { blunders: number } }> };
  assert.deepEqual(
    parsed.games.map((g) => g.game),
    [1, 2, 3],
  );
  assert.match(parsed.games[1].error ?? '', /Kxe8/);
  assert.equal(parsed.games[0].white?.blunders, 1);
});

test('analyse: five games (no tags, no Event tag, a ; line between) with one broken: the others analysed with their comments and variations kept, exit 1 naming the broken one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'analyse-five-'));
  const file = join(dir, 'five.pgn');
  const text = [
    '[White "w"]\n[Black "b"]\n[SetUp "1"]\n[FEN "' + QUEEN_FEN + '"]\n',
    '{my game} 1. Qd4 {my comment} (1. Ke2 {my idea} Rd4 $6) 1... Rxd4 *',
    '; a comment line between games',
    '1. e4 e5 1-0',
    '1. e4 e5 2. Ke3 0-1',
    '[Event "x"]\n\n1. d4 d5 1/2-1/2',
    '1. c4 *',
  ].join('\n');
  writeFileSync(file, text);
  const r = run(['analyse', file, '--nodes', '2000', '--eval', 'classical']);
  assert.equal(r.status, 1, r.stderr);
  assert.match(
    r.stderr,
    /five\.pgn: game 3, line 9, column 13: move 2\. Ke3: illegal move 'Ke3': no white king can move to e3 \(game skipped\)/,
  );
  assert.match(r.stderr, /analyse: 4 games analysed, 1 skipped \(game 3\)/);
  const games = parsePgn(r.stdout);
  assert.deepEqual(
    games.map((g) => g.moves.map((m) => m.san).join(' ')),
    ['Qd4 Rxd4', 'e4 e5', 'd4 d5', 'c4'],
  );
  const [first] = games;
  assert.deepEqual(first.comments, ['my game']);
  assert.ok(first.moves[0].commentsAfter?.includes('my comment'), r.stdout);
  assert.deepEqual(
    first.moves[0].variations?.[0].map((m) => m.san),
    ['Ke2', 'Rd4'],
  );
  assert.deepEqual(first.moves[0].variations?.[0][0].commentsAfter, ['my idea']);
  assert.equal(first.moves[0].nags?.[0], 4, 'the blunder is judged ??');
  assert.ok(first.moves[0].eval !== undefined);
  assert.equal(games[1].comments[0], ' a comment line between games');
  assert.equal(games[1].result, '1-0');
});

test('analyse --out: each game is written as soon as the games before it are done, so an interrupted run keeps them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'analyse-stream-'));
  const file = join(dir, 'games.pgn');
  const breyer =
    '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5';
  writeFileSync(file, [game(START, '1. e4 e5'), game(START, breyer), game(START, breyer), game(START, breyer)].join('\n'));
  const args = ['analyse', file, '--nodes', '20000', '--eval', 'classical'];
  const out = join(dir, 'out.pgn');
  const child = spawn(process.execPath, [BIN, ...args, '--out', out], { env: { ...process.env, CI: 'true' }, stdio: 'ignore' });
  // Stop it hard once the first (short) game is in the file.
  const deadline = Date.now() + 60_000;
  while (!(existsSync(out) && readFileSync(out, 'utf8').includes('[Event ')) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  await new Promise((r) => child.on('close', r));
  const partial = readFileSync(out, 'utf8');
  const kept = parsePgn(partial).length;
  const full = run(args);
  assert.equal(full.status, 0, full.stderr);
  assert.equal(parsePgn(full.stdout).length, 4);
  assert.ok(kept >= 1 && kept < 4, `${kept} games written before the kill`);
  assert.ok(full.stdout.startsWith(partial), 'the interrupted file is the start of the full output: whole games, in order');
});

test('analyse --threads 2: Lazy SMP helper threads search each position; the blunder is still found', () => {
  const dir = mkdtempSync(join(tmpdir(), 'analyse-smp-'));
  const file = join(dir, 'games.pgn');
  writeFileSync(file, game(QUEEN_FEN, '1. Qd4 Rxd4'));
  const r = run(['analyse', file, '--depth', '6', '--threads', '2']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /1\. Qd4\?\?/);
  assert.match(r.stdout, /\[%eval -?\d+\.\d+\]/);
});

test('analyse --eval: the shipped network by default, the classical evaluation on request; a job whose network differs fails alone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'analyse-eval-'));
  const file = join(dir, 'games.pgn');
  writeFileSync(file, game(START, '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6'));
  const evals = (args: string[]): string[] => {
    const r = run(['analyse', file, '--nodes', '2000', ...args]);
    assert.equal(r.status, 0, r.stderr);
    return [...r.stdout.matchAll(/\[%eval (-?[\d.]+)\]/g)].map((m) => m[1]);
  };
  const byDefault = evals([]),
    network = evals(['--eval', 'nnue']),
    classical = evals(['--eval', 'classical']);
  assert.equal(byDefault.length, 6);
  assert.deepEqual(byDefault, network);
  assert.notDeepEqual(network, classical);
  const job: AnalyseJob = {
    kind: 'analyse',
    game: jobGameOf(parsePgnGame(game(START, '1. e4 e5'))),
    limits: { nodes: 500 },
    hashMb: 1,
    nnue: { file: DEFAULT_NETWORK_FILE, crc32: '0' },
  };
  await assert.rejects(runJob(job, undefined), /network '.*nnue\.bin' has CRC-32 [0-9a-f]+ here, the run wants 0/);
  assert.throws(() => parseJob({ ...job, nnue: { file: 'x.bin' } }), /malformed job: nnue is not \{ file, crc32 \(hex\) \}/);
});

test('analyse: one-line usage errors (exit 2)', () => {
  for (const args of [
    ['analyse'],
    ['analyse', 'x.pgn', '--eval', 'deep'],
    ['analyse', 'x.pgn', '--nodes', '5', '--depth', '3'],
    ['analyse', 'x.pgn', '--threads', '0'],
    ['analyse', '/nonexistent.pgn'],
  ]) {
    const r = run(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  assert.throws(() => analyseGame('[Event "x"]\n\n1. e5 *'), PgnError);
});
