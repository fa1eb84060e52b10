/**
 * Matrix Chess as a UCI engine in a Web Worker, for any web page (dist/worker/matrix-chess-worker.js,
 * a classic worker script): the page posts UCI command lines as strings and receives every output
 * line as a string message, as with the Stockfish.js and Lozza web builds. docs/worker.md.
 *
 * The protocol is src/uci's own (UciSession, fed line by line). Its search thread is a second
 * instance of this same script, started by the first one as a nested worker named
 * SEARCH_THREAD_NAME, running src/uci/search-worker.ts; so the first worker stays free to read
 * `stop`, `isready` and `quit` while a search runs. On a cross-origin-isolated page stop reaches
 * the search through a SharedArrayBuffer; elsewhere UciSession replaces the search thread and
 * answers with the best move found so far.
 */
import { UciSession, type StartSearchThread } from '../src/uci/loop.js';
import type { UciHostDefaults } from '../src/uci/protocol.js';
import { runSearchThread, type FromWorker, type ToWorker } from '../src/uci/search-worker.js';
import { fetchBnnSliders } from './bnn-weights.js';
import { fetchNnue } from './nnue-net.js';

const SEARCH_THREAD_NAME = 'matrix-chess-search';
/** The network beside this script, the default EvalFile (a URL relative to the script). */
const DEFAULT_NETWORK = 'nnue.bin';
/**
 * The options as they are here: Threads up to the page's cores (this worker itself searches on
 * one thread), the network beside the script, and no book (OwnBook and BookFile read files).
 */
const HOST_DEFAULTS: UciHostDefaults = { maxThreads: navigator.hardwareConcurrency || 1, bookFile: '<empty>', evalFile: DEFAULT_NETWORK };

interface WorkerScope {
  name: string;
  location: { href: string };
  postMessage(msg: unknown): void;
  onmessage: ((ev: MessageEvent) => void) | null;
  close(): void;
}
const scope = self as unknown as WorkerScope;
/** Files the build puts next to this script, found relative to it wherever the page serves it. */
const besideScript = (file: string): string => new URL(file, scope.location.href).href;

if (scope.name === SEARCH_THREAD_NAME) {
  // The search thread: the first message carries the control block (a worker has no workerData).
  let listener: ((msg: ToWorker) => void) | undefined;
  scope.onmessage = (ev: MessageEvent<{ control: Int32Array } | ToWorker>) => {
    const data = ev.data;
    if ('control' in data) {
      runSearchThread({
        control: data.control,
        send: (msg: FromWorker) => scope.postMessage(msg),
        onMessage: (l) => (listener = l),
        // EvalFile is a URL here (relative to this script); the WebAssembly kernel is the one beside it.
        loadNetwork: (url) => fetchNnue({ net: besideScript(url), wasm: besideScript('nnue.wasm') }),
        defaultNetwork: DEFAULT_NETWORK,
        defaultBook: HOST_DEFAULTS.bookFile,
        backendLoaders: { bnnSliders: (layout) => fetchBnnSliders(besideScript(`bnn-${layout}.bin`), layout) },
      });
    } else listener?.(data);
  };
} else {
  const startThread: StartSearchThread = (control, events) => {
    const worker = new Worker(scope.location.href, { name: SEARCH_THREAD_NAME });
    worker.onmessage = (ev: MessageEvent<FromWorker>) => events.onMessage(ev.data);
    worker.onerror = (ev) => {
      ev.preventDefault();
      events.onError(new Error(ev.message || 'the search worker failed to load'));
    };
    worker.postMessage({ control });
    return { post: (msg) => worker.postMessage(msg), terminate: () => worker.terminate() };
  };
  let session: UciSession | undefined = new UciSession((line) => scope.postMessage(line), {
    startThread,
    giveUp: () => end(),
    defaults: HOST_DEFAULTS,
  });
  const end = (): void => {
    session?.close();
    session = undefined;
    scope.close();
  };
  // As in the terminal (UciSession.quit): a running search prints its bestmove and earlier
  // isready commands are answered; the session is detached first, so nothing sent after quit is read.
  const quit = async (): Promise<void> => {
    const quitting = session;
    session = undefined;
    await quitting?.quit();
    quitting?.close();
    scope.close();
  };
  scope.onmessage = (ev: MessageEvent) => {
    // One command per line; a message may hold several.
    for (const line of String(ev.data).split(/\r?\n/)) {
      if (!session) return;
      if (!session.handle(line)) void quit();
    }
  };
}
