/** The UCI text parsers and printers on their own (no process, no engine). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { formatInfo, optionLines, parseGo, parsePosition, parseSetOption, tokenize } from '../src/uci/protocol.js';
import { NODE_UCI_DEFAULTS } from '../src/uci/loop-node.js';
import { parseBestMove, parseInfoLine } from '../src/uci/info.js';
import { replayUciMoves } from '../src/core/notation.js';
import { START_FEN } from '../src/core/fen.js';
import { makeMove } from '../src/core/move.js';

test('position: startpos and fen with moves; the history is played on one position', () => {
  const r = parsePosition(tokenize('startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8'));
  assert.ok(r.ok);
  assert.equal(r.value.fen, START_FEN);
  assert.equal(r.value.moves.length, 8);
  const pos = replayUciMoves(r.value.fen, r.value.moves);
  assert.equal(pos.toFen().split(' ')[0], START_FEN.split(' ')[0]);
  assert.equal(pos.repetitions(), 2, 'the start position has occurred twice before');

  const f = parsePosition(tokenize('fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1'));
  assert.ok(f.ok);
  assert.equal(f.value.fen, '4k3/8/8/8/8/8/8/4K2R w K - 0 1');
  assert.equal(replayUciMoves(f.value.fen, f.value.moves).toFen(), '4k3/8/8/8/8/8/8/5RK1 b - - 1 1');
});

test('position: bad input is reported with the reason', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /expected 'startpos' or 'fen'/],
    ['startfen', /expected 'startpos' or 'fen', got 'startfen'/],
    ['startpos e2e4', /expected 'moves', got 'e2e4'/],
    ['fen', /the FEN is missing/],
    ['fen 8/8/8/8/8/8/8/8 w - - 0 1', /invalid FEN \(position\)/],
    ['startpos moves e2e4 e7e5 e4e5', /move 3 of the list: illegal move 'e4e5'/],
    ['startpos moves e2e4 zz', /move 2 of the list: malformed move 'zz'/],
  ];
  for (const [text, pattern] of cases) {
    const r = parsePosition(tokenize(text));
    assert.equal(r.ok, false, text);
    if (!r.ok) assert.match(r.error, pattern, text);
  }
});

test('go: limits, perft, unsupported and malformed parameters', () => {
  assert.deepEqual(parseGo(tokenize('wtime 1000 btime -50 winc 10 binc 0 movestogo 5')), {
    limits: { wtime: 1000, btime: 0, winc: 10, binc: 0, movestogo: 5 },
    problems: [],
    rejected: false,
  });
  assert.deepEqual(parseGo(tokenize('infinite')).limits, { infinite: true });
  assert.deepEqual(parseGo(tokenize('ponder movetime 300')).limits, { ponder: true, movetime: 300 });
  assert.equal(parseGo(tokenize('perft 4')).perft, 4);
  const sm = parseGo(tokenize('searchmoves e2e4 d2d4 depth 5'));
  assert.deepEqual(sm.limits, { depth: 5 });
  assert.equal(sm.rejected, false);
  assert.match(sm.problems[0], /searchmoves is not supported/);
  // No limit at all: searched until stop, as go infinite (the engine refuses an unbounded search otherwise).
  assert.deepEqual(parseGo([]).limits, { infinite: true });
  assert.deepEqual(parseGo(tokenize('mate 3')).limits, { infinite: true });
  assert.deepEqual(parseGo(tokenize('ponder')).limits, { ponder: true });
  for (const bad of [
    'depth x',
    'depth',
    'depth 0',
    'depth -1',
    'nodes 0',
    'nodes -10',
    'movetime 0',
    'movetime -5',
    'perft 0',
    'nodes 1e6',
    'turbo',
  ]) {
    const g = parseGo(tokenize(bad));
    assert.equal(g.rejected, true, bad);
    assert.equal(g.problems.length, 1, bad);
  }
});

test('setoption: every option, case-insensitive names, values checked', () => {
  assert.deepEqual(parseSetOption(tokenize('name Hash value 64'), NODE_UCI_DEFAULTS), { ok: true, value: { name: 'Hash', value: 64 } });
  // Threads: 1 up to the number of cores, advertised with that maximum.
  const cores = availableParallelism();
  assert.deepEqual(parseSetOption(tokenize(`name threads value ${cores}`), NODE_UCI_DEFAULTS), {
    ok: true,
    value: { name: 'Threads', value: cores },
  });
  assert.ok(optionLines(NODE_UCI_DEFAULTS).includes(`option name Threads type spin default 1 min 1 max ${cores}`));
  assert.deepEqual(parseSetOption(tokenize('name Threads value 0'), NODE_UCI_DEFAULTS), {
    ok: false,
    error: `setoption Threads: 0 is out of range (1 to ${cores})`,
  });
  assert.deepEqual(parseSetOption(tokenize('name move overhead value 0'), NODE_UCI_DEFAULTS), {
    ok: true,
    value: { name: 'Move Overhead', value: 0 },
  });
  assert.deepEqual(parseSetOption(tokenize('name Clear Hash'), NODE_UCI_DEFAULTS), { ok: true, value: { name: 'Clear Hash' } });
  assert.deepEqual(parseSetOption(tokenize('name MultiPV value 3'), NODE_UCI_DEFAULTS), { ok: true, value: { name: 'MultiPV', value: 3 } });
  assert.deepEqual(parseSetOption(tokenize('name Backend value Matrix'), NODE_UCI_DEFAULTS), {
    ok: true,
    value: { name: 'Backend', value: 'matrix' },
  });
  assert.deepEqual(parseSetOption(tokenize('name Ponder value true'), NODE_UCI_DEFAULTS), {
    ok: true,
    value: { name: 'Ponder', value: true },
  });
  assert.deepEqual(parseSetOption(tokenize('name usennue value TRUE'), NODE_UCI_DEFAULTS), {
    ok: true,
    value: { name: 'UseNNUE', value: true },
  });
  assert.deepEqual(parseSetOption(tokenize('name EvalFile value nets/a b.bin'), NODE_UCI_DEFAULTS), {
    ok: true,
    value: { name: 'EvalFile', value: 'nets/a b.bin' },
  });
  for (const bad of [
    'name Hash value 0',
    'name Hash value 2048',
    'name Hash',
    'name MultiPV value -1',
    'name Backend value gpu',
    'name Ponder value yes',
    'name UseNNUE value 1',
    'name EvalFile',
    'name Threads value 0',
    `name Threads value ${availableParallelism() + 1}`,
    'name Threads value two',
    'Hash 16',
    'name',
  ]) {
    assert.equal(parseSetOption(tokenize(bad), NODE_UCI_DEFAULTS).ok, false, bad);
  }
  // Search parameters: listed only for tuning, checked against their ranges, defaults inside them.
  assert.ok(!optionLines(NODE_UCI_DEFAULTS).some((l) => l.startsWith('option name aspirationDelta ')));
  assert.ok(optionLines(NODE_UCI_DEFAULTS, true).includes('option name aspirationDelta type spin default 17 min 5 max 200'));
  assert.deepEqual(parseSetOption(tokenize('name SingularExtension value true'), NODE_UCI_DEFAULTS), {
    ok: true,
    value: { name: 'SearchParam', param: 'singularExtension', value: true },
  });
  assert.deepEqual(parseSetOption(tokenize('name rfpMargin value 120'), NODE_UCI_DEFAULTS), {
    ok: true,
    value: { name: 'SearchParam', param: 'rfpMargin', value: 120 },
  });
  assert.deepEqual(parseSetOption(tokenize('name rfpMargin value 401'), NODE_UCI_DEFAULTS), {
    ok: false,
    error: 'setoption rfpMargin: 401 is out of range (0 to 400)',
  });
  assert.deepEqual(parseSetOption(tokenize('name rfpMargin value 1.5'), NODE_UCI_DEFAULTS), {
    ok: false,
    error: "setoption rfpMargin: expected a whole number from 0 to 400, got '1.5'",
  });
  // Removed switches (issue 55) are neither listed nor accepted.
  for (const gone of ['probCut', 'probCutMargin', 'probCutMinDepth']) {
    assert.ok(!optionLines(NODE_UCI_DEFAULTS, true).some((l) => l.startsWith(`option name ${gone} `)), gone);
    assert.deepEqual(parseSetOption(tokenize(`name ${gone} value 1`), NODE_UCI_DEFAULTS), {
      ok: false,
      error: `setoption: unknown option '${gone}'`,
    });
  }
  // Every advertised option is accepted with its default.
  for (const line of [...optionLines(NODE_UCI_DEFAULTS), ...optionLines(NODE_UCI_DEFAULTS, true)]) {
    const m = /^option name (.+?) type (\w+)(?: default (\S+))?/.exec(line)!;
    const text = m[2] === 'button' ? `name ${m[1]}` : `name ${m[1]} value ${m[3]}`;
    assert.equal(parseSetOption(tokenize(text), NODE_UCI_DEFAULTS).ok, true, line);
  }
});

test('info lines carry every field, bounds and mate scores', () => {
  const e2e4 = makeMove(12, 28),
    e7e5 = makeMove(52, 36);
  const base = { depth: 7, seldepth: 12, multipv: 1, nodes: 12345, nps: 99999.6, timeMs: 123.4, hashfull: 17, pv: [e2e4, e7e5] };
  assert.equal(
    formatInfo({ ...base, score: { cp: 31 } }),
    'info depth 7 seldepth 12 multipv 1 score cp 31 nodes 12345 nps 100000 time 123 hashfull 17 pv e2e4 e7e5',
  );
  assert.match(formatInfo({ ...base, score: { cp: -5 }, bound: 'upper' }), / score cp -5 upperbound nodes /);
  assert.match(formatInfo({ ...base, score: { mate: -3 }, bound: 'lower' }), / score mate -3 lowerbound nodes /);
});

test("parseInfoLine reads back what formatInfo writes, and other engines' lines", () => {
  const e2e4 = makeMove(12, 28),
    e7e5 = makeMove(52, 36);
  const base = { depth: 7, seldepth: 12, multipv: 2, nodes: 12345, nps: 100000, timeMs: 123, hashfull: 17, pv: [e2e4, e7e5] };
  assert.deepEqual(parseInfoLine(formatInfo({ ...base, score: { mate: -3 }, bound: 'lower' })), {
    depth: 7,
    seldepth: 12,
    multipv: 2,
    score: { mate: -3 },
    bound: 'lower',
    nodes: 12345,
    nps: 100000,
    time: 123,
    hashfull: 17,
    pv: ['e2e4', 'e7e5'],
  });
  // Stockfish's order (pv last, wdl and tbhits in between), currmove lines, strings, and junk skipped.
  assert.deepEqual(
    parseInfoLine('info depth 20 seldepth 28 multipv 1 score cp -18 wdl 30 930 40 nodes 9 nps 3 hashfull 1 tbhits 0 time 5 pv d7d5 c2c4'),
    { depth: 20, seldepth: 28, multipv: 1, score: { cp: -18 }, nodes: 9, nps: 3, hashfull: 1, tbhits: 0, time: 5, pv: ['d7d5', 'c2c4'] },
  );
  assert.deepEqual(parseInfoLine('info depth 3 currmove e2e4 currmovenumber 1'), { depth: 3, currmove: 'e2e4', currmovenumber: 1 });
  assert.deepEqual(parseInfoLine('info string NNUE evaluation using nn.bin  enabled'), { string: 'NNUE evaluation using nn.bin  enabled' });
  assert.deepEqual(parseInfoLine('info depth x score cp nodes 5'), { nodes: 5 });
  assert.equal(parseInfoLine('bestmove e2e4'), null);
  assert.deepEqual(parseBestMove('bestmove e2e4 ponder e7e5'), { best: 'e2e4', ponder: 'e7e5' });
  assert.deepEqual(parseBestMove('bestmove 0000'), { best: null, ponder: null });
  assert.equal(parseBestMove('info depth 1'), null);
});
