/**
 * The "see inside" panels: the last move as the affine update M′ = (M ⊙ Z) + v·E, and for a
 * selected piece the matrix products that give its targets and (sliders) the BNN networks'
 * answer. The BNN weights are fetched on first need.
 */
import { ROOK, BISHOP, QUEEN } from '../src/core/types.js';
import type { Game } from './game.js';
import { moveUpdate, renderMoveUpdate, pieceProducts } from './inside-matrix.js';
import { renderBnnPanel, type SmallWeights } from './inside-bnn.js';
import { fetchBnnWeights } from './bnn-weights.js';
import { el } from './grid.js';
import { showMessage, ui } from './page.js';

export function renderMovePanel(game: Game): void {
  if (game.moves.length === 0) {
    ui.movePanel.replaceChildren(el('p', { class: 'hint' }, 'Make a move to see M′ = (M ⊙ Z) + v·E.'));
    return;
  }
  const m = game.moves[game.moves.length - 1];
  game.pos.unmakeMove();
  try {
    ui.movePanel.replaceChildren(renderMoveUpdate(moveUpdate(game.pos, m), game.sans[game.sans.length - 1]));
  } catch (e) {
    ui.movePanel.replaceChildren(el('p', { class: 'bad' }, `matrix panel: ${e instanceof Error ? e.message : String(e)}`));
  } finally {
    game.pos.makeMove(m);
  }
}

export class PiecePanels {
  private weights: Uint8Array | null = null;
  private weightsError: string | null;
  private weightsLoading = false;
  private readonly small: SmallWeights;

  /**
   * `weightsUrl`: the 16x32x1 weights file next to the page, or null when the build had none;
   * `smallWeightsUrl` the same for 16x8x1, fetched with it. `onWeights` is called when a fetch
   * ends (to render again).
   */
  constructor(
    private readonly weightsUrl: string | null,
    private readonly smallWeightsUrl: string | null,
    private readonly onWeights: () => void,
  ) {
    this.weightsError = weightsUrl ? null : 'This build has no BNN weights (weights/ was empty at build time).';
    this.small = { weights: null, error: smallWeightsUrl ? null : 'this build has no 16x8x1 weights' };
  }

  /** Renders the panels for the selected square; returns the board highlights (class by square). */
  render(game: Game, selected: number | null): Map<number, string> {
    const marks = new Map<number, string>();
    const mark = (sq: number, cls: string) => {
      const had = marks.get(sq);
      marks.set(sq, had ? `${had} ${cls}` : cls);
    };
    if (selected === null || selected < 0 || game.pos.board[selected] === 0) {
      ui.piecePanel.replaceChildren(el('p', { class: 'hint' }, 'Click a piece (either colour) to see the products that give its targets.'));
      ui.bnnPanel.replaceChildren(el('p', { class: 'hint' }, 'Click a rook, bishop or queen.'));
      return marks;
    }
    const sq = selected;
    try {
      const pp = pieceProducts(game.pos, sq);
      if (pp) {
        ui.piecePanel.replaceChildren(pp.element);
        for (const t of pp.targets) mark(t, 'inside-target');
      }
    } catch (e) {
      ui.piecePanel.replaceChildren(el('p', { class: 'bad' }, `matrix panel: ${e instanceof Error ? e.message : String(e)}`));
    }
    const type = game.pos.board[sq] & 7;
    if ((type === ROOK || type === BISHOP || type === QUEEN) && !this.weights && !this.weightsError) {
      ui.bnnPanel.replaceChildren(el('p', { class: 'hint' }, 'Loading the network weights…'));
      this.loadWeights();
    } else {
      try {
        const b = renderBnnPanel(game.pos, sq, this.weights, this.weightsError, this.small);
        ui.bnnPanel.replaceChildren(b.element);
        if (b.attacks) for (const t of b.attacks) mark(t, 'inside-bnn');
      } catch (e) {
        ui.bnnPanel.replaceChildren(el('p', { class: 'bad' }, `network panel: ${e instanceof Error ? e.message : String(e)}`));
      }
    }
    mark(sq, 'inside-selected');
    return marks;
  }

  private loadWeights(): void {
    const url = this.weightsUrl;
    if (this.weights || this.weightsLoading || !url) return;
    this.weightsLoading = true;
    const smallUrl = this.smallWeightsUrl;
    // The small networks are an addition to the panel: their failure is shown in their place only.
    const small = smallUrl
      ? fetchBnnWeights(smallUrl, '16x8x1').then(
          (parsed) => {
            this.small.weights = parsed.weights;
          },
          (e: unknown) => {
            this.small.error = `could not load the weights: ${e instanceof Error ? e.message : String(e)}`;
          },
        )
      : Promise.resolve();
    Promise.all([fetchBnnWeights(url), small])
      .then(([parsed]) => {
        this.weights = parsed.weights;
        if (!parsed.complete)
          showMessage('Note: the BNN weights come from a partial training run; untrained networks answer nothing.', true);
      })
      .catch((e: unknown) => {
        this.weightsError = `Could not load the BNN weights: ${e instanceof Error ? e.message : String(e)}`;
      })
      .finally(() => {
        this.weightsLoading = false;
        this.onWeights();
      });
  }
}
