/**
 * The page: wires the board (board-view), the engine worker (engine-client, engine-info), the
 * "see inside" panels (panels), FEN/PGN input (game-io) and game analysis (analysis-panel) to the one game being played. All
 * chess rules come from src/core; the board only displays and collects moves the core reports
 * legal. This module holds the page's state: the game, who plays which side, orientation.
 */
import type { BackendName } from '../src/backends.js';
import { moveToUci } from '../src/core/move.js';
import { Position } from '../src/core/position.js';
import { CHESS960_POSITIONS, chess960StartFen } from '../src/core/chess960.js';
import { AnalysisPanel } from './analysis-panel.js';
import { BoardView } from './board-view.js';
import { EngineClient } from './engine-client.js';
import { clearEngineInfo, fmtNodes, showEngineInfo } from './engine-info.js';
import { Game } from './game.js';
import { wireGameIo } from './game-io.js';
import { el } from './grid.js';
import { clearMessage, showMessage, ui } from './page.js';
import { PiecePanels, renderMovePanel } from './panels.js';
import { renderNnuePanel } from './inside-nnue.js';
import { fetchNnueReference } from './nnue-net.js';
import type { NnueEvaluator } from '../src/engine/nnue/evaluator.js';
import { NNUE_BY_DEFAULT } from '../src/engine/nnue/network.js';
import type { NnueUrls } from './protocol.js';

/** Set by the build: the weights file next to the page, or null when the build had none. */
declare const __BNN_WEIGHTS__: string | null;
/** The same for the small 16x8x1 networks the network panel shows beside the seed's. */
declare const __BNN_SMALL_WEIGHTS__: string | null;
/** Set by the build: the evaluation network and its kernel next to the page, or null when the build had none. */
declare const __NNUE__: NnueUrls | null;

type Mode = 'white' | 'black' | 'watch' | 'human';

let game = new Game();
let mode: Mode = 'white';
let orientation: 'white' | 'black' = 'white';
/** In engine-vs-engine mode, Stop pauses until "Engine move" is pressed. */
let paused = false;
let selected: number | null = null;

const board = new BoardView(
  {
    onMove: (move) => {
      game.play(move);
      afterChange();
    },
    onCancel: () => syncBoard(),
    onSelect: (sq) => {
      selected = sq;
      renderPiecePanels();
    },
  },
  () => game,
);

const panels = new PiecePanels(__BNN_WEIGHTS__, __BNN_SMALL_WEIGHTS__, () => renderPiecePanels());
const analysisPanel = new AnalysisPanel(ui.analysisPanel, () => renderMoves());

const engine = new EngineClient({
  onReport(msg, fen) {
    // While it thinks, an arrow shows the engine's current best move.
    if (engine.searching && msg.pv.length > 0 && fen === game.fen()) board.showArrow(msg.pv[0]);
    showEngineInfo(msg.score, msg.depth, msg.pv, fen, msg.type === 'info' ? `${fmtNodes(msg.nodes)} nodes, ${fmtNodes(msg.nps)}/s` : '');
  },
  onDone(best, backend, msg) {
    ui.thinking.textContent = `${backend}, ${msg.evaluation}: depth ${msg.depth}, ${fmtNodes(msg.nodes)} nodes in ${(msg.timeMs / 1000).toFixed(2)} s${msg.threads > 1 ? `, ${msg.threads} threads` : ''}`;
    refreshEngineButtons();
    if (best) playUci(best);
    else syncBoard();
  },
  onError(message, crashed) {
    refreshEngineButtons();
    if (crashed) {
      showMessage(message, true);
      return;
    }
    ui.thinking.textContent = '';
    showMessage(`Engine: ${message}`, true);
    syncBoard();
    // The neural backend can fail to start (weights missing or corrupt): carry on with bitboard.
    if (ui.backend.value.startsWith('bnn')) {
      ui.backend.value = 'bitboard';
      showMessage(`Engine: ${message}. Switched to the bitboard backend.`, true);
      if (engineToMove()) startSearch();
    }
  },
});

// ---------- engine ----------

/** The BNN weights file of the chosen neural backend (the small networks have their own), or null. */
function bnnWeightsUrl(): string | null {
  return ui.backend.value === 'bnn-16x8x1' ? __BNN_SMALL_WEIGHTS__ : __BNN_WEIGHTS__;
}

function limits(): { depth?: number; movetime?: number } {
  const [kind, value] = ui.strength.value.split(':');
  return kind === 'movetime' ? { movetime: Number(value) } : { depth: Number(value) };
}

function startSearch(): void {
  if (engine.searching || engine.analysing || game.status().over) return;
  engine.start(game.fen(), {
    startFen: game.startFen,
    moves: game.uciMoves(),
    chess960: game.chess960,
    backend: ui.backend.value as BackendName,
    weightsUrl: bnnWeightsUrl(),
    nnue: ui.evaluation.value === 'nnue' ? __NNUE__ : null,
    limits: limits(),
  });
  ui.thinking.textContent = `thinking (${ui.backend.value}, ${ui.strength.selectedOptions[0]?.textContent ?? ''})…`;
  refreshEngineButtons();
  syncBoard();
}

/** Ends the current search, playing its best move so far if asked and still current. */
function stopSearch(playBest: boolean): void {
  const stopped = engine.stop();
  if (!stopped) return;
  ui.thinking.textContent = '';
  refreshEngineButtons();
  if (playBest && stopped.best && stopped.fen === game.fen()) playUci(stopped.best);
  else syncBoard();
}

function engineToMove(): boolean {
  if (game.status().over) return false;
  const side = game.pos.side;
  switch (mode) {
    case 'watch':
      return !paused;
    case 'white':
      return side === 1;
    case 'black':
      return side === 0;
    default:
      return false;
  }
}

function refreshEngineButtons(): void {
  ui.stop.disabled = !engine.searching && !engine.analysing;
  ui.go.disabled = engine.searching || engine.analysing || game.status().over;
  ui.analyse.disabled = engine.analysing;
}

// ---------- game analysis ----------

/** Names the game an analysis belongs to: its start and its moves. */
const gameKey = (): string => `${game.startFen}|${game.uciMoves().join(' ')}`;

function startAnalysis(): void {
  if (game.moves.length === 0) {
    showMessage('There are no moves to analyse yet.', true);
    return;
  }
  stopSearch(false);
  if (mode === 'watch') paused = true;
  clearMessage();
  const key = gameKey();
  analysisPanel.progress(0, game.moves.length + 1);
  engine.analyse(
    {
      pgn: game.toPgn(),
      nodes: Number(ui.analysisNodes.value),
      backend: ui.backend.value as BackendName,
      weightsUrl: bnnWeightsUrl(),
      nnue: ui.evaluation.value === 'nnue' ? __NNUE__ : null,
    },
    {
      onProgress: (searched, total) => analysisPanel.progress(searched, total),
      onDone: (analysis) => {
        analysisPanel.show(key, analysis);
        syncAll();
        if (engineToMove()) startSearch();
      },
      onError: (message) => {
        analysisPanel.note(`Analysis failed: ${message}`, true);
        syncAll();
      },
    },
  );
  syncAll();
}

/** Ends an analysis under way (Stop, or the game changed). */
function stopAnalysis(note: string): void {
  if (engine.stopAnalysis()) analysisPanel.note(note);
}

// ---------- moves and display ----------

function playUci(uci: string): void {
  try {
    game.playUci(uci);
  } catch (e) {
    showMessage(`Engine move ${uci} was refused: ${e instanceof Error ? e.message : String(e)}`, true);
  }
  afterChange();
}

function afterChange(): void {
  syncAll();
  if (engineToMove()) setTimeout(startSearch, mode === 'watch' ? 250 : 0);
}

/** The colour the user may move now, if any. */
function humanColor(): 'white' | 'black' | undefined {
  if (engine.searching || engine.analysing || game.status().over) return undefined;
  const side = game.pos.side === 0 ? 'white' : 'black';
  if (mode === 'human') return side;
  if (mode === side) return side;
  return undefined;
}

function syncBoard(): void {
  board.sync(orientation, humanColor());
}

function renderPiecePanels(): void {
  board.highlight(panels.render(game, selected));
}

// ---------- the evaluation network ----------

let nnueView: NnueEvaluator | null = null;
ui.evaluation.value = NNUE_BY_DEFAULT ? 'nnue' : 'classical';
if (!__NNUE__) {
  ui.evaluation.value = 'classical';
  ui.evaluation.disabled = true;
  ui.nnuePanel.replaceChildren(
    el('p', { class: 'hint' }, 'This build has no evaluation network (weights/nnue.bin was missing at build time).'),
  );
} else {
  fetchNnueReference(__NNUE__.net).then(
    (n) => {
      nnueView = n;
      renderNnue();
    },
    (e: unknown) => {
      ui.nnuePanel.replaceChildren(el('p', { class: 'bad' }, `network: ${e instanceof Error ? e.message : String(e)}`));
      ui.evaluation.value = 'classical';
    },
  );
}

function renderNnue(): void {
  if (!nnueView) return;
  const moves = game.moves;
  ui.nnuePanel.replaceChildren(renderNnuePanel(nnueView, game.pos, moves.length > 0 ? moves[moves.length - 1] : 0));
}

function syncAll(): void {
  board.hidePromotion();
  board.showArrow(null);
  syncBoard();
  ui.status.textContent = game.statusText();
  ui.status.classList.toggle('over', game.status().over);
  ui.fen.value = game.fen();
  // A finished analysis of this very game shows its annotated PGN; one of another game is dropped.
  const key = gameKey();
  analysisPanel.dropUnless(key);
  const analysis = analysisPanel.analysisOf(key);
  ui.pgn.value = analysis ? analysis.pgn : game.toPgn();
  renderMoves();
  renderMovePanel(game);
  renderPiecePanels();
  renderNnue();
  refreshEngineButtons();
}

function renderMoves(): void {
  ui.moves.replaceChildren();
  const start = Position.fromFen(game.startFen);
  let num = start.fullmove,
    white = start.side === 0;
  let li: HTMLLIElement | null = null;
  game.sans.forEach((san, i) => {
    if (white || !li) {
      li = el('li', {}, el('span', { class: 'num' }, `${num}.`));
      if (!white) li.append(el('span', { class: 'san' }, '…'));
      ui.moves.append(li);
    }
    // An analysed move carries its judgement; a ply picked on the evaluation graph is marked.
    const cls = `san${i === game.sans.length - 1 ? ' last' : ''}${analysisPanel.pickedPly === i ? ' picked' : ''}`;
    li.append(el('span', { class: cls, 'data-ply': String(i) }, san + analysisPanel.nagAt(i)));
    if (!white) {
      num++;
      li = null;
    }
    white = !white;
  });
  ui.moves.scrollTop = ui.moves.scrollHeight;
}

function replaceGame(g: Game, note: string): void {
  stopSearch(false);
  stopAnalysis('');
  analysisPanel.clear();
  game = g;
  selected = null;
  paused = false;
  engine.newGame();
  clearEngineInfo();
  showMessage(note);
  afterChange();
}

// ---------- controls ----------

ui.newGame.addEventListener('click', () => replaceGame(new Game(), 'New game.'));
ui.newGame960.addEventListener('click', () => {
  const n = Math.floor(Math.random() * CHESS960_POSITIONS);
  replaceGame(new Game(chess960StartFen(n), true), `New Chess960 game: start position ${n}. Castle by dropping the king on its rook.`);
});
ui.undo.addEventListener('click', () => {
  stopSearch(false);
  stopAnalysis('Analysis stopped: a move was taken back.');
  clearMessage();
  if (!game.undo()) return;
  // Against the engine, take back its reply too so it is the player's turn again.
  if ((mode === 'white' || mode === 'black') && engineToMove() && game.moves.length > 0) game.undo();
  if (mode === 'watch') paused = true;
  syncAll();
  if (engineToMove()) startSearch();
});
ui.flip.addEventListener('click', () => {
  orientation = orientation === 'white' ? 'black' : 'white';
  syncBoard();
});
ui.go.addEventListener('click', () => {
  paused = false;
  clearMessage();
  startSearch();
});
ui.stop.addEventListener('click', () => {
  if (engine.analysing) {
    stopAnalysis('Analysis stopped.');
    syncAll();
    return;
  }
  if (mode === 'watch') paused = true;
  stopSearch(true);
});
ui.mode.addEventListener('change', () => {
  mode = ui.mode.value as Mode;
  stopSearch(false);
  paused = false;
  if (mode === 'white' || mode === 'black') orientation = mode;
  syncAll();
  if (engineToMove()) startSearch();
});
ui.backend.addEventListener('change', () => {
  if (ui.backend.value.startsWith('bnn') && !bnnWeightsUrl()) {
    ui.backend.value = 'bitboard';
    showMessage('The neural backend needs BNN weights, which this build does not include.', true);
  }
});
ui.analyse.addEventListener('click', startAnalysis);
wireGameIo({ current: () => game, replace: replaceGame });

// Exposed for debugging in the console (and read by the browser test as a cross-check).
(window as unknown as { matrixChess: unknown }).matrixChess = {
  fen: () => game.fen(),
  pgn: () => game.toPgn(),
  uciMoves: () => game.uciMoves(),
  moveToUci,
  searching: () => engine.searching,
  analysing: () => engine.analysing,
};

syncAll();
