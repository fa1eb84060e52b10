/**
 * The asynchronous engine (src/client, `createEngine` from matrix-chess/node): our UCI engine in
 * a worker thread, driven as a UCI client. Checked on the real engine: an analysis to a depth,
 * MultiPV lines, a stop by AbortSignal mid-search, calls queued in order, options, quit, and the
 * same network as `new Engine({ nnue: loadNnue() })` (the same tree). Checked on a scripted
 * transport: bad input is refused before a single line is sent.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createEngine } from '../src/client/create-engine-node.js';
import { createEngine as createWebEngine } from '../src/client/create-engine.js';
import { AsyncEngine, EngineClosedError, type AnalysisLine } from '../src/client/engine-client.js';
import type { UciTransport } from '../src/client/transport.js';
import { Engine, EngineOptionError, SearchLimitError, nnueFromBytes, type SearchLimits } from '../src/engine/index.js';
import { DEFAULT_NETWORK_FILE, NNUE_WASM_FILE, loadNnue } from '../src/engine/nnue/load-node.js';
import { FenError } from '../src/core/fen.js';
import { MoveError, legalMoveList, replayUciMoves } from '../src/core/notation.js';
import { moveToUci } from '../src/core/move.js';
import { Position } from '../src/core/position.js';
import { START_FEN } from '../src/core/fen.js';

const engines: AsyncEngine[] = [];
after(async () => {
  for (const e of engines) await e.quit();
});

async function started(): Promise<AsyncEngine> {
  const engine = await createEngine();
  engines.push(engine);
  return engine;
}

/** Every move of `pv` is legal in turn from `fen` after `moves`. */
function assertLegalLine(fen: string, moves: string[], pv: string[]): void {
  const pos = replayUciMoves(fen, moves);
  for (const m of pv) {
    assert.ok(legalMoveList(pos).map(moveToUci).includes(m), `${m} is legal in ${pos.toFen()} (line ${pv.join(' ')})`);
    pos.makeMove(legalMoveList(pos).find((x) => moveToUci(x) === m)!);
  }
}

test('analyse to depth 6 from the start position: a legal best move, its line, depth, score and counts', async () => {
  const engine = await started();
  assert.equal(engine.name, 'Matrix Chess');
  const depths: number[] = [];
  const a = await engine.analyse('startpos', { depth: 6, onInfo: (l) => depths.push(l.depth) });
  assert.equal(a.stopped, false);
  assert.equal(a.lines.length, 1);
  const [line] = a.lines;
  assert.equal(line.depth, 6);
  assert.equal(line.multipv, 1);
  assert.ok('cp' in line.score && Math.abs(line.score.cp) < 100, JSON.stringify(line.score));
  assert.ok(line.nodes > 0 && line.nps > 0 && line.time >= 0 && line.seldepth! >= 6);
  assert.equal(a.bestmove, line.pv[0]);
  assertLegalLine(START_FEN, [], line.pv);
  assert.deepEqual(depths, [1, 2, 3, 4, 5, 6]);
  // After moves, and mate on the board: no best move.
  const after = await engine.analyse(START_FEN, { moves: ['e2e4', 'e7e5'], nodes: 5000 });
  assertLegalLine(START_FEN, ['e2e4', 'e7e5'], [after.bestmove!]);
  const mated = await engine.analyse('R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1', { depth: 3 });
  assert.equal(mated.bestmove, null);
  assert.deepEqual(mated.lines[0].score, { mate: 0 });
});

test('multiPv 3 returns three distinct lines, best first, for that analysis only', async () => {
  const engine = await started();
  const a = await engine.analyse('r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3', { depth: 6, multiPv: 3 });
  assert.equal(a.lines.length, 3);
  assert.deepEqual(
    a.lines.map((l) => l.multipv),
    [1, 2, 3],
  );
  assert.equal(new Set(a.lines.map((l) => l.pv[0])).size, 3);
  for (const l of a.lines) assert.equal(l.depth, 6);
  const cps = a.lines.map((l) => ('cp' in l.score ? l.score.cp : NaN));
  assert.ok(cps[0] >= cps[1] && cps[1] >= cps[2], `scores best first: ${cps.join(' ')}`);
  assert.equal(a.bestmove, a.lines[0].pv[0]);
  assert.equal((await engine.analyse('startpos', { depth: 3 })).lines.length, 1);
});

test('an abort mid-search resolves with what was found (stopped: true); an aborted signal rejects before anything runs', async () => {
  const engine = await started();
  const controller = new AbortController();
  const seen: AnalysisLine[] = [];
  const a = await engine.analyse('startpos', {
    infinite: true,
    signal: controller.signal,
    onInfo: (l) => {
      seen.push(l);
      if (l.depth >= 7) controller.abort();
    },
  });
  assert.equal(a.stopped, true);
  assert.ok(a.lines[0].depth >= 7, `depth ${a.lines[0].depth}`);
  assert.equal(a.bestmove, a.lines[0].pv[0], 'the move played is the last reported line first move');
  assertLegalLine(START_FEN, [], [a.bestmove!]);
  // stop() does the same.
  const running = engine.analyse('startpos', { infinite: true, onInfo: (l) => l.depth >= 5 && engine.stop() });
  assert.equal((await running).stopped, true);

  const aborted = new AbortController();
  aborted.abort(new Error('changed my mind'));
  await assert.rejects(engine.analyse('startpos', { depth: 5, signal: aborted.signal }), /changed my mind/);
  // Aborted while queued behind another analysis: rejected when its turn comes, without searching.
  const queued = new AbortController();
  const first = engine.analyse('startpos', { depth: 7 });
  const second = engine.analyse('startpos', { depth: 20, signal: queued.signal });
  queued.abort();
  await first;
  await assert.rejects(second, { name: 'AbortError' });
  // The engine still answers.
  assert.equal((await engine.analyse('startpos', { depth: 2 })).lines[0].depth, 2);
});

test('calls made together run one at a time, in the order made', async () => {
  const engine = await started();
  const order: string[] = [];
  const deep = engine.analyse('startpos', { depth: 8 }).then((a) => order.push(`deep ${a.lines[0].depth}`));
  const shallow = engine.analyse('startpos', { depth: 2 }).then((a) => order.push(`shallow ${a.lines[0].depth}`));
  const option = engine.setOption('Hash', 8).then(() => order.push('option'));
  await Promise.all([deep, shallow, option]);
  assert.deepEqual(order, ['deep 8', 'shallow 2', 'option']);
});

test('options: checked against what the engine offers before they are sent; applied with the engine messages', async () => {
  const engine = await started();
  assert.ok(engine.options.some((o) => o.name === 'MultiPV' && o.type === 'spin' && o.max === 64));
  await assert.rejects(
    engine.setOption('Hash', 0),
    (e: unknown) => e instanceof EngineOptionError && e.field === 'Hash' && /from 1 to 1024/.test(e.message),
  );
  await assert.rejects(
    engine.setOption('UseNNUE', 'no'),
    (e: unknown) => e instanceof EngineOptionError && /true or false/.test(e.message),
  );
  await assert.rejects(engine.setOption('Backend', 'quantum'), /one of bitboard, matrix, bnn/);
  await assert.rejects(engine.setOption('Turbo', 1), (e: unknown) => e instanceof EngineOptionError && /unknown option/.test(e.message));
  assert.deepEqual(await engine.setOption('usennue', false), ['evaluation: classical']);
  const messages = await engine.setOption('EvalFile', '/nonexistent/net.bin');
  assert.match(messages.join('\n'), /nonexistent\/net\.bin: cannot read/);
  await engine.setOption('Clear Hash');
  await engine.newGame();
});

test('createEngine plays the network new Engine({ nnue: loadNnue() }) and nnueFromBytes(bytes) play: the same tree', async () => {
  const engine = await started();
  const fen = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';
  const a = await engine.analyse(fen, { depth: 7 });
  const sync = new Engine({ nnue: loadNnue() }).search(Position.fromFen(fen), { depth: 7 });
  const bytes = readFileSync(DEFAULT_NETWORK_FILE);
  const fromBytes = new Engine({ nnue: nnueFromBytes(bytes, { wasm: readFileSync(NNUE_WASM_FILE), source: 'nnue.bin' }) });
  assert.match(fromBytes.evaluation, /^NNUE nnue\.bin: .*wasm kernel/);
  const viaBytes = fromBytes.search(Position.fromFen(fen), { depth: 7 });
  const viaTs = new Engine({ nnue: nnueFromBytes(bytes) }).search(Position.fromFen(fen), { depth: 7 });
  assert.equal(a.lines[0].nodes, sync.nodes, 'the worker engine searched the same tree');
  assert.equal(a.bestmove, moveToUci(sync.bestMove));
  assert.deepEqual(a.lines[0].score, sync.score);
  for (const r of [viaBytes, viaTs]) {
    assert.equal(r.nodes, sync.nodes);
    assert.equal(r.bestMove, sync.bestMove);
  }
  // The classical evaluation searches another tree: the default is not it.
  assert.notEqual(new Engine().search(Position.fromFen(fen), { depth: 7 }).nodes, sync.nodes);
});

test('quit: a running analysis stops and resolves, queued calls and later ones reject with EngineClosedError', async () => {
  const engine = await createEngine();
  const running = engine.analyse('startpos', { infinite: true });
  const queued = assert.rejects(engine.analyse('startpos', { depth: 3 }), EngineClosedError);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await engine.quit();
  const r = await running;
  assert.equal(r.stopped, true);
  assertLegalLine(START_FEN, [], [r.bestmove!]);
  await queued;
  await assert.rejects(engine.analyse('startpos', { depth: 1 }), /the engine was closed/);
  await engine.quit(); // twice is fine
});

test('the root entry createEngine needs a Web Worker: on Node it says to use matrix-chess/node', async () => {
  await assert.rejects(createWebEngine(), (e: unknown) => e instanceof EngineOptionError && /matrix-chess\/node/.test(e.message));
  await assert.rejects(createEngine({ timeout: 5 } as never), (e: unknown) => e instanceof EngineOptionError && e.field === 'timeout');
});

/** A scripted engine: answers uci and isready like ours, records every line it is sent. */
function scriptedTransport(): { transport: UciTransport; sent: string[] } {
  const sent: string[] = [];
  let emit: (line: string) => void = () => {};
  const transport: UciTransport = {
    send(line) {
      sent.push(line);
      const reply =
        line === 'uci'
          ? ['id name Scripted', 'option name MultiPV type spin default 1 min 1 max 8', 'uciok']
          : line === 'isready'
            ? ['readyok']
            : line.startsWith('go')
              ? ['info depth 1 score cp 5 nodes 20 nps 1000 time 1 pv e2e4', 'bestmove e2e4']
              : [];
      queueMicrotask(() => reply.forEach((l) => emit(l)));
    },
    listen: (onLine) => (emit = onLine),
    terminate: () => {},
  };
  return { transport, sent };
}

test('bad input is refused with a typed error naming it, before a single line is sent', async () => {
  const { transport, sent } = scriptedTransport();
  const engine = await AsyncEngine.start(transport);
  const before = sent.length;
  const bad: Array<[string, unknown, (e: unknown) => boolean]> = [
    ['startpos', { depth: -1 }, (e) => e instanceof SearchLimitError && e.field === 'depth'],
    ['startpos', { movetime: -5 }, (e) => e instanceof SearchLimitError && e.field === 'movetime'],
    ['startpos', { nodes: -10 }, (e) => e instanceof SearchLimitError && e.field === 'nodes'],
    ['startpos', { depth: 'x' }, (e) => e instanceof SearchLimitError && e.field === 'depth'],
    ['startpos', { depth: NaN }, (e) => e instanceof SearchLimitError && e.field === 'depth'],
    ['startpos', {}, (e) => e instanceof SearchLimitError && e.field === 'limits'],
    ['startpos', { movetime: 10.5 }, (e) => e instanceof SearchLimitError && /whole milliseconds/.test((e as Error).message)],
    [
      'startpos',
      { depth: 3, multiPv: 9 },
      (e) => e instanceof SearchLimitError && e.field === 'multiPv' && /1 to 8/.test((e as Error).message),
    ],
    ['startpos', { depth: 3, ponder: true }, (e) => e instanceof SearchLimitError && e.field === 'ponder'],
    ['startpos', { depth: 3, onInfo: 'log' }, (e) => e instanceof SearchLimitError && e.field === 'onInfo'],
    ['startpos', { depth: 3, moves: ['e2e5'] }, (e) => e instanceof MoveError],
    ['startpos', { depth: 3, moves: 'e2e4' }, (e) => e instanceof SearchLimitError && e.field === 'moves'],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', { depth: 3 }, (e) => e instanceof FenError],
    [
      '4k3/8/8/8/8/8/8/4K3 w - - 0 1',
      { btime: 5000 },
      (e) => e instanceof SearchLimitError && /white is to move/.test((e as Error).message),
    ],
  ];
  for (const [fen, limits, isExpected] of bad) {
    await assert.rejects(engine.analyse(fen, limits as SearchLimits), isExpected, `${fen} ${JSON.stringify(limits)}`);
  }
  await assert.rejects(engine.setOption('MultiPV', 9), EngineOptionError);
  assert.deepEqual(sent.slice(before), [], 'nothing was sent');
  // An infinite analysis needs no signal here: stop() always reaches it.
  const running = engine.analyse('startpos', { infinite: true, multiPv: 2 });
  const r = await running;
  assert.equal(r.bestmove, 'e2e4');
  assert.deepEqual(sent.slice(before), ['setoption name MultiPV value 2', `position fen ${START_FEN}`, 'go infinite']);
  await engine.quit();
  assert.equal(sent.at(-1), 'quit');
});
