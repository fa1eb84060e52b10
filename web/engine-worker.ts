/**
 * The engine in a Web Worker: the same Engine as the CLI, bundled. The page sends the game
 * (start FEN + moves, so repetition detection sees the whole game) and limits; the worker posts
 * an `info` after every completed depth and a `done` with the best move. Stopping is done by the
 * page terminating this worker and using the last reported best move (see docs/web.md).
 *
 * Where the page is cross-origin isolated (SharedArrayBuffer exists), the engine searches with
 * one thread per core (Lazy SMP): helper workers (engine-helper.ts) share its hash table.
 */
import { Engine } from '../src/engine/index.js';
import { moveToUciIn, movesToUciIn, replayUciMoves } from '../src/core/notation.js';
import { moveToUci } from '../src/core/move.js';
import { fetchBnnSliders } from './bnn-weights.js';
import { fetchNnue } from './nnue-net.js';
import type { FromWorker, NnueUrls, ToWorker } from './protocol.js';
import { loadBackend, type BackendName } from '../src/backends.js';
import { analyseGame } from '../src/analysis/analyse-game.js';
import type { SpawnHelper } from '../src/engine/smp.js';
import { parseSetOption, type OptionChange, type UciHostDefaults } from '../src/uci/protocol.js';

/** More threads than this gain little and cost a hash table's worth of memory traffic each. */
const MAX_THREADS = 8;
const isolated =
  typeof SharedArrayBuffer === 'function' && (self as unknown as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
let threads = isolated ? Math.max(1, Math.min(MAX_THREADS, navigator.hardwareConcurrency || 1)) : 1;
/** A helper thread's failure: the next search reports it and the engine goes on with one thread. */
let helperFailure = '';
const spawnWebHelper: SpawnHelper = (onError) => {
  const w = new Worker('helper.js');
  w.onerror = (ev) => {
    ev.preventDefault();
    onError(ev.message || 'unknown error');
  };
  return w;
};
const engine = new Engine({ hashMb: 16 });
engine.setThreads(threads, spawnWebHelper, (message) => (helperFailure = message));
/** The network the engine plays with: the URL it came from ('' = classical) and a one-line description. */
let evalUrl = '',
  evalText = 'classical evaluation';

function post(msg: FromWorker): void {
  (self as unknown as { postMessage(m: FromWorker): void }).postMessage(msg);
}

/** Sets the engine's move generator and evaluation as the page asks (shared by searching and analysing). */
async function prepareEngine(backend: BackendName, weightsUrl: string | null, nnueUrls: NnueUrls | null): Promise<void> {
  // The registry is the CLI's; only the BNN weights come another way (fetched, not read from disk).
  // The page sends the weights file of the chosen BNN backend; the file's layout is checked.
  engine.setMoveGenerator(await loadBackend(backend, { bnnSliders: (layout) => fetchBnnSliders(weightsUrl, layout) }));
  const wanted = nnueUrls ? nnueUrls.net : '';
  if (wanted !== evalUrl) {
    const nnue = nnueUrls ? await fetchNnue(nnueUrls) : null;
    engine.setEvaluator(nnue);
    evalUrl = wanted;
    evalText = nnue ? `network ${nnue.network.hidden}×2, ${nnue.kernel.name}` : 'classical evaluation';
  }
}

/** The options as src/uci reads them here (the page sets the backend and network in its search requests). */
const OPTION_DEFAULTS: UciHostDefaults = { maxThreads: MAX_THREADS, bookFile: '<empty>', evalFile: 'nnue.bin' };

/**
 * Applies what this worker can of a parsed option; returns the `info string` to answer with,
 * or '' when applied. Options the page sets another way (backend, network, threads) are not
 * applied here, and say so.
 */
function applyOption(change: OptionChange): string {
  switch (change.name) {
    case 'MultiPV':
      engine.setMultiPv(change.value);
      return '';
    case 'Hash':
      engine.setHashSize(change.value);
      return '';
    case 'Clear Hash':
      engine.clearHash();
      return '';
    case 'SearchParam':
      Object.assign(engine.params, { [change.param]: change.value });
      engine.paramsChanged();
      return '';
    case 'UCI_LimitStrength':
      engine.setStrength(change.value);
      return '';
    case 'UCI_Elo':
      engine.setStrength(engine.limitsStrength, change.value);
      return '';
    default:
      return `info string setoption ${change.name}: not applied by the web app's engine worker`;
  }
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (msg.type === 'newgame') {
    engine.newGame();
    return;
  }
  if (msg.type === 'setoption') {
    const tokens = msg.line.trim().split(/\s+/);
    const parsed = tokens[0] === 'setoption' ? parseSetOption(tokens.slice(1), OPTION_DEFAULTS) : null;
    if (!parsed) post({ type: 'option', line: `info string expected a setoption line, got '${msg.line}'`, ok: false });
    else if (!parsed.ok) post({ type: 'option', line: `info string ${parsed.error}`, ok: false });
    else {
      const refused = applyOption(parsed.value);
      post({ type: 'option', line: refused || `info string ${msg.line.trim()}: applied`, ok: !refused });
    }
    return;
  }
  const id = msg.id;
  try {
    await prepareEngine(msg.backend, msg.weightsUrl, msg.nnue);
    if (msg.type === 'analyse') {
      // The library's analysis, one synchronous run; Stop terminates this worker.
      const analysis = analyseGame(msg.pgn, {
        nodes: msg.nodes,
        engine,
        onPosition: (searched, total) => post({ type: 'analysis-progress', id, searched, total }),
      });
      post({ type: 'analysis', id, analysis });
      return;
    }
    const pos = replayUciMoves(msg.startFen, msg.moves, msg.chess960);
    const root = pos.clone();
    const uciPv = (pv: number[]): string[] => movesToUciIn(root, pv, msg.chess960);
    if (helperFailure) {
      const failure = helperFailure;
      helperFailure = '';
      engine.setThreads(1);
      threads = 1;
      throw new Error(`${failure}; searching with one thread from now on`);
    }
    const result = engine.search(pos, msg.limits, {
      onInfo: (info) =>
        post({
          type: 'info',
          id,
          bound: info.bound ?? null,
          depth: info.depth,
          score: info.score,
          nodes: info.nodes,
          nps: info.nps,
          timeMs: info.timeMs,
          pv: uciPv(info.pv),
        }),
    });
    post({
      type: 'done',
      id,
      bestMove: result.bestMove ? moveToUciIn(root, result.bestMove, msg.chess960) : moveToUci(result.bestMove),
      depth: result.depth,
      score: result.score,
      nodes: result.nodes,
      timeMs: result.timeMs,
      pv: uciPv(result.pv),
      backend: msg.backend,
      evaluation: evalText,
      threads,
    });
  } catch (e) {
    post({ type: 'error', id, message: e instanceof Error ? e.message : String(e) });
  }
};
