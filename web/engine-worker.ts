/**
 * The engine in a Web Worker: the same Engine as the CLI, bundled. The page sends the game
 * (start FEN + moves, so repetition detection sees the whole game) and limits; the worker posts
 * an `info` after every completed depth and a `done` with the best move. Stopping is done by the
 * page terminating this worker and using the last reported best move (see docs/web.md).
 */
import { Engine } from '../src/engine/index.js';
import { Position } from '../src/core/position.js';
import { parseUciMove } from '../src/core/notation.js';
import { moveToUci } from '../src/core/move.js';
import { bitboardSource, bnnSource, matrixSource, parseBnnWeights, type MoveSource } from './backends.js';
import type { FromWorker, ToWorker } from './protocol.js';

const engine = new Engine({ hashMb: 16 });
let bnn: MoveSource | null = null;

function post(msg: FromWorker): void {
  (self as unknown as { postMessage(m: FromWorker): void }).postMessage(msg);
}

async function sourceFor(backend: string, weightsUrl: string | null): Promise<MoveSource> {
  if (backend === 'matrix') return matrixSource;
  if (backend === 'bnn') {
    if (!bnn) {
      if (!weightsUrl) throw new Error('the neural backend needs the BNN weights, which this build does not include');
      const res = await fetch(weightsUrl);
      if (!res.ok) throw new Error(`could not load BNN weights from ${weightsUrl} (HTTP ${res.status})`);
      const parsed = parseBnnWeights(new Uint8Array(await res.arrayBuffer()), weightsUrl);
      if (!parsed.complete) throw new Error(`${weightsUrl} is from a partial training run; the neural backend needs every network trained`);
      bnn = bnnSource(parsed.weights);
    }
    return bnn;
  }
  return bitboardSource();
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (msg.type === 'newgame') { engine.newGame(); return; }
  const id = msg.id;
  try {
    engine.setMoveSource(await sourceFor(msg.backend, msg.weightsUrl));
    const pos = Position.fromFen(msg.startFen);
    for (const uci of msg.moves) pos.makeMove(parseUciMove(pos, uci));
    const uciPv = (pv: number[]): string[] => pv.map(moveToUci);
    const result = engine.search(pos, msg.limits, {
      onInfo: (info) => post({
        type: 'info', id, bound: info.bound ?? null, depth: info.depth, score: info.score, nodes: info.nodes, nps: info.nps, timeMs: info.timeMs, pv: uciPv(info.pv),
      }),
    });
    post({
      type: 'done', id, bestMove: moveToUci(result.bestMove), depth: result.depth, score: result.score, nodes: result.nodes,
      timeMs: result.timeMs, pv: uciPv(result.pv), backend: msg.backend,
    });
  } catch (e) {
    post({ type: 'error', id, message: e instanceof Error ? e.message : String(e) });
  }
};
