/**
 * Lazy SMP at the engine level: helper threads on a shared table add nodes, never change who
 * decides (the main search returns a legal move), and stop with the main search.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type SearchInfo } from '../src/engine/index.js';
import { spawnNodeHelper } from '../src/engine/smp-node.js';
import { legalMoveList, replayUciMoves } from '../src/core/notation.js';
import { Position } from '../src/core/position.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

test('Threads 2: a legal best move, and the nodes reported include the helper thread’s', () => {
  const engine = new Engine({ hashMb: 8, threads: 2, spawnHelper: spawnNodeHelper });
  try {
    assert.equal(engine.threads, 2);
    assert.equal(engine.waitForHelpers(), true, 'the helper thread started');
    const pos = Position.fromFen(KIWIPETE);
    const infos: SearchInfo[] = [];
    const result = engine.search(pos, { depth: 9 }, { onInfo: (i) => infos.push(i) });
    assert.ok(legalMoveList(Position.fromFen(KIWIPETE)).includes(result.bestMove));
    assert.equal(pos.toFen(), KIWIPETE, 'the position is restored');
    assert.ok(result.helperNodes !== undefined && result.helperNodes > 0, `helper nodes: ${result.helperNodes}`);
    const last = infos[infos.length - 1];
    assert.ok(last.helperNodes !== undefined && last.helperNodes > 0, 'the last info counts helper nodes');
    assert.ok(last.nodes > last.nodes - last.helperNodes, 'info nodes exceed the main thread’s own count');
    // Node counts only grow from one report to the next, and the result has the final total.
    for (let i = 1; i < infos.length; i++) assert.ok(infos[i].nodes >= infos[i - 1].nodes);
    assert.ok(result.nodes >= last.nodes && result.nodes > result.helperNodes);

    // A root reached by moves (repetition history included) and a second search reuse the same helpers.
    const game = replayUciMoves(KIWIPETE, ['e1g1', 'e8c8', 'g1h1', 'c8b8']);
    // Depth 9, as above: the table is warm from that search, and at depth 7 the main thread could
    // finish before the helper had counted its first unit of nodes (seen once in CI).
    const again = engine.search(game, { depth: 9 });
    assert.ok(legalMoveList(replayUciMoves(KIWIPETE, ['e1g1', 'e8c8', 'g1h1', 'c8b8'])).includes(again.bestMove));
    assert.ok(again.helperNodes! > 0);

    // Hash resize and a new game with helpers running: still searching on the (new) shared table.
    engine.setHashSize(4);
    engine.newGame();
    const resized = engine.search(Position.fromFen(KIWIPETE), { depth: 8 });
    assert.ok(legalMoveList(Position.fromFen(KIWIPETE)).includes(resized.bestMove));
    assert.ok(resized.helperNodes! > 0);
  } finally {
    engine.dispose();
  }
  assert.equal(engine.threads, 1);
});

test('Threads 2: stop() from another thread ends an infinite search promptly, helpers included', async () => {
  const engine = new Engine({ hashMb: 8, threads: 2, spawnHelper: spawnNodeHelper });
  try {
    assert.equal(engine.waitForHelpers(), true);
    const control = new Int32Array(new SharedArrayBuffer(8));
    // The search blocks this thread, so the stop comes from another one, as in the UCI loop.
    const { Worker } = await import('node:worker_threads');
    const stopper = new Worker(
      'const { workerData } = require("node:worker_threads"); setTimeout(() => { Atomics.store(workerData, 0, 1); Atomics.notify(workerData, 0); }, 500);',
      {
        eval: true,
        workerData: control,
      },
    );
    const t0 = Date.now();
    const result = engine.search(Position.fromFen(KIWIPETE), { infinite: true }, { control });
    const ms = Date.now() - t0;
    await stopper.terminate();
    assert.ok(legalMoveList(Position.fromFen(KIWIPETE)).includes(result.bestMove));
    assert.ok(ms < 5000, `stopped after ${ms} ms`);
    assert.ok(result.helperNodes! > 0);
    // Right after the stop the next search runs normally (no helper left on the old root).
    const next = engine.search(Position.fromFen(KIWIPETE), { depth: 5 });
    assert.ok(legalMoveList(Position.fromFen(KIWIPETE)).includes(next.bestMove));
  } finally {
    engine.dispose();
  }
});

test('Threads: bad values are refused by name, and one thread needs no way to spawn', () => {
  const engine = new Engine({ hashMb: 1 });
  assert.throws(() => engine.setThreads(0), /engine option threads: expected a whole number from 1 to 1024, got 0/);
  assert.throws(() => engine.setThreads(1.5), /engine option threads: expected a whole number from 1 to 1024, got 1.5/);
  assert.throws(() => engine.setThreads(2), /threads: 2 threads need a way to start helper threads/);
  engine.setThreads(1);
  assert.equal(engine.threads, 1);
  assert.equal(engine.waitForHelpers(), true);
});
