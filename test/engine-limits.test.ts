/**
 * Search limits and engine options are checked before anything runs (src/engine/limits.ts):
 * every bad value is a SearchLimitError or EngineOptionError naming the field, and a search that
 * nothing would end is refused instead of holding the caller's thread for ever.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, EngineOptionError, SearchLimitError, validateSearchLimits, type SearchLimits } from '../src/engine/index.js';
import { Position } from '../src/core/position.js';
import { legalMoveList } from '../src/core/notation.js';

const START = (): Position => Position.startpos();

test('a bad search limit throws SearchLimitError naming the field, before searching', () => {
  const engine = new Engine({ hashMb: 1 });
  const cases: Array<[unknown, string, RegExp]> = [
    [{ depth: -1 }, 'depth', /expected a whole number from 1 to 127, got -1/],
    [{ depth: 0 }, 'depth', /got 0/],
    [{ depth: 2.5 }, 'depth', /got 2.5/],
    [{ depth: NaN }, 'depth', /got NaN/],
    [{ depth: 'x' }, 'depth', /got 'x'/],
    [{ depth: 500 }, 'depth', /from 1 to 127, got 500/],
    [{ movetime: -5 }, 'movetime', /above 0, got -5/],
    [{ movetime: Infinity }, 'movetime', /got Infinity/],
    [{ nodes: -10 }, 'nodes', /got -10/],
    [{ nodes: '1000' }, 'nodes', /got '1000'/],
    [{ wtime: -1, btime: 100 }, 'wtime', /0 or more, got -1/],
    [{ movestogo: 0, wtime: 1000 }, 'movestogo', /got 0/],
    [{ infinite: 'yes' }, 'infinite', /expected true or false/],
    [{ signal: {}, depth: 3 }, 'signal', /expected an AbortSignal/],
    [{ depht: 5 }, 'depht', /unknown limit/],
    [{}, 'limits', /no depth, nodes, movetime or clock was given/],
    [{ infinite: false }, 'limits', /needs infinite: true/],
    [{ btime: 1000 }, 'limits', /only btime was given and white is to move/],
    [{ infinite: true }, 'infinite', /nothing could stop this search/],
    [{ infinite: true, signal: new AbortController().signal }, 'infinite', /nothing could stop this search/],
    [{ ponder: true, wtime: 1000, btime: 1000 }, 'ponder', /needs a control block/],
    [null, 'limits', /expected an object/],
    [5, 'limits', /expected an object/],
  ];
  for (const [limits, field, message] of cases) {
    assert.throws(
      () => engine.search(START(), limits as SearchLimits),
      (err: unknown) => {
        assert.ok(err instanceof SearchLimitError, `${JSON.stringify(limits)}: ${String(err)}`);
        assert.ok(err instanceof RangeError);
        assert.equal(err.field, field, JSON.stringify(limits));
        assert.match(err.message, message, JSON.stringify(limits));
        return true;
      },
    );
  }
  // undefined counts as absent.
  assert.ok(legalMoveList(START()).includes(engine.search(START(), { depth: 2, nodes: undefined }).bestMove));
});

test('only the mover clock bounds a search', () => {
  assert.doesNotThrow(() => validateSearchLimits({ wtime: 1000 }, { side: 0 }));
  assert.throws(() => validateSearchLimits({ wtime: 1000 }, { side: 1 }), /only wtime was given and black is to move/);
  // Side unknown (the client before it parses the FEN): either clock counts.
  assert.doesNotThrow(() => validateSearchLimits({ btime: 1000 }));
});

test('an infinite search is allowed when something can stop it: a hook, a control block, the signal aborted from a hook', () => {
  const engine = new Engine({ hashMb: 1 });
  const pos = START();
  let infos = 0;
  const byHook = engine.search(pos, { infinite: true }, { onInfo: (i) => i.depth >= 3 && ++infos && engine.stop() });
  assert.ok(infos >= 1 && byHook.depth >= 3 && byHook.depth < 8, `stopped at depth ${byHook.depth}`);

  const controller = new AbortController();
  const bySignal = engine.search(pos, { infinite: true, signal: controller.signal }, { onInfo: (i) => i.depth >= 4 && controller.abort() });
  assert.ok(bySignal.depth >= 4 && bySignal.depth < 9, `stopped at depth ${bySignal.depth}`);
  assert.ok(legalMoveList(pos).includes(bySignal.bestMove));

  const control = new Int32Array(new SharedArrayBuffer(8));
  control[0] = 1;
  assert.ok(legalMoveList(pos).includes(engine.search(pos, { infinite: true }, { control }).bestMove));
});

test('a signal aborted before the search stops it at the first node check (1024 nodes), with a legal move', () => {
  const engine = new Engine({ hashMb: 1 });
  const controller = new AbortController();
  controller.abort();
  const pos = Position.fromFen('r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10');
  const r = engine.search(pos, { depth: 30, signal: controller.signal });
  // The search polls its stop conditions every 1024 nodes.
  assert.ok(r.nodes <= 1100, `nodes ${r.nodes}`);
  assert.ok(r.depth < 30, `depth ${r.depth}`);
  assert.ok(legalMoveList(pos).includes(r.bestMove));
});

test('engine options: unknown names and bad values throw EngineOptionError naming the option', () => {
  const cases: Array<[unknown, string, RegExp]> = [
    [{ hashMb: 0 }, 'hashMb', /from 1 to 2048, got 0/],
    [{ hashMb: 'big' }, 'hashMb', /got 'big'/],
    [{ multiPv: -1 }, 'multiPv', /got -1/],
    [{ moveOverheadMs: NaN }, 'moveOverheadMs', /got NaN/],
    [{ threads: 0 }, 'threads', /got 0/],
    [{ threads: 2 }, 'threads', /need spawnHelper/],
    [{ nnue: 'weights/nnue.bin' }, 'nnue', /expected an NnueEvaluator/],
    [{ moveGenerator: {} }, 'moveGenerator', /expected a move generator/],
    [{ hash: 64 }, 'hash', /unknown option/],
    ['fast', 'options', /expected an object/],
  ];
  for (const [options, field, message] of cases) {
    assert.throws(
      () => new Engine(options as never),
      (err: unknown) => {
        assert.ok(err instanceof EngineOptionError, `${JSON.stringify(options)}: ${String(err)}`);
        assert.equal(err.field, field);
        assert.match(err.message, message);
        return true;
      },
    );
  }
  const engine = new Engine({ hashMb: 1 });
  assert.throws(
    () => engine.setHashSize(-3),
    (e: unknown) => e instanceof EngineOptionError && e.field === 'hashMb',
  );
  assert.throws(
    () => engine.setMultiPv(0),
    (e: unknown) => e instanceof EngineOptionError && e.field === 'multiPv',
  );
  assert.throws(
    () => engine.setMoveOverhead(-1),
    (e: unknown) => e instanceof EngineOptionError && e.field === 'moveOverheadMs',
  );
  assert.equal(engine.evaluation, 'classical');
});
