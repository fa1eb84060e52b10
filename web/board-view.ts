/**
 * The chessground board: shows the game, offers only the legal destinations the core reports,
 * and asks which piece to promote to. It holds no game state of its own.
 */
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';
import type { DrawShape } from 'chessground/draw';
import { moveFrom, movePromo, moveTo } from '../src/core/move.js';
import { squareName, parseSquare, QUEEN, ROOK, BISHOP, KNIGHT } from '../src/core/types.js';
import type { Game } from './game.js';
import { el } from './grid.js';
import { clearMessage, ui } from './page.js';

export interface BoardEvents {
  /** A legal move was chosen on the board (after the promotion piece, if any). */
  onMove(move: number): void;
  /** A move was started but not played (promotion cancelled): the board must show the game again. */
  onCancel(): void;
  /** A square was selected (for the see-inside panels). */
  onSelect(sq: number): void;
}

export class BoardView {
  private readonly cg: Api;

  constructor(
    private readonly events: BoardEvents,
    private readonly game: () => Game,
  ) {
    this.cg = Chessground(ui.board, {
      orientation: 'white',
      coordinates: true,
      autoCastle: true,
      movable: {
        free: false,
        color: 'white',
        showDests: true,
        events: { after: (orig, dest) => this.onBoardMove(orig, dest) },
        rookCastle: false,
      },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 150 },
      events: { select: (key) => this.events.onSelect(parseSquare(key)) },
    });
  }

  /** Shows the game; `mover` is the colour the user may move now (none while the engine thinks). */
  sync(orientation: 'white' | 'black', mover: 'white' | 'black' | undefined): void {
    const game = this.game(),
      moves = game.moves;
    const last = moves.length ? moves[moves.length - 1] : 0;
    this.cg.set({
      fen: game.fen(),
      orientation,
      turnColor: game.pos.side === 0 ? 'white' : 'black',
      check: game.pos.inCheck(),
      lastMove: last ? [squareName(moveFrom(last)) as Key, squareName(moveTo(last)) as Key] : undefined,
      movable: { color: mover, dests: mover ? this.dests() : new Map() },
    });
    ui.board.dataset.fen = game.fen();
    ui.board.dataset.arrows = '';
  }

  /** An arrow for the engine's current best move (UCI), or none. */
  showArrow(uci: string | null): void {
    this.cg.setAutoShapes(uci ? [{ orig: uci.slice(0, 2) as Key, dest: uci.slice(2, 4) as Key, brush: 'paleBlue' }] : []);
  }

  /**
   * Arrows for UCI moves without playing them: one green arrow for a hint, or a line (the PV)
   * numbered 1, 2, … in the mover's colours (green for the side to move, blue for the other).
   */
  showMoves(moves: string[], numbered: boolean): void {
    const shapes: DrawShape[] = moves.map((uci, i) => ({
      orig: uci.slice(0, 2) as Key,
      dest: uci.slice(2, 4) as Key,
      brush: i % 2 === 0 ? 'green' : 'blue',
      ...(numbered ? { label: { text: String(i + 1) } } : {}),
    }));
    this.cg.setAutoShapes(shapes);
    ui.board.dataset.arrows = moves.join(' ');
  }

  /** Extra square classes (the see-inside panels' targets), by square. */
  highlight(classes: Map<number, string>): void {
    const custom = new Map<Key, string>();
    for (const [sq, cls] of classes) custom.set(squareName(sq) as Key, cls);
    this.cg.set({ highlight: { custom } });
  }

  hidePromotion(): void {
    ui.promo.hidden = true;
  }

  private dests(): Map<Key, Key[]> {
    const d = new Map<Key, Key[]>();
    for (const m of this.game().legalMoves()) {
      const f = squareName(moveFrom(m)) as Key,
        t = squareName(this.game().boardTo(m)) as Key;
      const list = d.get(f);
      if (!list) d.set(f, [t]);
      else if (!list.includes(t)) list.push(t);
    }
    return d;
  }

  private onBoardMove(orig: Key, dest: Key): void {
    clearMessage();
    const from = parseSquare(orig),
      to = parseSquare(dest);
    const candidates = this.game()
      .legalMoves()
      .filter((m) => moveFrom(m) === from && this.game().boardTo(m) === to);
    if (candidates.length === 0) {
      this.events.onCancel();
      return;
    } // cannot happen: the board only offers legal dests
    if (candidates.length === 1) {
      this.events.onMove(candidates[0]);
      return;
    }
    this.showPromotionPicker(candidates, to);
  }

  private showPromotionPicker(moves: number[], to: number): void {
    const color = this.game().pos.side === 0 ? 'white' : 'black';
    ui.promo.replaceChildren();
    const names: Record<number, string> = { [QUEEN]: 'queen', [ROOK]: 'rook', [BISHOP]: 'bishop', [KNIGHT]: 'knight' };
    for (const t of [QUEEN, KNIGHT, ROOK, BISHOP]) {
      const m = moves.find((x) => movePromo(x) === t);
      if (m === undefined) continue;
      const b = el('button', { class: 'promo-choice', title: `promote to ${names[t]}`, 'data-piece': names[t] });
      b.append(document.createElement('piece'));
      b.firstElementChild!.className = `${names[t]} ${color}`;
      b.addEventListener('click', () => {
        ui.promo.hidden = true;
        this.events.onMove(m);
      });
      ui.promo.append(b);
    }
    const cancel = el('button', { class: 'promo-cancel', title: 'cancel' }, '✕');
    cancel.addEventListener('click', () => {
      ui.promo.hidden = true;
      this.events.onCancel();
    });
    ui.promo.append(cancel);
    ui.promo.dataset.square = squareName(to);
    ui.promo.hidden = false;
  }
}
