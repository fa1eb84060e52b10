import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { EG_TABLE, MG_TABLE, PHASE_MAX, PHASE_WEIGHT, evaluateMaterialPst } from '../src/engine/pst.js';
import { MatrixPosition } from '../src/matrix/matrix-position.js';
import { evaluateLinear, evaluateLinearDense, linearWeights } from '../src/matrix/linear-eval.js';
import { randomPositions } from './matrix-helpers.js';

test('Frobenius-product evaluation equals the core material+PST evaluation on random positions', () => {
  const mp = new MatrixPosition();
  const w = linearWeights(MG_TABLE, EG_TABLE, PHASE_WEIGHT, PHASE_MAX);
  let nonZero = 0;
  const fens = randomPositions(1500, 41, 120);
  for (const [i, fen] of fens.entries()) {
    const pos = Position.fromFen(fen);
    mp.load(pos);
    const want = evaluateMaterialPst(pos);
    assert.equal(evaluateLinear(mp, w), want, fen);
    if (i < 300) assert.equal(evaluateLinearDense(mp, w), want, fen);
    if (want !== 0) nonZero++;
  }
  assert.ok(nonZero > 1000);
});
