/** The matrix model's public surface (see docs/matrix-model.md). */
export { MatrixError } from './errors.js';
export * as mat8 from './mat8.js';
export * as bitmat from './bitmat.js';
export { MatrixBoard, START_MATRIX, type AffineStep } from './matrix-board.js';
export { MatrixPosition, affineUpdate } from './matrix-position.js';
export { generateLegal, countLegal } from './matrix-movegen.js';
export { MatrixMoveGenerator, matrixGenerator } from './backend.js';
export { matrixSliderAttacks, knightTargets, kingTargets, pawnForward, pawnCaptureTargets, rayAttacks } from './matrix-attacks.js';
export { evaluateLinear, evaluateLinearDense, linearWeights, type LinearWeights } from './linear-eval.js';
export { runMatrixDemo } from './demo.js';
