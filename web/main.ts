/**
 * The page: a chessground board bound to a core Game, the engine in a Web Worker, and the
 * "see inside" panels. All chess rules come from src/core; the board only displays and collects
 * clicks and drags, restricted to the legal destinations the core reports.
 */
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';
import { Position, FenError } from '../src/core/position.js';
import { moveToSan, parseUciMove } from '../src/core/notation.js';
import { moveFrom, movePromo, moveTo, moveToUci } from '../src/core/move.js';
import { squareName, parseSquare, QUEEN, ROOK, BISHOP, KNIGHT } from '../src/core/types.js';
import { Game, PgnError } from './game.js';
import { moveUpdate, renderMoveUpdate, pieceProducts } from './inside-matrix.js';
import { renderBnnPanel } from './inside-bnn.js';
import type { BackendName } from '../src/backends.js';
import { fetchBnnWeights } from './bnn-weights.js';
import type { Score } from '../src/core/types.js';
import type { FromWorker, ToWorker } from './protocol.js';
import { el } from './grid.js';

/** Set by the build: the weights file next to the page, or null when the build had none. */
declare const __BNN_WEIGHTS__: string | null;

type Mode = 'white' | 'black' | 'watch' | 'human';

const $ = <T extends HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`page is missing #${id}`);
  return e as T;
};

const ui = {
  board: $<HTMLDivElement>('board'), promo: $<HTMLDivElement>('promo'), status: $('status'), message: $('message'),
  mode: $<HTMLSelectElement>('mode'), strength: $<HTMLSelectElement>('strength'), backend: $<HTMLSelectElement>('backend'),
  newGame: $<HTMLButtonElement>('new'), undo: $<HTMLButtonElement>('undo'), flip: $<HTMLButtonElement>('flip'),
  go: $<HTMLButtonElement>('go'), stop: $<HTMLButtonElement>('stop'),
  evalText: $('eval'), evalFill: $('eval-fill'), depth: $('depth'), pv: $('pv'), thinking: $('thinking'), moves: $('moves'),
  fen: $<HTMLInputElement>('fen'), loadFen: $<HTMLButtonElement>('load-fen'), copyFen: $<HTMLButtonElement>('copy-fen'),
  pgn: $<HTMLTextAreaElement>('pgn'), loadPgn: $<HTMLButtonElement>('load-pgn'), copyPgn: $<HTMLButtonElement>('copy-pgn'),
  movePanel: $('move-panel'), piecePanel: $('piece-panel'), bnnPanel: $('bnn-panel-box'),
};

let game = new Game();
let mode: Mode = 'white';
let orientation: 'white' | 'black' = 'white';
/** In engine-vs-engine mode, Stop pauses until "Engine move" is pressed. */
let paused = false;
let selected: number | null = null;

// ---------- engine worker ----------

interface Search { id: number; fen: string; plies: number; best: string | null }
let worker: Worker | null = null;
let searchSeq = 0;
let search: Search | null = null;

function newWorker(): Worker {
  const w = new Worker('worker.js');
  w.onmessage = (ev: MessageEvent<FromWorker>) => onWorkerMessage(ev.data);
  w.onerror = (ev) => {
    ev.preventDefault();
    if (search) { search = null; refreshEngineButtons(); }
    showMessage(`The engine worker failed: ${ev.message || 'unknown error'}`, true);
  };
  return w;
}

function send(msg: ToWorker): void {
  worker ??= newWorker();
  worker.postMessage(msg);
}

function limits(): { depth?: number; movetime?: number } {
  const [kind, value] = ui.strength.value.split(':');
  return kind === 'movetime' ? { movetime: Number(value) } : { depth: Number(value) };
}

function startSearch(): void {
  if (search || game.status().over) return;
  const id = ++searchSeq;
  search = { id, fen: game.fen(), plies: game.moves.length, best: null };
  send({
    type: 'search', id, startFen: game.startFen, moves: game.uciMoves(), backend: ui.backend.value as BackendName,
    weightsUrl: __BNN_WEIGHTS__, limits: limits(),
  });
  ui.thinking.textContent = `thinking (${ui.backend.value}, ${ui.strength.selectedOptions[0]?.textContent ?? ''})…`;
  refreshEngineButtons();
  syncBoard();
}

/** Ends the current search. The worker cannot be interrupted mid-search, so it is replaced. */
function stopSearch(playBest: boolean): void {
  if (!search) return;
  const best = search.best, fen = search.fen;
  search = null;
  worker?.terminate();
  worker = null;
  ui.thinking.textContent = '';
  refreshEngineButtons();
  if (playBest && best && fen === game.fen()) playUci(best);
  else syncBoard();
}

function onWorkerMessage(msg: FromWorker): void {
  if (!search || msg.id !== search.id) return; // a stale answer from before an undo or new game
  if (msg.type === 'error') {
    search = null;
    ui.thinking.textContent = '';
    refreshEngineButtons();
    showMessage(`Engine: ${msg.message}`, true);
    syncBoard();
    // The neural backend can fail to start (weights missing or corrupt): carry on with bitboard.
    if (ui.backend.value === 'bnn') {
      ui.backend.value = 'bitboard';
      showMessage(`Engine: ${msg.message}. Switched to the bitboard backend.`, true);
      if (engineToMove()) startSearch();
    }
    return;
  }
  // An aspiration fail-low/high line is not a settled best move; completed depths are.
  if (msg.pv.length > 0 && (msg.type === 'done' || msg.bound === null)) search.best = msg.pv[0];
  showEngineInfo(msg.score, msg.depth, msg.pv, search.fen, msg.type === 'info' ? `${fmtNodes(msg.nodes)} nodes, ${fmtNodes(msg.nps)}/s` : '');
  if (msg.type === 'done') {
    const best = msg.bestMove !== '0000' && msg.bestMove !== 'a1a1' ? msg.bestMove : search.best;
    search = null;
    ui.thinking.textContent = `${msg.backend}: depth ${msg.depth}, ${fmtNodes(msg.nodes)} nodes in ${(msg.timeMs / 1000).toFixed(2)} s`;
    refreshEngineButtons();
    if (best) playUci(best);
    else syncBoard();
  }
}

const fmtNodes = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n));

function showEngineInfo(score: Score, depth: number, pv: string[], fen: string, extra: string): void {
  const side = fen.split(' ')[1] === 'b' ? -1 : 1;
  // While it thinks, an arrow shows the engine's current best move.
  if (search && pv.length > 0 && fen === game.fen()) {
    cg.setAutoShapes([{ orig: pv[0].slice(0, 2) as Key, dest: pv[0].slice(2, 4) as Key, brush: 'paleBlue' }]);
  }
  let text: string, frac: number;
  if ('mate' in score) {
    const m = score.mate * side;
    text = `#${m}`;
    frac = m > 0 ? 1 : 0;
  } else {
    const cp = score.cp * side;
    text = `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
    frac = 0.5 + 0.5 * Math.tanh(cp / 400);
  }
  ui.evalText.textContent = text;
  ui.evalFill.style.height = `${(frac * 100).toFixed(1)}%`;
  ui.depth.textContent = `depth ${depth}${extra ? ', ' + extra : ''}`;
  ui.pv.textContent = pvToSan(fen, pv) || '–';
}

function pvToSan(fen: string, pv: string[]): string {
  try {
    const p = Position.fromFen(fen);
    let num = p.fullmove;
    const parts: string[] = [];
    pv.forEach((u, i) => {
      const m = parseUciMove(p, u);
      const san = moveToSan(p, m);
      if (p.side === 0) parts.push(`${num}. ${san}`);
      else parts.push(i === 0 ? `${num}… ${san}` : san);
      if (p.side === 1) num++;
      p.makeMove(m);
    });
    return parts.join(' ');
  } catch {
    return pv.join(' ');
  }
}

function engineToMove(): boolean {
  if (game.status().over) return false;
  const side = game.pos.side;
  switch (mode) {
    case 'watch': return !paused;
    case 'white': return side === 1;
    case 'black': return side === 0;
    default: return false;
  }
}

function refreshEngineButtons(): void {
  ui.stop.disabled = !search;
  ui.go.disabled = !!search || game.status().over;
}

// ---------- moves ----------

function playMove(move: number): void {
  game.play(move);
  afterChange();
}

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

function onBoardMove(orig: Key, dest: Key): void {
  clearMessage();
  const from = parseSquare(orig), to = parseSquare(dest);
  const candidates = game.legalMoves().filter((m) => moveFrom(m) === from && moveTo(m) === to);
  if (candidates.length === 0) { syncBoard(); return; } // cannot happen: the board only offers legal dests
  if (candidates.length === 1) { playMove(candidates[0]); return; }
  showPromotionPicker(candidates, to);
}

function showPromotionPicker(moves: number[], to: number): void {
  const color = game.pos.side === 0 ? 'white' : 'black';
  ui.promo.replaceChildren();
  const names: Record<number, string> = { [QUEEN]: 'queen', [ROOK]: 'rook', [BISHOP]: 'bishop', [KNIGHT]: 'knight' };
  for (const t of [QUEEN, KNIGHT, ROOK, BISHOP]) {
    const m = moves.find((x) => movePromo(x) === t);
    if (m === undefined) continue;
    const b = el('button', { class: 'promo-choice', title: `promote to ${names[t]}`, 'data-piece': names[t] });
    b.append(document.createElement('piece'));
    b.firstElementChild!.className = `${names[t]} ${color}`;
    b.addEventListener('click', () => { ui.promo.hidden = true; playMove(m); });
    ui.promo.append(b);
  }
  const cancel = el('button', { class: 'promo-cancel', title: 'cancel' }, '✕');
  cancel.addEventListener('click', () => { ui.promo.hidden = true; syncBoard(); });
  ui.promo.append(cancel);
  ui.promo.dataset.square = squareName(to);
  ui.promo.hidden = false;
}

// ---------- board ----------

function dests(): Map<Key, Key[]> {
  const d = new Map<Key, Key[]>();
  for (const m of game.legalMoves()) {
    const f = squareName(moveFrom(m)) as Key, t = squareName(moveTo(m)) as Key;
    const list = d.get(f);
    if (!list) d.set(f, [t]); else if (!list.includes(t)) list.push(t);
  }
  return d;
}

function humanColor(): 'white' | 'black' | undefined {
  if (search || game.status().over) return undefined;
  const side = game.pos.side === 0 ? 'white' : 'black';
  if (mode === 'human') return side;
  if (mode === side) return side;
  return undefined;
}

const cg: Api = Chessground(ui.board, {
  orientation: 'white',
  coordinates: true,
  autoCastle: true,
  movable: { free: false, color: 'white', showDests: true, events: { after: onBoardMove }, rookCastle: false },
  premovable: { enabled: false },
  draggable: { enabled: true, showGhost: true },
  highlight: { lastMove: true, check: true },
  animation: { enabled: true, duration: 150 },
  events: { select: (key) => { selected = parseSquare(key); renderPiecePanels(); } },
});

function syncBoard(): void {
  const last = game.moves.length ? game.moves[game.moves.length - 1] : 0;
  const color = humanColor();
  cg.set({
    fen: game.fen(),
    orientation,
    turnColor: game.pos.side === 0 ? 'white' : 'black',
    check: game.pos.inCheck(),
    lastMove: last ? [squareName(moveFrom(last)) as Key, squareName(moveTo(last)) as Key] : undefined,
    movable: { color, dests: color ? dests() : new Map() },
  });
  ui.board.dataset.fen = game.fen();
}

function syncAll(): void {
  ui.promo.hidden = true;
  cg.setAutoShapes([]);
  syncBoard();
  ui.status.textContent = game.statusText();
  ui.status.classList.toggle('over', game.status().over);
  ui.fen.value = game.fen();
  ui.pgn.value = game.toPgn();
  renderMoves();
  renderMovePanel();
  renderPiecePanels();
  refreshEngineButtons();
}

function renderMoves(): void {
  ui.moves.replaceChildren();
  const start = Position.fromFen(game.startFen);
  let num = start.fullmove, white = start.side === 0;
  let li: HTMLLIElement | null = null;
  game.sans.forEach((san, i) => {
    if (white || !li) {
      li = el('li', {}, el('span', { class: 'num' }, `${num}.`));
      if (!white) li.append(el('span', { class: 'san' }, '…'));
      ui.moves.append(li);
    }
    li.append(el('span', { class: i === game.sans.length - 1 ? 'san last' : 'san' }, san));
    if (!white) { num++; li = null; }
    white = !white;
  });
  ui.moves.scrollTop = ui.moves.scrollHeight;
}

// ---------- see inside ----------

function renderMovePanel(): void {
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

let weights: Uint8Array | null = null;
let weightsError: string | null = __BNN_WEIGHTS__ ? null : 'This build has no BNN weights (weights/ was empty at build time).';
let weightsLoading = false;

function loadWeights(): void {
  if (weights || weightsLoading || !__BNN_WEIGHTS__) return;
  weightsLoading = true;
  fetchBnnWeights(__BNN_WEIGHTS__)
    .then((parsed) => {
      weights = parsed.weights;
      if (!parsed.complete) showMessage('Note: the BNN weights come from a partial training run; untrained networks answer nothing.', true);
    })
    .catch((e: unknown) => { weightsError = `Could not load the BNN weights: ${e instanceof Error ? e.message : String(e)}`; })
    .finally(() => { weightsLoading = false; renderPiecePanels(); });
}

function renderPiecePanels(): void {
  const custom = new Map<Key, string>();
  const mark = (sq: number, cls: string) => {
    const k = squareName(sq) as Key;
    const had = custom.get(k);
    custom.set(k, had ? `${had} ${cls}` : cls);
  };
  if (selected === null || selected < 0 || game.pos.board[selected] === 0) {
    ui.piecePanel.replaceChildren(el('p', { class: 'hint' }, 'Click a piece (either colour) to see the products that give its targets.'));
    ui.bnnPanel.replaceChildren(el('p', { class: 'hint' }, 'Click a rook, bishop or queen.'));
    cg.set({ highlight: { custom } });
    return;
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
  if ((type === ROOK || type === BISHOP || type === QUEEN) && !weights && !weightsError) {
    ui.bnnPanel.replaceChildren(el('p', { class: 'hint' }, 'Loading the network weights…'));
    loadWeights();
  } else {
    try {
      const b = renderBnnPanel(game.pos, sq, weights, weightsError);
      ui.bnnPanel.replaceChildren(b.element);
      if (b.attacks) for (const t of b.attacks) mark(t, 'inside-bnn');
    } catch (e) {
      ui.bnnPanel.replaceChildren(el('p', { class: 'bad' }, `network panel: ${e instanceof Error ? e.message : String(e)}`));
    }
  }
  mark(sq, 'inside-selected');
  cg.set({ highlight: { custom } });
}

// ---------- messages and controls ----------

function showMessage(text: string, error = false): void {
  ui.message.textContent = text;
  ui.message.classList.toggle('error', error);
}
function clearMessage(): void { showMessage(''); }

function replaceGame(g: Game, note: string): void {
  stopSearch(false);
  game = g;
  selected = null;
  paused = false;
  send({ type: 'newgame' });
  ui.evalText.textContent = '–'; ui.pv.textContent = '–'; ui.depth.textContent = ''; ui.evalFill.style.height = '50%';
  showMessage(note);
  afterChange();
}

async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showMessage(`${what} copied to the clipboard.`);
  } catch {
    showMessage(`${what} could not be copied automatically; it is selected in the box, press Ctrl+C.`);
  }
}

ui.newGame.addEventListener('click', () => replaceGame(new Game(), 'New game.'));
ui.undo.addEventListener('click', () => {
  stopSearch(false);
  clearMessage();
  if (!game.undo()) return;
  // Against the engine, take back its reply too so it is the player's turn again.
  if ((mode === 'white' || mode === 'black') && engineToMove() && game.moves.length > 0) game.undo();
  if (mode === 'watch') paused = true;
  syncAll();
  if (engineToMove()) startSearch();
});
ui.flip.addEventListener('click', () => { orientation = orientation === 'white' ? 'black' : 'white'; syncBoard(); });
ui.go.addEventListener('click', () => { paused = false; clearMessage(); startSearch(); });
ui.stop.addEventListener('click', () => {
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
  if (ui.backend.value === 'bnn' && !__BNN_WEIGHTS__) {
    ui.backend.value = 'bitboard';
    showMessage('The neural backend needs BNN weights, which this build does not include.', true);
  }
});
ui.loadFen.addEventListener('click', () => {
  const text = ui.fen.value.trim();
  try {
    replaceGame(new Game(text), 'Position loaded from FEN.');
  } catch (e) {
    showMessage(e instanceof FenError ? `${e.message}. The current game is unchanged.` : `Could not load the FEN: ${String(e)}`, true);
  }
});
ui.fen.addEventListener('keydown', (e) => { if (e.key === 'Enter') ui.loadFen.click(); });
ui.copyFen.addEventListener('click', () => { ui.fen.select(); void copyText(game.fen(), 'FEN'); });
ui.loadPgn.addEventListener('click', () => {
  try {
    replaceGame(Game.fromPgn(ui.pgn.value), 'Game loaded from PGN.');
  } catch (e) {
    const why = e instanceof PgnError || e instanceof FenError ? e.message : `Could not load the PGN: ${String(e)}`;
    showMessage(`${why}. The current game is unchanged.`, true);
  }
});
ui.copyPgn.addEventListener('click', () => { ui.pgn.value = game.toPgn(); ui.pgn.select(); void copyText(ui.pgn.value, 'PGN'); });

// Exposed for debugging in the console (and read by the browser test as a cross-check).
(window as unknown as { matrixChess: unknown }).matrixChess = {
  fen: () => game.fen(), pgn: () => game.toPgn(), uciMoves: () => game.uciMoves(), moveToUci,
  searching: () => search !== null,
};

syncAll();
