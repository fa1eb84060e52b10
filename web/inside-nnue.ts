/**
 * The evaluation network at work for the current position: its output, the two accumulators
 * (one bar per hidden neuron, the clipped activation that reaches the output layer), what each
 * piece contributes, and the last move as the accumulator's affine update
 * a′ = a + W₁·(e_to − e_from) − W₁·e_captured.
 */
import type { Position } from '../src/core/position.js';
import { castleRookTo, moveFrom, moveKind, movePromo, moveTo, KIND_CASTLE, KIND_EN_PASSANT } from '../src/core/move.js';
import { KING, WHITE, makePiece, squareName } from '../src/core/types.js';
import type { NnueEvaluator } from '../src/engine/nnue/evaluator.js';
import { featureIndex, featureInputs, kingTransform, type NnueFeatures } from '../src/engine/nnue/features.js';
import { NNUE_SLOTS } from '../src/engine/nnue/kernel.js';
import { cellOfSquare, el, matrixGrid } from './grid.js';

function activationStrip(label: string, acc: Int16Array, qa: number, testid: string): HTMLElement {
  const strip = el('div', { class: 'nnue-strip', 'data-testid': testid });
  let active = 0;
  for (let i = 0; i < acc.length; i++) {
    const a = Math.max(0, Math.min(qa, acc[i])) / qa;
    if (a > 0) active++;
    const cell = el('span', { class: 'nnue-cell', title: `neuron ${i}: accumulator ${acc[i]}, clipped ${(a * qa) | 0}/${qa}` });
    cell.style.opacity = String(0.08 + 0.92 * a);
    strip.append(cell);
  }
  return el('div', {}, el('div', { class: 'dim' }, `${label}: ${active} of ${acc.length} neurons active`), strip);
}

/**
 * Feature columns the last move added and removed, in White's perspective (with king-mirrored
 * features, in the reflection White's king stood in before the move; with king buckets, in the
 * bucket it stood in).
 */
function moveColumns(before: Position, m: number, features: NnueFeatures): { added: string[]; removed: string[] } {
  const from = moveFrom(m),
    to = moveTo(m),
    piece = before.board[from],
    promo = movePromo(m),
    king = kingTransform(features, 0, before.kingSq[0]);
  const placed = promo ? (piece & 8) | promo : piece;
  const col = (p: number, sq: number): string => `${featureIndex(0, p, sq, king)} (${squareName(sq)})`;
  const added = [col(placed, to)],
    removed = [col(piece, from)];
  if (moveKind(m) === KIND_CASTLE) {
    const rFrom = before.castleRookFrom(m),
      rTo = castleRookTo(m),
      rook = before.board[rFrom];
    added.push(col(rook, rTo));
    removed.push(col(rook, rFrom));
  } else {
    const capSq = moveKind(m) === KIND_EN_PASSANT ? to ^ 8 : to;
    if (before.board[capSq] !== 0) removed.push(col(before.board[capSq], capSq));
  }
  return { added, removed };
}

/** `pos` with `lastMove` (0 for none) just played; the position is left as it was. */
export function renderNnuePanel(nnue: NnueEvaluator, pos: Position, lastMove: number): HTMLElement {
  const net = nnue.network;
  const stmView = nnue.evaluateFresh(pos);
  const white = pos.side === 0 ? stmView : -stmView;
  const signed = (v: number): string => `${v >= 0 ? '+' : ''}${v}`;
  // A residual network corrects the classical evaluation: show both parts of the sum.
  let sum = '';
  if (net.kind === 'residual') {
    const own = nnue.networkOutputFresh(pos),
      ownWhite = pos.side === 0 ? own : -own;
    sum = `: the classical evaluation ${signed(white - ownWhite)} and the network's correction ${signed(ownWhite)}`;
  }
  const us = nnue.kernel.accumulator(NNUE_SLOTS - 1, pos.side),
    them = nnue.kernel.accumulator(NNUE_SLOTS - 1, pos.side ^ 1);
  const contrib = nnue.pieceContributions(pos);
  const cells = new Int32Array(64);
  for (let sq = 0; sq < 64; sq++) cells[cellOfSquare(sq)] = contrib[sq];
  const parts: HTMLElement[] = [
    el(
      'p',
      { 'data-testid': 'nnue-eval' },
      `Network: ${signed(white)} cp for White${sum} (${featureInputs(net.features)}×2 → ${net.hidden}×2 ${net.activation === 'screlu' ? 'squared clipped ReLU' : 'clipped ReLU'} → 1, output bucket by ${net.buckets} piece counts)`,
    ),
    activationStrip(`Side to move (${pos.side === 0 ? 'White' : 'Black'}) accumulator`, us, net.qa, 'nnue-acc-us'),
    activationStrip("Other side's accumulator", them, net.qa, 'nnue-acc-them'),
    matrixGrid(`What each piece adds${net.kind === 'residual' ? ' to the correction' : ''} (cp, White's view)`, cells, {
      testid: 'nnue-pieces',
      format: (v, i) => (pos.board[i ^ 56] === 0 ? '' : String(v)),
      cellClass: (i) => (contrib[i ^ 56] > 0 ? 'pos' : contrib[i ^ 56] < 0 ? 'neg' : undefined),
    }),
  ];
  if (lastMove !== 0) {
    pos.unmakeMove();
    try {
      const { added, removed } = moveColumns(pos, lastMove, net.features);
      const from = moveFrom(lastMove),
        recomputed =
          net.features === 'king-mirrored' && pos.board[from] === makePiece(WHITE, KING) && ((from ^ moveTo(lastMove)) & 4) !== 0;
      parts.push(
        el(
          'p',
          { class: 'formula', 'data-testid': 'nnue-update' },
          recomputed
            ? "Last move: White's king crossed the d/e boundary, so White's inputs are seen reflected a↔h: a = W₁·x′ + b₁, recomputed"
            : `Last move: a′ = a + W₁·(${added.map((c) => `e${c}`).join(' + ')}) − W₁·(${removed.map((c) => `e${c}`).join(' + ')})`,
        ),
      );
    } finally {
      pos.makeMove(lastMove);
    }
  }
  return el('div', {}, ...parts);
}
