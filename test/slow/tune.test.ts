/** The Texel tuner: its linear model is the engine's evaluation, its fit works, its data is sound. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Position } from '../../src/core/position.js';
import { MAX_MOVES, defaultGenerator } from '../../src/core/movegen.js';
import { evaluate } from '../../src/engine/evaluate.js';
import {
  MATERIAL_SLOT,
  PST_SLOT,
  TuningSetBuilder,
  extractFromPgn,
  isQuiet,
  setLabels,
  whiteScore,
  type TuningSet,
} from '../../src/tune/texel/dataset.js';
import { currentEvalParams, formatEvalParams } from '../../src/tune/texel/eval-params-source.js';
import { exactEval, fitK, meanSquaredError, modelEval, paramsFromValues, tune, valuesFromParams } from '../../src/tune/texel/fit.js';
import { playSelfplayGame, selfplayEngine } from '../../src/tune/selfplay/game.js';
import { makePgn, newPgnGame, parsePgn, pgnLine, setPgnResult, setPgnStartFen } from '../../src/core/pgn/index.js';
import { START_FEN } from '../../src/core/fen.js';
import { rng } from '../helpers.js';
import { TUNE_USAGE } from '../../src/tune/cli.js';

const BIN = fileURLToPath(new URL('../../../bin/matrix-chess', import.meta.url));
const EVAL_PARAMS_SOURCE = fileURLToPath(new URL('../../../src/engine/eval-params.ts', import.meta.url));

/** Positions from seeded random games (all phases, odd material balances). */
function randomPositions(count: number, seed: number): Position[] {
  const rand = rng(seed),
    out: Position[] = [],
    moves = new Int32Array(MAX_MOVES);
  while (out.length < count) {
    const pos = Position.startpos();
    const plies = 10 + Math.floor(rand() * 150);
    for (let i = 0; i < plies; i++) {
      const n = defaultGenerator.generate(pos, moves, 0);
      if (n === 0 || pos.halfmove >= 100) break;
      pos.makeMove(moves[Math.floor(rand() * n)]);
      if (i % 7 === 6) out.push(Position.fromFen(pos.toFen()));
    }
  }
  return out.slice(0, count);
}

function setOf(positions: Position[], label: (p: Position) => number = () => 0.5): TuningSet {
  const b = new TuningSetBuilder();
  for (const p of positions) b.add(p, label(p));
  return b.build();
}

test("the tuner's model is the engine's evaluation, exactly, on 2000 random positions and endgames", () => {
  // Random games rarely reach the endgames the scale and the mop-up are for: add some.
  const endgames = [
    '8/8/4k3/8/8/2B5/8/R3K3 w - - 0 1',
    '8/3k4/8/8/3b4/8/8/R3K3 b - - 0 1',
    '8/2k5/8/8/8/8/1NN5/4K3 w - - 0 1',
    '8/2k2p2/8/8/8/8/1NN5/4K3 w - - 0 1',
    '8/5k2/2b2p2/5P2/8/3B4/5K2/8 w - - 0 1',
    '8/5k2/2b2p2/1P3P2/P7/3B4/5K2/8 b - - 0 1',
    '8/8/8/3k4/8/8/8/Q3K3 w - - 0 1',
    '7k/8/8/8/8/8/8/1B1NK3 w - - 0 1',
    '8/8/8/4k3/8/8/8/3RK2R b - - 0 1',
  ];
  const positions = [...randomPositions(2000, 7), ...endgames.map((f) => Position.fromFen(f))];
  const set = setOf(positions);
  const p = paramsFromValues(currentEvalParams());
  let withScale = 0;
  for (let i = 0; i < set.count; i++) {
    const pos = positions[i];
    const white = (pos.side === 0 ? evaluate(pos) : -evaluate(pos)) | 0;
    assert.equal(exactEval(set, p, i), white, pos.toFen());
    // The real-valued model the optimiser uses differs only by the truncations.
    assert.ok(Math.abs(modelEval(set, p, i) - white) < 2, pos.toFen());
    if (set.scale[i] !== 64) withScale++;
  }
  assert.ok(withScale > 0, 'some positions exercise the endgame scale');
});

test('parameters <-> values round trip, and eval-params.ts is what the writer makes of the live tables', () => {
  const v = currentEvalParams();
  assert.deepEqual(valuesFromParams(paramsFromValues(v)), v);
  const strip = (s: string) => s.slice(s.indexOf(' */') + 3);
  assert.equal(strip(formatEvalParams(v, ['x'])), strip(readFileSync(EVAL_PARAMS_SOURCE, 'utf8')));
});

test('fitK finds the K that generated soft labels', () => {
  const positions = randomPositions(600, 11);
  const p = paramsFromValues(currentEvalParams());
  const trueK = 1.3;
  const base = setOf(positions);
  const set = setOf(positions, () => 0);
  for (let i = 0; i < set.count; i++) set.result[i] = 1 / (1 + Math.pow(10, (-trueK * modelEval(base, p, i)) / 400));
  const k = fitK(set, p);
  assert.ok(Math.abs(k - trueK) < 0.01, `K ${k}`);
  assert.ok(meanSquaredError(set, p, k) < 1e-8);
});

test('tuning recovers a changed piece value from labels it generated', () => {
  const positions = randomPositions(1500, 13).filter((p) => Math.abs(evaluate(p)) < 1500);
  const start = paramsFromValues(currentEvalParams());
  const truth = start.slice();
  const knightMg = 2 * (MATERIAL_SLOT + 2),
    knightEg = knightMg + 1; // P B N R Q: the knight is the third
  truth[knightMg] += 120;
  truth[knightEg] += 120;
  const k = 1.1;
  const set = setOf(positions);
  for (let i = 0; i < set.count; i++) set.result[i] = 1 / (1 + Math.pow(10, (-k * modelEval(set, truth, i)) / 400));
  const before = meanSquaredError(set, start, k);
  const tuned = tune(set, start, { k, iterations: 400, lr: 2, lambda: 0 }).params;
  const after = meanSquaredError(set, tuned, k);
  assert.ok(after < before / 5, `error ${before} -> ${after}`);
  assert.ok(tuned[knightMg] - start[knightMg] > 60, `knight mg moved ${tuned[knightMg] - start[knightMg]}`);
});

test('tuning stops where the held-out error is lowest', () => {
  const positions = randomPositions(800, 17).filter((p) => Math.abs(evaluate(p)) < 1500);
  const start = paramsFromValues(currentEvalParams());
  const k = 1.1;
  const truth = start.slice();
  truth[2 * (MATERIAL_SLOT + 3)] += 150;
  truth[2 * (MATERIAL_SLOT + 3) + 1] += 150; // rooks
  const train = setOf(positions.slice(0, 600)),
    valid = setOf(positions.slice(600));
  for (let i = 0; i < train.count; i++) train.result[i] = 1 / (1 + Math.pow(10, (-k * modelEval(train, truth, i)) / 400));
  // Held-out labels that disagree with the training labels: any step makes them worse.
  for (let i = 0; i < valid.count; i++) valid.result[i] = 1 / (1 + Math.pow(10, (-k * modelEval(valid, start, i)) / 400));
  const r = tune(train, start, { k, iterations: 100, lr: 2, lambda: 0, validation: valid, reportEvery: 10 });
  assert.equal(r.bestIteration, 0);
  assert.deepEqual(Array.from(r.params), Array.from(start));
  const free = tune(train, start, { k, iterations: 100, lr: 2, lambda: 0, reportEvery: 10 });
  assert.equal(free.bestIteration, 100);
  assert.ok(meanSquaredError(train, free.params, k) < meanSquaredError(train, start, k));
  const gd = tune(train, start, { k, iterations: 100, lr: 20000, lambda: 0, optimizer: 'gd' });
  assert.ok(meanSquaredError(train, gd.params, k) < meanSquaredError(train, start, k));
});

test('mirrored piece-square tuning moves a square and its mirror together', () => {
  const positions = randomPositions(300, 19);
  const start = paramsFromValues(currentEvalParams());
  const set = setOf(positions, (p) => (p.side === 0 ? 0.8 : 0.2));
  const r = tune(set, start, { k: 1.1, iterations: 30, lr: 1, lambda: 0, mirrorPst: true }).params;
  let moved = 0;
  for (let t = 0; t < 6; t++) {
    for (let sq = 0; sq < 64; sq++) {
      for (let phase = 0; phase < 2; phase++) {
        const q = 2 * (PST_SLOT + t * 64 + sq) + phase,
          m = 2 * (PST_SLOT + t * 64 + (sq ^ 7)) + phase;
        const d = r[q] - start[q];
        if (d !== 0) moved++;
        assert.ok(Math.abs(d - (r[m] - start[m])) < 1e-9, `type ${t + 1} square ${sq}`);
      }
    }
  }
  assert.ok(moved > 100, `${moved} entries moved`);
});

test('search scores in PGN comments become White-view labels, blended with the result', () => {
  assert.equal(whiteScore('+0.35/9 0.20s', 0), 35);
  assert.equal(whiteScore('+0.35/9', 1), -35);
  assert.equal(whiteScore('-1.20/12', 0), -120);
  assert.equal(whiteScore('-M3/12', 1), 2000);
  assert.ok(Number.isNaN(whiteScore('book', 0)));
  assert.ok(Number.isNaN(whiteScore(undefined, 0)));
  const b = new TuningSetBuilder();
  b.add(Position.startpos(), 1, 0);
  b.add(Position.startpos(), 0, NaN);
  b.add(Position.startpos(), 0.5, 400);
  const set = b.build();
  setLabels(set, 0.25, 1);
  assert.equal(set.result[0], 0.25 * 1 + 0.75 * 0.5);
  assert.equal(set.result[1], 0); // no score: the result alone
  assert.ok(Math.abs(set.result[2] - (0.125 + 0.75 / 1.1)) < 1e-6);
  setLabels(set, 1, 1);
  assert.deepEqual(Array.from(set.result), [1, 0, 0.5]);
});

test('isQuiet: no check, no winning capture', () => {
  assert.equal(isQuiet(Position.startpos()), true);
  // White can take an undefended queen.
  assert.equal(isQuiet(Position.fromFen('4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1')), false);
  // Check.
  assert.equal(isQuiet(Position.fromFen('4k3/8/8/8/8/8/4r3/4K3 w - - 0 1')), false);
  // A defended pawn attacked by a rook: capturing loses material, so the position is quiet.
  assert.equal(isQuiet(Position.fromFen('4k3/8/4p3/3p4/8/8/3R4/4K3 w - - 0 1')), true);
});

test('self-play: a game is deterministic, ends by rule or adjudication, and round-trips through PGN', () => {
  const spec = { index: 3, seed: 5, nodes: 300, randomPlies: 2, opening: { fen: START_FEN, moves: ['e2e4', 'e7e5'] } };
  const a = playSelfplayGame(selfplayEngine(), spec);
  const b = playSelfplayGame(selfplayEngine(), spec);
  assert.deepEqual(a, b);
  assert.ok(a.san.length > 0);
  const game = newPgnGame({ Event: 't', Site: 't', Date: '2026.11.29', Round: '1', White: 'a', Black: 'b' });
  setPgnResult(game, a.result);
  setPgnStartFen(game, a.fen);
  game.moves = pgnLine(a.san);
  const pgn = makePgn(game);
  const [g] = parsePgn(pgn);
  assert.equal(g.moves.length, a.san.length);
  assert.equal(g.result, a.result);
  // The extractor reads it back: every kept position belongs to this game and carries its result.
  const dir = mkdtempSync(join(tmpdir(), 'mc-tune-'));
  writeFileSync(join(dir, 'g.pgn'), pgn);
  const train = new TuningSetBuilder();
  const stats = extractFromPgn([join(dir, 'g.pgn')], { skipPlies: 0 }, train);
  const set = train.build();
  assert.equal(stats.games, 1);
  assert.equal(stats.positions, a.san.length);
  assert.equal(stats.kept + stats.inCheck + stats.notQuiet, stats.positions);
  const label = a.result === '1-0' ? 1 : a.result === '0-1' ? 0 : 0.5;
  assert.ok(set.result.every((r) => r === label));
});

test('tune fit: missing data is a one-line usage error', () => {
  const r = spawnSync(process.execPath, [BIN, 'tune', 'fit'], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^matrix-chess: tune fit: --pgn FILE\[,FILE\.\.\.\] is required/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  const r2 = spawnSync(process.execPath, [BIN, 'tune', 'fit', '--pgn', '/nonexistent.pgn'], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  assert.equal(r2.status, 2);
  assert.match(r2.stderr, /no such file '\/nonexistent\.pgn'/);
  const r3 = spawnSync(process.execPath, [BIN, 'tune', 'selfplay', '--games', 'x', '--out', '/tmp/x.pgn'], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  assert.equal(r3.status, 2);
  assert.match(r3.stderr, /--games: 'x' is not a whole number/);
  const dir = mkdtempSync(join(tmpdir(), 'mc-tune-'));
  writeFileSync(join(dir, 'bad.pgn.gz'), 'not gzip');
  const r4 = spawnSync(process.execPath, [BIN, 'tune', 'fit', '--pgn', join(dir, 'bad.pgn.gz')], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  assert.equal(r4.status, 2);
  assert.match(r4.stderr, /bad\.pgn\.gz: not a readable gzip file/);
  assert.equal(r4.stderr.trim().split('\n').length, 1);
});

test('tune help lists every command with its options, datagen included', () => {
  for (const cmd of ['selfplay', 'fit', 'export', 'datagen']) assert.match(TUNE_USAGE, new RegExp(`^  ${cmd} `, 'm'));
  assert.match(TUNE_USAGE, /datagen +--out DIR --shards N/);
  assert.doesNotMatch(TUNE_USAGE, /\$\{/, 'no uninterpolated template text');
});
