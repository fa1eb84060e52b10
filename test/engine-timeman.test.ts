import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { defaultGenerator } from '../src/core/movegen.js';
import { Engine, SearchParams, SEARCH_PARAM_RANGES, computeClockBudget, computeTimeBudget, softLimitScale } from '../src/engine/index.js';
import type { IterationTimeInfo, SearchLimits } from '../src/engine/index.js';
import { TranspositionTable } from '../src/engine/tt.js';
import { Searcher, type RootMove } from '../src/engine/search.js';
import { INF } from '../src/engine/score.js';
import { iterate } from '../src/engine/iterative-deepening.js';
import { STRENGTH_TIME_MANAGER } from '../src/engine/strength.js';
import { optionLines, parseSetOption, tokenize } from '../src/uci/protocol.js';
import { NODE_UCI_DEFAULTS } from '../src/uci/loop-node.js';
import { rng } from './helpers.js';

const buf = new Int32Array(256);
function legalMoves(pos: Position): number[] {
  const n = defaultGenerator.generate(pos, buf, 0);
  return Array.from(buf.subarray(0, n));
}

const params = new SearchParams();
const clock = (ms: number, inc = 100): SearchLimits => ({ wtime: ms, btime: ms, winc: inc, binc: inc });

test('clock manager at 10+0.1: the increments to come count, the horizon shrinks with the move number, the clock share caps it', () => {
  assert.equal(params.timeManagement, 1, 'the clock manager is the default');
  // Move 1: (9970 + 31 increments of 70 net) / 32 moves; the hard limit five times that.
  assert.deepEqual(computeClockBudget(clock(10_000), 0, 30, params, 1), { timed: true, softMs: 379, hardMs: 1896 });
  // Move 21: (4970 + 21 · 70) / 22 moves, the horizon 32 − 10; Black's clock.
  assert.deepEqual(computeClockBudget({ ...clock(5_000), wtime: 1 }, 1, 30, params, 21), { timed: true, softMs: 292, hardMs: 1463 });
  // Move 41 on: the horizon is down to 12 and stays there.
  assert.deepEqual(computeClockBudget(clock(2_000), 0, 30, params, 41), { timed: true, softMs: 228, hardMs: 1141 });
  assert.deepEqual(computeClockBudget(clock(2_000), 0, 30, params, 120), { timed: true, softMs: 228, hardMs: 1141 });
  // Low on the clock: a quarter of it (92.5 < (370 + 770) / 12), the hard limit 60% of it.
  assert.deepEqual(computeClockBudget(clock(400), 0, 30, params, 80), { timed: true, softMs: 92, hardMs: 222 });
  // The old manager at move 1 for comparison: 9970 / 20 + 75.
  assert.deepEqual(computeTimeBudget(clock(10_000), 0, 30, 20), { timed: true, softMs: 573, hardMs: 2867 });
});

test('clock manager without an increment left after the move overhead: the horizon does not shrink', () => {
  // 5000 − 30 over 32 moves at move 1 and at move 60 alike.
  for (const fullmove of [1, 60]) {
    assert.deepEqual(computeClockBudget(clock(5_000, 0), 0, 30, params, fullmove), { timed: true, softMs: 155, hardMs: 776 });
    assert.deepEqual(computeClockBudget(clock(5_000, 30), 0, 30, params, fullmove), { timed: true, softMs: 155, hardMs: 776 });
  }
});

test('clock manager: movetime, movestogo, no clock and timeManagement 0 are budgeted as before', () => {
  const old = new SearchParams();
  old.timeManagement = 0;
  const cases: SearchLimits[] = [
    { ...clock(10_000), movetime: 1_000 },
    { movetime: 1_000 },
    { ...clock(10_000), movestogo: 1 },
    { ...clock(10_000), movestogo: 40 },
    { depth: 5 },
    { nodes: 1000 },
  ];
  for (const limits of cases) assert.deepEqual(computeClockBudget(limits, 0, 30, params, 30), computeTimeBudget(limits, 0, 30, 20));
  assert.deepEqual(computeClockBudget({ ...clock(10_000), movetime: 1_000 }, 0, 30, params, 30), { timed: true, softMs: 970, hardMs: 970 });
  assert.deepEqual(computeClockBudget({ ...clock(10_000), movestogo: 1 }, 0, 0, params, 30), { timed: true, softMs: 5000, hardMs: 8500 });
  assert.deepEqual(computeClockBudget({ depth: 5 }, 0, 30, params, 1), { timed: false, softMs: Infinity, hardMs: Infinity });
  assert.deepEqual(computeClockBudget(clock(10_000), 0, 30, old, 1), computeTimeBudget(clock(10_000), 0, 30, 20));
});

test('clock manager: never above 60% of what is left after the move overhead, soft within hard, for any clock', () => {
  const r = rng(55);
  for (let i = 0; i < 2000; i++) {
    const time = 1 + Math.floor(r() * 300_000),
      inc = r() < 0.3 ? 0 : Math.floor(r() * 30_000),
      overhead = Math.floor(r() * 500),
      fullmove = 1 + Math.floor(r() * 300);
    const b = computeClockBudget(clock(time, inc), 0, overhead, params, fullmove);
    const available = Math.max(1, time - overhead);
    assert.ok(b.timed);
    assert.ok(b.hardMs <= Math.max(1, Math.floor(available * 0.6)), `hard ${b.hardMs} of ${time} (+${inc}, overhead ${overhead})`);
    assert.ok(b.softMs >= 1 && b.softMs <= b.hardMs, `soft ${b.softMs}, hard ${b.hardMs}`);
  }
});

test('clock manager at 10+0.1: a game that spends each soft limit ends with a small reserve, not 2-3 s, and never runs low', () => {
  // A model game: each move spends the soft limit plus 5 ms of lag, and gets the increment.
  let time = 10_000,
    least = Infinity;
  for (let fullmove = 1; fullmove <= 150; fullmove++) {
    const b = computeClockBudget(clock(time), 0, 30, params, fullmove);
    time += 100 - (b.softMs + 5);
    least = Math.min(least, time);
    if (fullmove === 20) assert.ok(time > 4_000 && time < 7_000, `clock at move 20: ${time} ms`);
  }
  assert.ok(time < 700, `the clock at move 150 keeps ${time} ms`);
  assert.ok(least > 300, `the clock fell to ${least} ms`);
});

test('the soft-limit scale: each factor moves it the right way, within its clamps', () => {
  const scale = (info: Partial<IterationTimeInfo>) =>
    softLimitScale({ bestMoveNodeShare: 0.6, scoreDropCp: 0, bestMoveChanges: 1 / 3, ...info }, params);
  // The defaults' neutral point: share 0.6, a steady score, stability (80 + 60 / 3) / 100 = 1.
  assert.ok(Math.abs(scale({}) - 1) < 1e-9);
  // Each factor alone: node effort 1.6 − share, falling score 1 + drop / 100, stability.
  assert.ok(Math.abs(scale({ bestMoveNodeShare: 0.9 }) - 0.7) < 1e-9);
  assert.ok(Math.abs(scale({ scoreDropCp: 25 }) - 1.25) < 1e-9);
  assert.ok(Math.abs(scale({ bestMoveChanges: 0 }) - 0.8) < 1e-9);
  assert.ok(Math.abs(scale({ bestMoveChanges: 1 }) - 1.4) < 1e-9);
  let last = Infinity;
  for (let share = 0; share <= 1.0001; share += 0.05) {
    const s = scale({ bestMoveNodeShare: share });
    assert.ok(s <= last, `a larger share (${share}) never earns more time`);
    last = s;
  }
  assert.ok(scale({ bestMoveNodeShare: 0 }) > scale({ bestMoveNodeShare: 1 }));
  last = -Infinity;
  for (let drop = -200; drop <= 200; drop += 10) {
    const s = scale({ scoreDropCp: drop });
    assert.ok(s >= last, `a larger drop (${drop}) never earns less time`);
    last = s;
  }
  last = -Infinity;
  for (let changes = 0; changes <= 3; changes += 0.125) {
    const s = scale({ bestMoveChanges: changes });
    assert.ok(s >= last, `more changes (${changes}) never earn less time`);
    last = s;
  }
  // Each factor's clamp: effort [0.5, 1.5] (share outside 0…1 too), falling [0.5, 1.5], stability [0.5, 2].
  assert.ok(Math.abs(scale({ bestMoveNodeShare: -1 }) - 1.5) < 1e-9);
  assert.ok(Math.abs(scale({ bestMoveNodeShare: 2 }) - 0.6) < 1e-9);
  assert.ok(Math.abs(scale({ scoreDropCp: 10_000 }) - 1.5) < 1e-9);
  assert.ok(Math.abs(scale({ scoreDropCp: -10_000 }) - 0.5) < 1e-9);
  assert.ok(Math.abs(scale({ bestMoveChanges: 50 }) - 2) < 1e-9);
  // The product's clamp [0.25, 3]: 1.5 · 1.5 · 2 = 4.5 and 0.6 · 0.5 · 0.8 = 0.24 would pass it.
  assert.equal(scale({ bestMoveNodeShare: 0, scoreDropCp: 1000, bestMoveChanges: 5 }), 3);
  assert.equal(scale({ bestMoveNodeShare: 1, scoreDropCp: -1000, bestMoveChanges: 0 }), 0.25);
  // The parameters move it: a lower node base, a smaller timeFallingCp.
  const p = new SearchParams();
  p.timeNodeBasePercent = 100;
  p.timeFallingCp = 25;
  const q = softLimitScale({ bestMoveNodeShare: 0.4, scoreDropCp: 25, bestMoveChanges: 1 / 3 }, p);
  assert.ok(Math.abs(q - 0.6 * 1.5) < 1e-9);
});

test('the time parameters are UCI options, their defaults inside their ranges', () => {
  assert.deepEqual(SEARCH_PARAM_RANGES.timeManagement, [0, 1]);
  for (const name of [
    'timeHorizonStart',
    'timeHorizonEnd',
    'timeClockPercent',
    'timeNodeBasePercent',
    'timeFallingCp',
    'timeStableBasePercent',
    'timeUnstablePercent',
  ] as const) {
    const [min, max] = SEARCH_PARAM_RANGES[name];
    assert.ok(min <= params[name] && params[name] <= max, name);
  }
  // `setoption` switches the manager, so one build can play old against new.
  assert.ok(optionLines(NODE_UCI_DEFAULTS, true).includes('option name timeManagement type spin default 1 min 0 max 1'));
  assert.deepEqual(parseSetOption(tokenize('name timeManagement value 0'), NODE_UCI_DEFAULTS), {
    ok: true,
    value: { name: 'SearchParam', param: 'timeManagement', value: 0 },
  });
  assert.equal(parseSetOption(tokenize('name timeManagement value 2'), NODE_UCI_DEFAULTS).ok, false);
});

test('root moves count the nodes searched under them: together, all of a root search', () => {
  const searcher = new Searcher(new TranspositionTable(1), new SearchParams(), defaultGenerator, null);
  const pos = Position.fromFen('r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3');
  const moves = searcher.begin(pos);
  const rms: RootMove[] = moves.map((m) => ({ move: m, score: -INF, prevScore: -INF, pv: [m], nodes: 0 }));
  searcher.rootSearch(rms, -INF, INF, 5, 0);
  const total = rms.reduce((n, rm) => n + rm.nodes, 0);
  assert.equal(total, searcher.nodes);
  assert.ok(
    rms.every((rm) => rm.nodes >= 1),
    'each root move is at least its own node',
  );
  // The first move gets the full window, the others null windows: it takes the largest share.
  assert.ok(rms[0].nodes > total / rms.length, `first move ${rms[0].nodes} of ${total}`);
  // A second pass (an aspiration re-search) adds to the same counts.
  searcher.rootSearch(rms, -INF, INF, 5, 0);
  assert.equal(
    rms.reduce((n, rm) => n + rm.nodes, 0),
    searcher.nodes,
  );
});

test('go wtime 10000 btime 10000 winc 100 binc 100 stops and plays a legal move, with either manager', { timeout: 120_000 }, () => {
  const r = rng(20261206);
  for (const timeManagement of [1, 0]) {
    const engine = new Engine({ hashMb: 4 });
    engine.params.timeManagement = timeManagement;
    for (let game = 0; game < 2; game++) {
      const pos = Position.startpos();
      const plies = 6 + Math.floor(r() * 30);
      for (let i = 0; i < plies; i++) {
        const ms = legalMoves(pos);
        if (ms.length === 0) break;
        pos.makeMove(ms[Math.floor(r() * ms.length)]);
      }
      const legal = legalMoves(pos);
      if (legal.length === 0) continue;
      const fen = pos.toFen();
      const result = engine.search(pos, { wtime: 10_000, btime: 10_000, winc: 100, binc: 100 });
      assert.ok(legal.includes(result.bestMove), `timeManagement ${timeManagement}: ${fen}`);
      assert.ok(result.depth >= 1);
      assert.equal(pos.toFen(), fen);
    }
  }
});

test("a search setup can name the time manager: the budget is that manager's, whatever the parameters say", () => {
  const searcher = new Searcher(new TranspositionTable(1), new SearchParams(), defaultGenerator, null);
  assert.equal(searcher.params.timeManagement, 1);
  const pos = Position.startpos();
  const limits = { ...clock(10_000), depth: 1 };
  const setup = { startTime: Date.now(), moveOverheadMs: 30, multiPv: 1, helpers: null, helperIndex: 0 };
  iterate(searcher, pos, limits, {}, setup);
  assert.equal(searcher.stopConditions.softMs, computeClockBudget(limits, 0, 30, searcher.params, 1).softMs);
  iterate(searcher, pos, limits, {}, { ...setup, timeManagement: 0 });
  const old = computeTimeBudget(limits, 0, 30, searcher.params.timeHorizonMoves);
  assert.equal(searcher.stopConditions.softMs, old.softMs);
  assert.equal(searcher.stopConditions.hardMs, old.hardMs);
  assert.notEqual(old.softMs, computeClockBudget(limits, 0, 30, searcher.params, 1).softMs, 'the two managers differ here');
  assert.equal(STRENGTH_TIME_MANAGER, 0, 'limited levels keep the manager they were calibrated with');
});
