/**
 * The UCI search thread. One persistent worker owns the Engine (so its hash table survives from
 * move to move) and the selected backend. The main thread keeps reading stdin meanwhile and
 * signals stop/ponderhit through the shared control block, which the engine polls. Where it runs
 * is its host's business (SearchThreadHost): search-worker-node.ts in a Node worker thread,
 * web/uci-worker.ts in a browser's Web Worker.
 *
 * Messages are handled strictly in order (a promise chain), so an option change that arrives
 * during a search, such as a backend switch that has to load a module, takes effect before
 * the next search and never in the middle of one.
 */
import { backendLabel, loadBackend, type BackendLoaders } from '../backends.js';
import type { LegalMoveGenerator } from '../core/backend.js';
import { perftDivide } from '../core/perft.js';
import { moveToUci } from '../core/move.js';
import { legalMoveList, moveToUciIn } from '../core/notation.js';
import { Position } from '../core/position.js';
import { Engine, type SearchLimits } from '../engine/index.js';
import type { SpawnHelper } from '../engine/smp.js';
import { BookError, type Book } from '../book/polyglot.js';
import { describeNnue, type NnueEvaluator } from '../engine/nnue/evaluator.js';
import { NNUE_BY_DEFAULT } from '../engine/nnue/network.js';
import { DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, formatInfo, positionOf, type OptionChange, type PositionSpec } from './protocol.js';

export type ToWorker =
  /** receivedAt: Date.now() when the main thread read the go, so clock time spent before the search starts is charged. */
  | { type: 'go'; position: PositionSpec; limits: SearchLimits; receivedAt: number }
  | { type: 'perft'; position: PositionSpec; depth: number }
  | { type: 'option'; change: OptionChange }
  | { type: 'newgame' }
  | { type: 'isready' };

export type FromWorker =
  { type: 'line'; text: string } | { type: 'bestmove'; best: string; ponder?: string } | { type: 'perftdone' } | { type: 'readyok' };

/**
 * What the search thread needs from where it runs: a Node worker thread (search-worker-node.ts)
 * or a browser Web Worker (web/uci-worker.ts), which fetches files instead of reading them.
 */
export interface SearchThreadHost {
  control: Int32Array;
  send(msg: FromWorker): void;
  onMessage(listener: (msg: ToWorker) => void): void;
  /** The network at `source` (a file on Node, a URL in the browser); throws saying why not. */
  loadNetwork(source: string): NnueEvaluator | Promise<NnueEvaluator>;
  /** Where the network comes from when EvalFile is not set. */
  defaultNetwork: string;
  /** The Polyglot book at `source`; throws BookError saying why not. Without it OwnBook and BookFile say that no book can be read here. */
  openBook?(source: string): Book;
  /** The book OwnBook plays from when BookFile is not set. */
  defaultBook: string;
  backendLoaders?: BackendLoaders;
  /** Starts a Lazy SMP helper thread; without it the search runs on one thread. */
  spawnHelper?: SpawnHelper;
}

let host: SearchThreadHost;
let control: Int32Array;
const send = (msg: FromWorker): void => host.send(msg);
const say = (text: string): void => send({ type: 'line', text });

let engine: Engine | undefined;
let backend: LegalMoveGenerator | undefined;
let ownBook = false;
let bookFile = '';
let book: Book | undefined;
let useNnue = NNUE_BY_DEFAULT;
let network: NnueEvaluator | null = null;

/** The network in `file`, or null with an info string saying why the classical evaluation plays. */
async function tryLoadNetwork(file: string): Promise<NnueEvaluator | null> {
  try {
    return await host.loadNetwork(file);
  } catch (err) {
    say(`info string ${(err as Error).message}; using the classical evaluation`);
    return null;
  }
}

function openBook(source: string): Book {
  if (!host.openBook)
    throw new BookError(
      source,
      `cannot read book '${source}': no book files where this engine runs (OwnBook and BookFile work in the CLI)`,
    );
  return host.openBook(source);
}

async function setup(): Promise<void> {
  backend = await loadBackend('bitboard');
  network = await tryLoadNetwork(host.defaultNetwork);
  engine = new Engine({
    hashMb: DEFAULT_HASH_MB,
    moveOverheadMs: DEFAULT_MOVE_OVERHEAD_MS,
    moveGenerator: backend,
    nnue: useNnue ? network : null,
  });
  // A first tiny search compiles the hot paths now, not on the clock of the first real move.
  engine.search(Position.fromFen('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'), { depth: 4 });
  engine.newGame();
}

async function handle(msg: ToWorker): Promise<void> {
  const eng = engine!;
  switch (msg.type) {
    case 'go':
      return go(eng, msg.position, msg.limits, msg.receivedAt);
    case 'perft':
      return perft(msg.position, msg.depth);
    case 'newgame':
      eng.newGame();
      return;
    case 'isready':
      send({ type: 'readyok' });
      return;
    case 'option':
      return applyOption(eng, msg.change);
  }
}

/** Takes the time between reading `go` and starting the search off the clock being searched on. */
function chargeWaiting(limits: SearchLimits, whiteToMove: boolean, receivedAt: number): SearchLimits {
  const waited = Math.max(0, Date.now() - receivedAt);
  if (waited === 0) return limits;
  const out = { ...limits };
  if (whiteToMove && out.wtime !== undefined) out.wtime = Math.max(0, out.wtime - waited);
  if (!whiteToMove && out.btime !== undefined) out.btime = Math.max(0, out.btime - waited);
  if (out.movetime !== undefined) out.movetime = Math.max(1, out.movetime - waited);
  return out;
}

function bookMove(pos: Position, legal: number[]): number {
  if (!ownBook) return 0;
  try {
    book ??= openBook(bookFile);
  } catch (err) {
    if (!(err instanceof BookError)) throw err;
    say(`info string ${err.message}; OwnBook is off until a valid BookFile is set`);
    ownBook = false;
    return 0;
  }
  const m = book.pick(pos);
  return m !== null && legal.includes(m) ? m : 0;
}

function go(eng: Engine, spec: PositionSpec, requested: SearchLimits, receivedAt: number): void {
  const chess960 = spec.chess960 === true;
  const pos = positionOf(spec);
  // Castles are written king-takes-own-rook under UCI_Chess960, which needs the position.
  const root = chess960 ? pos.clone() : undefined;
  const uci = (m: number): string => moveToUciIn(root ?? pos, m, chess960);
  const limits = chargeWaiting(requested, pos.side === 0, receivedAt);
  const legal = legalMoveList(pos);
  if (legal.length === 0) {
    // Mate or stalemate on the board: nothing to search, and UCI's null move is the answer.
    say(`info depth 0 score ${pos.inCheck() ? 'mate 0' : 'cp 0'}`);
    send({ type: 'bestmove', best: '0000' });
    return;
  }
  let best = 0,
    ponder = 0;
  const fromBook = limits.infinite || limits.ponder ? 0 : bookMove(pos, legal);
  if (fromBook !== 0) {
    say(`info string book move ${uci(fromBook)}`);
    send({ type: 'bestmove', best: uci(fromBook) });
    return;
  }
  try {
    const result = eng.search(pos, limits, { control, onInfo: (info) => say(formatInfo(info, root, chess960)) });
    best = result.bestMove;
    ponder = result.ponderMove || result.pv[1] || 0;
  } catch (err) {
    say(`info string search failed: ${(err as Error).message.split('\n')[0]}`);
  }
  // The answer must always be a legal move, whatever the search returned.
  if (!legal.includes(best)) {
    if (best !== 0) say(`info string the search returned an illegal move (${moveToUci(best)}); playing a legal one`);
    best = legal[0];
    ponder = 0;
  }
  let ponderText: string | undefined;
  if (ponder) {
    pos.makeMove(best);
    if (legalMoveList(pos).includes(ponder)) ponderText = moveToUciIn(pos, ponder, chess960);
    pos.unmakeMove();
  }
  send(ponderText ? { type: 'bestmove', best: uci(best), ponder: ponderText } : { type: 'bestmove', best: uci(best) });
}

function perft(spec: PositionSpec, depth: number): void {
  const pos = positionOf(spec);
  const b = backend!;
  let total = 0;
  // Stockfish's format: one `move: count` line per root move, a blank line, the total.
  for (const [move, count] of perftDivide(pos, depth, b)) {
    say(`${moveToUciIn(pos, move, spec.chess960 === true)}: ${count}`);
    total += count;
  }
  say('');
  say(`Nodes searched: ${total}`);
  say('');
  send({ type: 'perftdone' });
}

async function applyOption(eng: Engine, change: OptionChange): Promise<void> {
  switch (change.name) {
    case 'Hash':
      eng.setHashSize(change.value);
      return;
    case 'Clear Hash':
      eng.clearHash();
      return;
    case 'Move Overhead':
      eng.setMoveOverhead(change.value);
      return;
    case 'MultiPV':
      eng.setMultiPv(change.value);
      return;
    case 'Threads':
      if (!host.spawnHelper) {
        if (change.value > 1) say(`info string Threads ${change.value}: no helper threads where this engine runs; searching with 1`);
        return;
      }
      // Helper threads start here, once per setting, not per search.
      eng.setThreads(change.value, host.spawnHelper, (message) => say(`info string ${message}`));
      // So that readyok means the helpers are up too.
      if (!eng.waitForHelpers()) say(`info string Threads ${change.value}: the helper threads did not start within 10 s`);
      return;
    case 'SearchParam':
      Object.assign(eng.params, { [change.param]: change.value });
      eng.paramsChanged();
      return;
    case 'UCI_Chess960':
      return; // The loop reads positions with it; each position spec carries it here.
    case 'UCI_LimitStrength':
      eng.setStrength(change.value);
      return;
    case 'UCI_Elo':
      eng.setStrength(eng.limitsStrength, change.value);
      return;
    case 'Ponder':
      return; // Only tells the engine that pondering is allowed; no state needed.
    case 'OwnBook':
      ownBook = change.value;
      return;
    case 'BookFile': {
      try {
        book = openBook(change.value);
        bookFile = change.value;
        say(`info string book ${bookFile}: ${book.size} entries`);
      } catch (err) {
        if (!(err instanceof BookError)) throw err;
        say(`info string ${err.message}; keeping the previous book`);
      }
      return;
    }
    case 'UseNNUE': {
      useNnue = change.value;
      eng.setEvaluator(useNnue ? network : null);
      say(`info string evaluation: ${useNnue && network ? describeNnue(network) : 'classical'}`);
      return;
    }
    case 'EvalFile': {
      try {
        network = await host.loadNetwork(change.value);
        if (useNnue) eng.setEvaluator(network);
        say(`info string ${describeNnue(network)}`);
      } catch (err) {
        say(`info string ${(err as Error).message}; keeping the ${network ? describeNnue(network) : 'classical evaluation'}`);
      }
      return;
    }
    case 'Backend': {
      try {
        const next = await loadBackend(change.value, host.backendLoaders);
        eng.setMoveGenerator(next);
        backend = next;
        say(`info string backend ${backendLabel(next)}`);
      } catch (err) {
        say(`info string ${(err as Error).message}; keeping the ${backend!.name} backend`);
      }
    }
  }
}

function firstLegalMove(spec: PositionSpec): string {
  try {
    const pos = positionOf(spec);
    const legal = legalMoveList(pos);
    return legal.length > 0 ? moveToUciIn(pos, legal[0], spec.chess960 === true) : '0000';
  } catch {
    return '0000';
  }
}

/** Starts the search thread on `threadHost`; messages are handled in order from here on. */
export function runSearchThread(threadHost: SearchThreadHost): void {
  host = threadHost;
  control = host.control;
  bookFile = host.defaultBook;
  let queue: Promise<void> = setup().catch((err) => {
    say(`info string the search thread failed to start: ${(err as Error).message}`);
  });
  host.onMessage((msg: ToWorker) => {
    queue = queue
      .then(() => handle(msg))
      .catch((err) => {
        say(`info string internal error: ${(err as Error).message.split('\n')[0]}`);
        // Never leave a GUI waiting for an answer that will not come.
        if (msg.type === 'go') send({ type: 'bestmove', best: firstLegalMove(msg.position) });
        if (msg.type === 'perft') send({ type: 'perftdone' });
      });
  });
}
