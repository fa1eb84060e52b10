import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { BENCH_FENS, evaluate, evaluateMaterialPst, evaluateFeatures, EVAL_WEIGHTS, TERM_COUNT, seeGe } from '../src/engine/index.js';
import { MG_TABLE, EG_TABLE, PHASE_MAX, PHASE_WEIGHT, gamePhase } from '../src/engine/pst.js';
import { defaultGenerator } from '../src/core/movegen.js';
import { moveToUci } from '../src/core/move.js';
import { mirrorFen } from './helpers.js';

test('evaluation is colour-symmetric', () => {
  for (const fen of BENCH_FENS) {
    const a = Position.fromFen(fen),
      b = Position.fromFen(mirrorFen(fen));
    assert.equal(evaluate(a), evaluate(b), fen);
    assert.equal(evaluateMaterialPst(a), evaluateMaterialPst(b), fen);
  }
});

test('evaluateMaterialPst follows the documented formula', () => {
  for (const fen of BENCH_FENS) {
    const pos = Position.fromFen(fen);
    let mg = 0,
      eg = 0,
      phase = 0;
    for (let sq = 0; sq < 64; sq++) {
      const p = pos.board[sq];
      if (p === 0) continue;
      const t = p & 7,
        white = p >> 3 === 0;
      const i = t * 64 + (white ? sq : sq ^ 56);
      mg += white ? MG_TABLE[i] : -MG_TABLE[i];
      eg += white ? EG_TABLE[i] : -EG_TABLE[i];
      phase += PHASE_WEIGHT[t];
    }
    phase = Math.min(phase, PHASE_MAX);
    assert.equal(gamePhase(pos), phase);
    const w = Math.trunc((mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX);
    assert.equal(evaluateMaterialPst(pos), (pos.side === 0 ? w : -w) | 0, fen);
  }
});

test('evaluation is a weighted sum of features', () => {
  const out = new Int32Array(TERM_COUNT);
  for (const fen of [...BENCH_FENS, '8/8/3k4/8/8/8/8/2B1KN2 w - - 0 1', '8/8/8/8/2k5/8/8/R3K3 b - - 0 1']) {
    const pos = Position.fromFen(fen);
    const { phase, scale, mgPst, egPst, mopUp } = evaluateFeatures(pos, out);
    let mg = mgPst,
      eg = egPst;
    for (let i = 0; i < TERM_COUNT; i++) {
      mg += EVAL_WEIGHTS[2 * i] * out[i];
      eg += EVAL_WEIGHTS[2 * i + 1] * out[i];
    }
    let w = Math.trunc((mg * phase + eg * (24 - phase)) / 24);
    w = Math.trunc((w * scale) / 64) + mopUp;
    assert.equal(evaluate(pos), (pos.side === 0 ? w : -w) | 0, fen);
  }
});

test('insufficient material evaluates to zero', () => {
  for (const fen of [
    '8/8/4k3/8/8/3BK3/8/8 w - - 0 1',
    '8/8/4k3/8/8/3NK3/8/8 b - - 0 1',
    '8/8/4k3/8/8/2NNK3/8/8 w - - 0 1',
    '8/8/4k3/8/8/4K3/8/8 w - - 0 1',
  ]) {
    assert.equal(evaluate(Position.fromFen(fen)), 0, fen);
  }
  // Real winning material still scores.
  assert.ok(evaluate(Position.fromFen('8/8/4k3/8/8/3RK3/8/8 w - - 0 1')) > 300);
  assert.ok(evaluate(Position.fromFen('8/8/4k3/8/8/2BNK3/8/8 w - - 0 1')) > 300);
});

test('static exchange evaluation', () => {
  const moves = new Int32Array(256);
  const find = (pos: Position, uci: string) => {
    const n = defaultGenerator.generate(pos, moves, 0);
    for (let i = 0; i < n; i++) if (moveToUci(moves[i]) === uci) return moves[i];
    throw new Error(`no move ${uci}`);
  };
  // Pawn takes a defended knight: wins a knight for a pawn.
  let pos = Position.fromFen('4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1');
  assert.ok(seeGe(pos, find(pos, 'd4e5'), 200));
  // Queen takes a pawn defended by a pawn: loses the queen.
  pos = Position.fromFen('4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1');
  assert.ok(!seeGe(pos, find(pos, 'e2e5'), 0));
  // Rook takes a rook defended once: an even trade.
  pos = Position.fromFen('4r1k1/8/8/4r3/8/8/4R3/6K1 w - - 0 1');
  assert.ok(seeGe(pos, find(pos, 'e2e5'), 0));
  assert.ok(!seeGe(pos, find(pos, 'e2e5'), 1));
  // With a second rook behind (x-ray), the exchange wins a rook.
  pos = Position.fromFen('4r1k1/8/8/4r3/8/8/4R3/4R1K1 w - - 0 1');
  assert.ok(seeGe(pos, find(pos, 'e2e5'), 500));
  assert.ok(!seeGe(pos, find(pos, 'e2e5'), 501));
});

test('rook pawns held in the corner evaluate to zero; the right bishop, a knight or a far king still win', () => {
  for (const fen of [
    'k7/P7/8/8/4K3/4B3/8/8 b - - 0 1', // a wrong (dark) bishop: a8 is light
    '8/6kP/3K4/8/4B3/8/8/8 b - - 0 1', // the same on the h-file
    '1k6/8/8/P7/P7/8/8/4K3 w - - 0 1', // two a-pawns, no bishop, the king one step from a8
    'k7/8/P7/7p/4K3/4B3/8/8 w - - 0 1', // the defender's own pawns do not change it
  ]) {
    assert.equal(evaluate(Position.fromFen(fen)), 0, fen);
    assert.equal(evaluate(Position.fromFen(mirrorFen(fen))), 0, mirrorFen(fen));
  }
  for (const fen of [
    'k7/P7/8/8/4K3/3B4/8/8 b - - 0 1', // a light bishop covers a8
    '8/P7/8/8/4K3/4B3/8/5k2 b - - 0 1', // the king is far from the corner
    'k7/P7/8/8/4K3/4N3/8/8 b - - 0 1', // a knight, not a bishop
    '1k6/1P6/8/8/4K3/4B3/8/8 b - - 0 1', // a b-pawn
    'k7/P7/8/8/4K3/4B3/7P/8 b - - 0 1', // pawns on two files
  ]) {
    // The bare king's side is to move: its view, so below 0 (mirrored too).
    assert.ok(evaluate(Position.fromFen(fen)) < -50, `${fen}: ${evaluate(Position.fromFen(fen))}`);
    assert.ok(evaluate(Position.fromFen(mirrorFen(fen))) < -50, mirrorFen(fen));
  }
});
