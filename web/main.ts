/**
 * The page: wires the board (board-view), the engine worker (engine-client, engine-info), the
 * "see inside" panels (panels), FEN/PGN input (game-io), game analysis (analysis-panel), clocks,
 * hints, opening names and the saved game to the one game tree (game, game-tree). All chess rules
 * come from src/core; the board only displays and collects moves the core reports legal. This
 * module holds the page's state: the game, who plays which side, orientation, level, clock.
 *
 * The board shows one node of the tree (the cursor); navigation moves it. The engine plays at a
 * node: with a clock running, the main line's end (the game); otherwise the shown node when
 * nothing follows it (so a move from an earlier position starts a variation the engine answers).
 */
import type { BackendName } from '../src/backends.js';
import { moveToUci } from '../src/core/move.js';
import { CHESS960_POSITIONS, chess960StartFen } from '../src/core/chess960.js';
import { MoveError } from '../src/core/notation.js';
import type { Score } from '../src/core/types.js';
import { AnalysisPanel } from './analysis-panel.js';
import { BoardView } from './board-view.js';
import { ChessClock, canMate, formatClock, parseControl } from './clock.js';
import { EngineClient } from './engine-client.js';
import { clearEngineInfo, fmtNodes, showEngineInfo } from './engine-info.js';
import { Game } from './game.js';
import type { TreeNode } from './game-tree.js';
import { wireGameIo } from './game-io.js';
import { el } from './grid.js';
import { renderMoveList } from './move-list.js';
import { OpeningBook } from './openings.js';
import { clearMessage, showMessage, ui } from './page.js';
import { PiecePanels, renderMovePanel } from './panels.js';
import { renderNnuePanel } from './inside-nnue.js';
import { fetchNnueReference } from './nnue-net.js';
import { isMuted, playMoveSound, setMuted } from './sound.js';
import { loadState, saveState } from './storage.js';
import type { NnueEvaluator } from '../src/engine/nnue/evaluator.js';
import { NNUE_BY_DEFAULT } from '../src/engine/nnue/network.js';
import type { NnueUrls, SearchRequestLimits } from './protocol.js';

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
/** The clock of the game, or null when it is played without one. */
let clock: ChessClock | null = null;
/** What the current search is for, and the node it searches. */
let searchPurpose: 'play' | 'hint' | 'line' = 'play';
let searchNode: TreeNode | null = null;
/** Engine output by position (FEN): the evaluation and PV follow the shown position. */
interface EvalEntry {
  score: Score;
  depth: number;
  pv: string[];
  extra: string;
}
let evals = new Map<string, EvalEntry>();
/** Arrows shown for a hint or best line, for the position they belong to. */
let hint: { fen: string; moves: string[]; numbered: boolean } | null = null;
let openings: OpeningBook | null = null;
/** The worker's answers to the level's setoption lines (for the page's hook and tests). */
const optionAnswers: string[] = [];

const board = new BoardView(
  {
    onMove: (move) => humanMove(() => game.play(move)),
    onCancel: () => syncBoard(),
    onSelect: (sq) => {
      selected = sq;
      renderPiecePanels();
    },
  },
  () => game,
);

const panels = new PiecePanels(__BNN_WEIGHTS__, __BNN_SMALL_WEIGHTS__, () => renderPiecePanels());
const analysisPanel = new AnalysisPanel(ui.analysisPanel, (ply) => {
  const node = game.tree.mainline()[ply];
  if (node) navigate(node);
  else renderMoves();
});

const negate = (s: Score): Score => ('mate' in s ? { mate: -s.mate } : { cp: -s.cp });

const engine = new EngineClient({
  onReport(msg, fen) {
    const extra = msg.type === 'info' ? `${fmtNodes(msg.nodes)} nodes, ${fmtNodes(msg.nps)}/s` : '';
    evals.set(fen, { score: msg.score, depth: msg.depth, pv: msg.pv, extra });
    if (fen !== game.fen()) return;
    // While it thinks for its move, an arrow shows the engine's current best move.
    if (searchPurpose === 'play' && engine.searching && msg.pv.length > 0) board.showArrow(msg.pv[0]);
    showEngineInfo(msg.score, msg.depth, msg.pv, fen, extra);
  },
  onDone(best, backend, msg) {
    ui.thinking.textContent = `${backend}, ${msg.evaluation}: depth ${msg.depth}, ${fmtNodes(msg.nodes)} nodes in ${(msg.timeMs / 1000).toFixed(2)} s${msg.threads > 1 ? `, ${msg.threads} threads` : ''}`;
    const node = searchNode;
    searchNode = null;
    refreshEngineButtons();
    if (searchPurpose !== 'play') {
      if (node && msg.pv.length > 0) showHint(node.fen, searchPurpose === 'hint' ? msg.pv.slice(0, 1) : msg.pv.slice(0, 8));
      syncBoard();
      return;
    }
    if (best && node) engineMove(node, best, msg.score, msg.depth, msg.pv);
    else syncBoard();
  },
  onError(message, crashed) {
    searchNode = null;
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
  onOption(line, ok) {
    optionAnswers.push(line);
    if (!/UCI_(LimitStrength|Elo)/i.test(line)) return;
    if (ok) ui.levelNote.textContent = ui.level.value ? `Level ${ui.level.value} Elo: set in the engine.` : '';
    else if (ui.level.value)
      ui.levelNote.textContent = `This engine build does not play levels yet (${line.replace(/^info string /, '')}); it plays at full strength with the Strength setting.`;
  },
});

// ---------- engine ----------

/** The BNN weights file of the chosen neural backend (the small networks have their own), or null. */
function bnnWeightsUrl(): string | null {
  return ui.backend.value === 'bnn-16x8x1' ? __BNN_SMALL_WEIGHTS__ : __BNN_WEIGHTS__;
}

function strengthLimits(): SearchRequestLimits {
  const [kind, value] = ui.strength.value.split(':');
  return kind === 'movetime' ? { movetime: Number(value) } : { depth: Number(value) };
}

/** The UCI options of the chosen level (full strength: the limit off). */
function levelOptions(): Record<string, string> {
  const elo = ui.level.value;
  return elo ? { UCI_LimitStrength: 'true', UCI_Elo: elo } : { UCI_LimitStrength: 'false' };
}

/** The side to move at a node, from its FEN (0 white, 1 black). */
const sideAt = (node: TreeNode): 0 | 1 => (node.fen.split(' ')[1] === 'b' ? 1 : 0);

/** A game on the clock is under way: the main line is the game and the engine plays at its end. */
function clockGame(): boolean {
  return clock !== null && !game.overAt(game.tree.mainEnd());
}

/** Where a move of the game is played now: the main line's end on the clock, else the shown node if nothing follows it. */
function playNode(): TreeNode | null {
  if (clockGame()) return game.tree.mainEnd();
  return game.cursor.children.length === 0 ? game.cursor : null;
}

function engineToMove(): boolean {
  const node = playNode();
  if (!node || game.overAt(node)) return false;
  const side = sideAt(node);
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

function searchRequest(node: TreeNode, limits: SearchRequestLimits, options: Record<string, string>) {
  return {
    startFen: game.startFen,
    moves: game.uciPath(node),
    chess960: game.chess960,
    backend: ui.backend.value as BackendName,
    weightsUrl: bnnWeightsUrl(),
    nnue: ui.evaluation.value === 'nnue' ? __NNUE__ : null,
    limits,
    options,
  };
}

function startSearch(): void {
  if (engine.searching || engine.analysing || !engineToMove()) return;
  const node = playNode()!;
  // On the clock the engine manages its own time (go wtime/btime/winc/binc); otherwise the Strength setting.
  const limits: SearchRequestLimits = clock
    ? { wtime: clock.remaining(0), btime: clock.remaining(1), winc: clock.control.incMs, binc: clock.control.incMs }
    : strengthLimits();
  searchPurpose = 'play';
  searchNode = node;
  engine.start(node.fen, searchRequest(node, limits, levelOptions()));
  const level = ui.level.value ? `${ui.level.value} Elo, ` : '';
  ui.thinking.textContent = `thinking (${ui.backend.value}, ${level}${clock ? 'on its clock' : (ui.strength.selectedOptions[0]?.textContent ?? '')})…`;
  refreshEngineButtons();
  syncBoard();
}

/** Ends the current search, playing its best move so far if asked and it was for a move of the game. */
function stopSearch(playBest: boolean): void {
  const node = searchNode;
  const stopped = engine.stop();
  searchNode = null;
  if (!stopped) return;
  ui.thinking.textContent = '';
  refreshEngineButtons();
  if (playBest && searchPurpose === 'play' && stopped.best && node && node === playNode()) engineMove(node, stopped.best, null, 0, []);
  else syncBoard();
}

/** Stops a hint search (a move or navigation makes it stale). */
function stopHintSearch(): void {
  if (engine.searching && searchPurpose !== 'play') stopSearch(false);
}

/** Asks the engine for the shown position's best move (`line`: its whole PV), drawn as arrows. */
function requestHint(kind: 'hint' | 'line'): void {
  if (engine.searching || engine.analysing || game.status().over) return;
  clearMessage();
  const node = game.cursor;
  const known = evals.get(node.fen);
  if (kind === 'line' && known && known.pv.length > 1) {
    showHint(node.fen, known.pv.slice(0, 8));
    return;
  }
  searchPurpose = kind;
  searchNode = node;
  // Hints are the engine's real opinion: full strength whatever the level.
  engine.start(node.fen, searchRequest(node, strengthLimits(), { UCI_LimitStrength: 'false' }));
  ui.thinking.textContent = `looking for ${kind === 'hint' ? 'a hint' : 'the best line'}…`;
  refreshEngineButtons();
}

function showHint(fen: string, moves: string[]): void {
  hint = { fen, moves, numbered: moves.length > 1 };
  if (fen === game.fen()) board.showMoves(moves, hint.numbered);
}

function refreshEngineButtons(): void {
  const busy = engine.searching || engine.analysing;
  ui.stop.disabled = !busy;
  ui.go.disabled = busy || game.overAt(game.cursor) || (clockGame() && game.cursor !== game.tree.mainEnd());
  ui.analyse.disabled = engine.analysing;
  ui.hint.disabled = busy || game.status().over;
  ui.bestLine.disabled = busy || game.status().over;
}

// ---------- game analysis ----------

/** Names the game an analysis belongs to: its start and its main line. */
const gameKey = (): string => `${game.startFen}|${game.uciPath(game.tree.mainEnd()).join(' ')}`;

function startAnalysis(): void {
  const plies = game.tree.mainline().length;
  if (plies === 0) {
    showMessage('There are no moves to analyse yet.', true);
    return;
  }
  stopSearch(false);
  if (mode === 'watch') paused = true;
  clearMessage();
  const key = gameKey();
  analysisPanel.progress(0, plies + 1);
  engine.analyse(
    {
      pgn: game.mainlinePgn(),
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
    { UCI_LimitStrength: 'false' },
  );
  syncAll();
}

/** Ends an analysis under way (Stop, or the game changed). */
function stopAnalysis(note: string): void {
  if (engine.stopAnalysis()) analysisPanel.note(note);
}

// ---------- moves, clock and display ----------

/** Pieces on the board of a FEN (a capture leaves one fewer). */
const pieceCount = (fen: string): number => fen.split(' ')[0].replace(/[^a-zA-Z]/g, '').length;

/** After any move from `parent` to `child`: sound, and the clock when it was the game's move. */
function moved(parent: TreeNode, child: TreeNode): void {
  playMoveSound(pieceCount(child.fen) < pieceCount(parent.fen));
  if (clock && child === game.tree.mainEnd() && !game.adjudication) {
    const mover = sideAt(parent);
    // The clocks start with the first move: White's first move is not timed.
    if (clock.running === null && parent === game.tree.root) clock.start(mover === 0 ? 1 : 0);
    else clock.press(mover);
    if (game.overAt(child)) clock.pause();
  }
}

/** The user's move (board or keyboard): `play` plays it on the game at the shown node. */
function humanMove(play: () => TreeNode): void {
  stopHintSearch();
  const parent = game.cursor;
  const child = play();
  moved(parent, child);
  afterChange();
}

function engineMove(node: TreeNode, uci: string, score: Score | null, depth: number, pv: string[]): void {
  let child: TreeNode;
  try {
    child = game.playAt(node, uci);
  } catch (e) {
    showMessage(`Engine move ${uci} was refused: ${e instanceof Error ? e.message : String(e)}`, true);
    afterChange();
    return;
  }
  // The engine's view of the position after its move: its score negated, the rest of its PV.
  if (score && pv[0] === uci && !evals.has(child.fen))
    evals.set(child.fen, { score: negate(score), depth: Math.max(0, depth - 1), pv: pv.slice(1), extra: '' });
  moved(node, child);
  afterChange();
}

function afterChange(): void {
  syncAll();
  if (engineToMove()) setTimeout(startSearch, mode === 'watch' ? 250 : 0);
}

/** The colour the user may move now, if any. */
function humanColor(): 'white' | 'black' | undefined {
  if ((engine.searching && searchPurpose === 'play') || engine.analysing || game.status().over) return undefined;
  if (game.adjudication && game.cursor === game.tree.mainEnd()) return undefined;
  // On the clock, the game goes on at the main line's end only.
  if (clockGame() && game.cursor !== game.tree.mainEnd()) return undefined;
  const side = game.pos.side === 0 ? 'white' : 'black';
  if (mode === 'human') return side;
  if (mode === side) return side;
  return undefined;
}

function syncBoard(): void {
  board.sync(orientation, humanColor());
  if (hint && hint.fen === game.fen()) board.showMoves(hint.moves, hint.numbered);
}

function renderPiecePanels(): void {
  board.highlight(panels.render(game, selected));
}

/** Shows another node of the tree. A search for a move elsewhere stops, unless the clock runs (the game goes on). */
function navigate(node: TreeNode): void {
  if (node === game.cursor) return;
  stopHintSearch();
  if (engine.searching && searchPurpose === 'play' && !clockGame()) stopSearch(false);
  game.goTo(node);
  syncAll();
  if (engineToMove()) startSearch();
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

// ---------- openings ----------

const openingLookup = (fens: string[]) => (openings ? openings.deepest(fens) : null);

function renderOpening(): void {
  const o = game.chess960 ? null : openingLookup([game.tree.root, ...game.tree.path(game.cursor)].map((n) => n.fen));
  ui.opening.textContent = o ? `${o.eco} ${o.name}` : '';
}

OpeningBook.fetch('openings.tsv').then(
  (book) => {
    openings = book;
    syncAll();
  },
  (e: unknown) => console.warn(`Matrix Chess: no opening names (${e instanceof Error ? e.message : String(e)})`),
);

// ---------- clocks ----------

function renderClocks(): void {
  ui.clocks.hidden = clock === null;
  if (!clock) return;
  for (const side of [0, 1] as const) {
    const box = side === 0 ? ui.clockWhite : ui.clockBlack;
    box.querySelector('.time')!.textContent = formatClock(clock.remaining(side));
    box.classList.toggle('running', clock.running === side);
    box.classList.toggle('flagged', game.adjudication !== null && clock.remaining(side) <= 0);
  }
}

/** `side`'s time ran out: the game ends, lost, or drawn when the other side cannot mate. */
function flag(side: 0 | 1): void {
  if (!clock) return;
  clock.pause();
  if (engine.searching && searchPurpose === 'play') stopSearch(false);
  const end = game.tree.mainEnd();
  const names = ['White', 'Black'];
  const other = side === 0 ? 1 : 0;
  game.adjudication = canMate(game.positionAt(end), other)
    ? { result: side === 0 ? '0-1' : '1-0', text: `${names[side]} lost on time: ${names[other]} wins` }
    : { result: '1/2-1/2', text: `Draw: ${names[side]} ran out of time and ${names[other]} cannot mate` };
  showMessage(game.adjudication.text);
  syncAll();
}

setInterval(() => {
  if (!clock) return;
  const flagged = clock.flagged();
  if (flagged !== null) flag(flagged);
  else renderClocks();
}, 100);

/** A fresh clock of the chosen control (not running until the next move), or none. */
function resetClock(): void {
  const control = ui.clock.value === 'none' ? null : parseControl(ui.clock.value);
  clock = control ? new ChessClock(control) : null;
}

// ---------- the whole page ----------

function syncAll(): void {
  board.hidePromotion();
  board.showArrow(null);
  if (hint && hint.fen !== game.fen()) hint = null;
  syncBoard();
  ui.status.textContent = game.statusText();
  ui.status.classList.toggle('over', game.overAt(game.cursor));
  ui.fen.value = game.fen();
  // A finished analysis of this very game shows its annotated PGN; one of another game is dropped.
  const key = gameKey();
  analysisPanel.dropUnless(key);
  const analysis = analysisPanel.analysisOf(key);
  ui.pgn.value = analysis ? analysis.pgn : game.toPgn(new Date(), openingLookup);
  const known = evals.get(game.fen());
  if (known) showEngineInfo(known.score, known.depth, known.pv, game.fen(), known.extra);
  else if (!(engine.searching && searchNode === game.cursor)) clearEngineInfo();
  renderMoves();
  renderOpening();
  renderMovePanel(game);
  renderPiecePanels();
  renderNnue();
  renderClocks();
  refreshEngineButtons();
  save();
}

function renderMoves(): void {
  renderMoveList(ui.moves, game, { judgementAt: (ply) => analysisPanel.judgementAt(ply), picked: analysisPanel.pickedPly });
}

function save(): void {
  const shown: number[] = [];
  for (const n of game.tree.path(game.cursor)) shown.push(n.parent!.children.indexOf(n));
  saveState({
    startFen: game.startFen,
    chess960: game.chess960,
    headers: game.headers,
    tree: game.tree.toStored(),
    shown,
    mode,
    orientation,
    level: ui.level.value,
    strength: ui.strength.value,
    clock: ui.clock.value,
    clockLeft: clock ? [clock.remaining(0), clock.remaining(1)] : null,
    clockSide: clock ? clock.running : null,
    adjudication: game.adjudication,
    muted: isMuted(),
  });
}

function replaceGame(g: Game, note: string): void {
  stopSearch(false);
  stopAnalysis('');
  analysisPanel.clear();
  game = g;
  selected = null;
  paused = false;
  hint = null;
  evals = new Map();
  resetClock();
  engine.newGame();
  clearEngineInfo();
  showMessage(note);
  afterChange();
}

// ---------- controls ----------

/** A select's value if it offers it (stored settings from another version may not). */
function setSelect(select: HTMLSelectElement, value: string): void {
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

/** A test or demo control from the URL: `?clock=s2+0` adds a 2-second clock to the choices. */
// A '+' in a query string reads as a space.
const urlClock = new URLSearchParams(location.search).get('clock')?.replace(' ', '+');
if (urlClock && parseControl(urlClock)) ui.clock.append(el('option', { value: urlClock }, `${urlClock} (from the URL)`));

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
  if ((mode === 'white' || mode === 'black') && engineToMove() && game.cursor.parent) game.undo();
  if (mode === 'watch') paused = true;
  // The clock follows the side to move at the game's end.
  if (clock && clock.running !== null) clock.start(sideAt(game.tree.mainEnd()));
  syncAll();
  if (engineToMove()) startSearch();
});
ui.flip.addEventListener('click', () => {
  orientation = orientation === 'white' ? 'black' : 'white';
  syncBoard();
  save();
});
ui.go.addEventListener('click', () => {
  paused = false;
  clearMessage();
  stopHintSearch();
  if (engineToMove()) startSearch();
  else if (!engine.searching && !game.overAt(game.cursor) && (!clockGame() || game.cursor === game.tree.mainEnd())) {
    // "Engine move" for the side to move even when it is the user's side, or from the middle of a line.
    const node = game.cursor;
    searchPurpose = 'play';
    searchNode = node;
    engine.start(node.fen, searchRequest(node, strengthLimits(), levelOptions()));
    ui.thinking.textContent = `thinking (${ui.backend.value})…`;
    refreshEngineButtons();
    syncBoard();
  }
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
ui.level.addEventListener('change', () => {
  ui.levelNote.textContent = ui.level.value
    ? `Level ${ui.level.value} Elo: sent to the engine with its next move (setoption UCI_LimitStrength, UCI_Elo).`
    : 'Full strength.';
  save();
});
ui.strength.addEventListener('change', save);
ui.clock.addEventListener('change', () => {
  if (engine.searching && searchPurpose === 'play') stopSearch(false);
  game.adjudication = null;
  resetClock();
  showMessage(clock ? `Clock ${ui.clock.selectedOptions[0]?.textContent ?? ''}: it starts with the next move.` : 'No clock.');
  syncAll();
  if (engineToMove()) startSearch();
});
ui.mute.addEventListener('change', () => {
  setMuted(ui.mute.checked);
  save();
});
ui.hint.addEventListener('click', () => requestHint('hint'));
ui.bestLine.addEventListener('click', () => requestHint('line'));
ui.navStart.addEventListener('click', () => navigate(game.tree.root));
ui.navBack.addEventListener('click', () => game.cursor.parent && navigate(game.cursor.parent));
ui.navForward.addEventListener('click', () => game.cursor.children[0] && navigate(game.cursor.children[0]));
ui.navEnd.addEventListener('click', () => navigate(game.tree.lineEnd(game.cursor)));
ui.moves.addEventListener('click', (e) => {
  const target = (e.target as HTMLElement).closest<HTMLElement>('[data-node]');
  const node = target ? game.tree.find(Number(target.dataset.node)) : null;
  if (node) navigate(node);
});
document.addEventListener('keydown', (e) => {
  const t = e.target as HTMLElement | null;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const target: Record<string, () => TreeNode | null> = {
    ArrowLeft: () => game.cursor.parent,
    ArrowRight: () => game.cursor.children[0] ?? null,
    Home: () => game.tree.root,
    ArrowUp: () => game.tree.root,
    End: () => game.tree.lineEnd(game.cursor),
    ArrowDown: () => game.tree.lineEnd(game.cursor),
  };
  const to = target[e.key];
  if (!to) return;
  e.preventDefault();
  const node = to();
  if (node) navigate(node);
});
ui.moveForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = ui.moveInput.value.trim();
  if (!text) return;
  if (!humanColor()) {
    const why =
      game.status().over || (game.adjudication && game.cursor === game.tree.mainEnd())
        ? 'The game is over.'
        : clockGame() && game.cursor !== game.tree.mainEnd()
          ? 'On the clock the game goes on from its last move (End).'
          : 'It is not your move.';
    showMessage(why, true);
    return;
  }
  try {
    humanMove(() => game.playUci(text));
    ui.moveInput.value = '';
    clearMessage();
  } catch (err) {
    if (!(err instanceof MoveError) && !(err instanceof Error)) throw err;
    showMessage(`Move '${text}': not a legal move here (SAN like Nf3, or from-to like g1f3).`, true);
  }
});
ui.analyse.addEventListener('click', startAnalysis);
wireGameIo({ current: () => game, replace: replaceGame, pgn: () => game.toPgn(new Date(), openingLookup) });

// ---------- start: the saved game, if any ----------

function restore(): void {
  const s = loadState();
  if (!s) return;
  let g: Game;
  try {
    g = Game.fromStored(s.startFen, s.chess960, s.tree);
  } catch (e) {
    console.warn(`Matrix Chess: the saved game was discarded (its moves do not replay: ${e instanceof Error ? e.message : String(e)})`);
    return;
  }
  g.headers = s.headers;
  g.adjudication = s.adjudication;
  let node = g.tree.root;
  for (const i of s.shown) node = node.children[i] ?? node;
  g.goTo(node);
  game = g;
  setSelect(ui.mode, s.mode);
  mode = ui.mode.value as Mode;
  orientation = s.orientation;
  setSelect(ui.level, s.level);
  setSelect(ui.strength, s.strength);
  setSelect(ui.clock, s.clock);
  ui.mute.checked = s.muted;
  setMuted(s.muted);
  const control = ui.clock.value === 'none' ? null : parseControl(ui.clock.value);
  clock = control ? new ChessClock(control, Date.now, s.clockLeft ?? undefined) : null;
  if (clock && s.clockSide !== null && !g.adjudication && !g.overAt(g.tree.mainEnd())) clock.start(s.clockSide);
  if (ui.level.value) ui.levelNote.textContent = `Level ${ui.level.value} Elo.`;
}
restore();
// A running clock's time as of leaving the page (a reload goes on from there, not from the last
// move); everything else was saved when it changed.
window.addEventListener('pagehide', () => {
  if (clock?.running != null) save();
});

// Exposed for debugging in the console (and read by the browser test as a cross-check).
(window as unknown as { matrixChess: unknown }).matrixChess = {
  fen: () => game.fen(),
  pgn: () => game.toPgn(new Date(), openingLookup),
  uciMoves: () => game.uciMoves(),
  moveToUci,
  searching: () => engine.searching,
  analysing: () => engine.analysing,
  sentOptions: () => [...engine.sentOptions],
  lastLimits: () => engine.lastLimits,
  optionAnswers: () => [...optionAnswers],
  openingsLoaded: () => openings !== null,
};

syncAll();
if (engineToMove()) startSearch();
