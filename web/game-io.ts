/**
 * FEN and PGN in and out: the paste boxes load a new game only when everything parsed (a bad
 * paste says why and keeps the game), and the copy buttons use the clipboard when allowed.
 */
import { FenError } from '../src/core/fen.js';
import { PgnError } from '../src/core/pgn/index.js';
import { Game } from './game.js';
import { showMessage, ui } from './page.js';

export interface GameIoHooks {
  current(): Game;
  /** Makes `game` the page's game and shows `note`. */
  replace(game: Game, note: string): void;
  /** The game's PGN as the page exports it (variations, opening tags). */
  pgn(): string;
}

export function wireGameIo(hooks: GameIoHooks): void {
  ui.loadFen.addEventListener('click', () => {
    const text = ui.fen.value.trim();
    try {
      const game = Game.fromFen(text);
      hooks.replace(
        game,
        game.chess960 ? 'Chess960 position loaded from FEN. Castle by dropping the king on its rook.' : 'Position loaded from FEN.',
      );
    } catch (e) {
      showMessage(e instanceof FenError ? `${e.message}. The current game is unchanged.` : `Could not load the FEN: ${String(e)}`, true);
    }
  });
  ui.fen.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') ui.loadFen.click();
  });
  ui.copyFen.addEventListener('click', () => {
    ui.fen.select();
    void copyText(hooks.current().fen(), 'FEN');
  });
  ui.loadPgn.addEventListener('click', () => {
    try {
      hooks.replace(Game.fromPgn(ui.pgn.value), 'Game loaded from PGN.');
    } catch (e) {
      const why = e instanceof PgnError || e instanceof FenError ? e.message : `Could not load the PGN: ${String(e)}`;
      showMessage(`${why}. The current game is unchanged.`, true);
    }
  });
  ui.copyPgn.addEventListener('click', () => {
    ui.pgn.value = hooks.pgn();
    ui.pgn.select();
    void copyText(ui.pgn.value, 'PGN');
  });
}

async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showMessage(`${what} copied to the clipboard.`);
  } catch {
    showMessage(`${what} could not be copied automatically; it is selected in the box, press Ctrl+C.`);
  }
}
