import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { defaultGenerator } from '../src/core/movegen.js';
import { moveToUci } from '../src/core/move.js';
import { Engine, runBench, TranspositionTable, MATE, computeTimeBudget } from '../src/engine/index.js';
import { scoreFromTt, scoreToTt } from '../src/engine/score.js';
import { BOUND_EXACT, BOUND_LOWER } from '../src/engine/tt.js';
import { loadNnue } from '../src/engine/nnue/load-node.js';
import { abPlayer } from '../src/tune/selfplay/ab.js';

const buf = new Int32Array(256);
function legalMoves(pos: Position): number[] {
  const n = defaultGenerator.generate(pos, buf, 0);
  return Array.from(buf.subarray(0, n));
}
function play(pos: Position, ucis: string[]): void {
  for (const u of ucis) {
    const m = legalMoves(pos).find((x) => moveToUci(x) === u);
    if (m === undefined) throw new Error(`illegal ${u} in ${pos.toFen()}`);
    pos.makeMove(m);
  }
}

test('finds mate in 1', () => {
  const pos = Position.fromFen('r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4');
  const r = new Engine().search(pos, { depth: 3 });
  assert.equal(moveToUci(r.bestMove), 'h5f7');
  assert.deepEqual(r.score, { mate: 1 });
});

test('finds mate in 2 and keeps the distance through the hash table', () => {
  const engine = new Engine();
  const pos = Position.fromFen('k7/8/2K5/8/8/8/8/7R w - - 0 1');
  const r1 = engine.search(pos, { depth: 6 });
  assert.deepEqual(r1.score, { mate: 2 });
  // A second search reuses mate scores stored at other plies: the distance must still be 2.
  const r2 = engine.search(pos, { depth: 7 });
  assert.deepEqual(r2.score, { mate: 2 });
  // And from the defender's side, after the first move.
  play(pos, [moveToUci(r2.bestMove)]);
  const r3 = engine.search(pos, { depth: 6 });
  assert.deepEqual(r3.score, { mate: -1 });
});

test('TT mate scores are stored relative to the node', () => {
  assert.equal(scoreFromTt(scoreToTt(MATE - 7, 3), 5), MATE - 9);
  assert.equal(scoreFromTt(scoreToTt(-MATE + 8, 4), 2), -MATE + 6);
  assert.equal(scoreFromTt(scoreToTt(123, 4), 9), 123);
  const tt = new TranspositionTable(1);
  tt.store(0x1234, 0x5678, 0x105, scoreToTt(MATE - 10, 6), -40, 7, BOUND_EXACT);
  assert.equal(tt.probe(0x1234, 0x5678), true);
  assert.equal(tt.move(), 0x105);
  assert.equal(tt.depth(), 7);
  assert.equal(tt.bound(), BOUND_EXACT);
  assert.equal(tt.staticEval(), -40);
  assert.equal(scoreFromTt(tt.score(), 6), MATE - 10);
  assert.equal(tt.probe(0x1234, 0x5679), false);
});

test('a shared TT entry torn by concurrent writers is rejected, and the probe keeps the verified words', () => {
  const tt = new TranspositionTable(1, true);
  assert.ok(tt.buffer instanceof SharedArrayBuffer);
  // Another thread's view of the same storage.
  const other = TranspositionTable.attach(tt.buffer as SharedArrayBuffer);
  tt.store(0x40, 0x5678, 0x105, 33, -40, 7, BOUND_EXACT);
  assert.equal(other.probe(0x40, 0x5678), true, 'the other thread sees the entry');
  assert.equal(other.move(), 0x105);
  const words = new Int32Array(tt.buffer);
  const entry = 0x40 * 8; // bucket 0x40, first entry: [check, move, score|eval, depth|bound|age]
  assert.equal(words[entry] ^ words[entry + 1] ^ words[entry + 2] ^ words[entry + 3], 0x5678);
  // A torn write: the move word of a second writer landed, its other words did not.
  words[entry + 1] = 0x777;
  assert.equal(tt.probe(0x40, 0x5678), false, 'a mismatched move word fails verification');
  words[entry + 1] = 0x105;
  words[entry + 3] ^= 1 << 8; // the bound of another writer
  assert.equal(tt.probe(0x40, 0x5678), false, 'a mismatched depth/bound word fails verification');
  words[entry + 3] ^= 1 << 8;
  assert.equal(tt.probe(0x40, 0x5678), true, 'the intact entry verifies again');
  // The fields of a verified hit are a snapshot: an overwrite after the probe does not change them.
  other.store(0x40, 0x5678, 0x222, 99, 5, 9, BOUND_LOWER);
  assert.equal(tt.move(), 0x105);
  assert.equal(tt.depth(), 7);
  assert.equal(tt.probe(0x40, 0x5678), true);
  assert.equal(tt.move(), 0x222);
  assert.equal(tt.depth(), 9);
  // A buffer that is not a whole power of two of buckets is refused by name.
  assert.throws(() => TranspositionTable.attach(new SharedArrayBuffer(96)), /power-of-two number of 32-byte buckets, got 96 bytes/);
});

test('hashfull is the permille of the first 1000 entries written in this search', () => {
  const tt = new TranspositionTable(1);
  assert.equal(tt.hashfull(), 0);
  tt.store(0x1234, 0x5678, 0x105, 10, 0, 3, BOUND_EXACT); // bucket 0x1234: outside the sample
  assert.equal(tt.hashfull(), 0);
  for (let lo = 0; lo < 250; lo++) tt.store(lo, 7, 0x105, 10, 0, 3, BOUND_EXACT); // one entry in each of buckets 0..249
  assert.equal(tt.hashfull(), 250);
  for (let lo = 0; lo < 250; lo++) tt.store(lo, 8, 0x105, 10, 0, 3, BOUND_EXACT); // the second slot of each
  assert.equal(tt.hashfull(), 500);
  tt.newSearch(); // entries of an older search do not count
  assert.equal(tt.hashfull(), 0);
  tt.store(0, 9, 0x105, 10, 0, 3, BOUND_EXACT);
  assert.equal(tt.hashfull(), 1);
});

test('no legal moves: checkmate and stalemate', () => {
  const engine = new Engine();
  const stalemate = engine.search(Position.fromFen('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'), { depth: 5 });
  assert.equal(stalemate.bestMove, 0);
  assert.deepEqual(stalemate.score, { cp: 0 });
  const mated = engine.search(Position.fromFen('R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1'), { depth: 5 });
  assert.equal(mated.bestMove, 0);
  assert.deepEqual(mated.score, { mate: 0 });
});

test('avoids stalemating when winning', () => {
  // Qf7 would stalemate; the engine must mate instead.
  const pos = Position.fromFen('7k/8/6K1/8/8/8/8/5Q2 w - - 0 1');
  const r = new Engine().search(pos, { depth: 6 });
  assert.ok('mate' in r.score && r.score.mate > 0, JSON.stringify(r.score));
});

test('wins material with a knight fork', () => {
  const pos = Position.fromFen('4k3/1q5p/8/8/2N5/8/P7/4K3 w - - 0 1');
  const r = new Engine().search(pos, { depth: 6 });
  assert.equal(moveToUci(r.bestMove), 'c4d6');
  assert.ok('cp' in r.score && r.score.cp > 200, JSON.stringify(r.score));
});

test('recognizes a threefold repetition in the game history', () => {
  // Black is lost, but Nf6-g8 repeats the starting position a third time.
  const pos = Position.fromFen('4k1n1/8/8/8/8/8/8/R2QK2R w - - 0 1');
  play(pos, ['d1d2', 'g8f6', 'd2d1', 'f6g8', 'd1d2', 'g8f6', 'd2d1']);
  const r = new Engine().search(pos, { depth: 5 });
  assert.equal(moveToUci(r.bestMove), 'f6g8');
  assert.deepEqual(r.score, { cp: 0 });
});

test('depth and node limits are respected', () => {
  const engine = new Engine();
  const pos = Position.startpos();
  const r = engine.search(pos, { depth: 4 });
  assert.equal(r.depth, 4);
  for (const nodes of [1, 50, 1000, 5000]) {
    engine.newGame();
    const rn = engine.search(pos, { nodes });
    assert.ok(rn.nodes <= nodes, `${rn.nodes} > ${nodes}`);
    assert.ok(legalMoves(pos).includes(rn.bestMove));
  }
});

test('stop via control block and via stop() still yields a legal move', () => {
  const engine = new Engine();
  const pos = Position.fromFen('r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10');
  const control = new Int32Array(new SharedArrayBuffer(8));
  control[0] = 1;
  const r = engine.search(pos, { infinite: true }, { control });
  assert.ok(legalMoves(pos).includes(r.bestMove));
  let infos = 0;
  const r2 = engine.search(
    pos,
    { depth: 60 },
    {
      onInfo: (i) => {
        infos++;
        if (i.depth >= 3) engine.stop();
      },
    },
  );
  assert.ok(infos >= 3);
  assert.ok(r2.depth >= 3 && r2.depth < 10);
  assert.ok(legalMoves(pos).includes(r2.bestMove));
});

test('a search stopped inside an iteration plays the first move of the last line it reported', () => {
  // Node limits stop searches at many points inside iterations, deterministically; at some of
  // them a later root move has overtaken the one last reported (which ones depends on the
  // network and the search, so four openings over a wide range of limits, after a search of 1.e4
  // as a GUI would send). Such a stop must report the new move's line.
  const nnue = loadNnue();
  let partial = 0;
  for (const fen of [
    'rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2',
    'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3',
    'rnbqkbnr/pppp1ppp/4p3/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2',
    'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4',
  ])
    for (let nodes = 1000; nodes <= 12000; nodes += 131) {
      const engine = new Engine({ nnue });
      engine.search(Position.fromFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'), { depth: 5 });
      let first = 0,
        depth = 0;
      const r = engine.search(
        Position.fromFen(fen),
        { nodes },
        {
          onInfo: (i) => {
            if (i.multipv === 1) {
              first = i.pv[0];
              depth = i.depth;
            }
          },
        },
      );
      assert.equal(moveToUci(r.bestMove), moveToUci(first), `${fen} at ${nodes} nodes: the move played is not the last line's first`);
      if (depth > r.depth) partial++;
    }
  assert.ok(partial > 0, 'no stop fell where a root move had overtaken the reported one: the test no longer tests it');
});

test('best move is legal and the position is restored on random positions', () => {
  let seed = 12345;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const engine = new Engine({ hashMb: 4 });
  for (let game = 0; game < 30; game++) {
    const pos = Position.startpos();
    const plies = 4 + rand(60);
    for (let i = 0; i < plies; i++) {
      const ms = legalMoves(pos);
      if (ms.length === 0) break;
      pos.makeMove(ms[rand(ms.length)]);
    }
    const legal = legalMoves(pos);
    const fen = pos.toFen(),
      lo = pos.hashLo,
      hi = pos.hashHi,
      ply = pos.ply;
    const r = engine.search(pos, game % 2 ? { depth: 3 } : { nodes: 3000 });
    assert.equal(pos.toFen(), fen);
    assert.equal(pos.hashLo, lo);
    assert.equal(pos.hashHi, hi);
    assert.equal(pos.ply, ply);
    if (legal.length === 0) assert.equal(r.bestMove, 0);
    else {
      assert.ok(legal.includes(r.bestMove), `${moveToUci(r.bestMove)} in ${fen}`);
      if (r.ponderMove !== 0) {
        pos.makeMove(r.bestMove);
        assert.ok(legalMoves(pos).includes(r.ponderMove));
        pos.unmakeMove();
      }
    }
  }
});

test('MultiPV reports distinct lines', () => {
  const engine = new Engine({ multiPv: 3 });
  const seen = new Map<number, number>();
  engine.search(
    Position.startpos(),
    { depth: 4 },
    {
      onInfo: (i) => {
        if (i.depth === 4) seen.set(i.multipv, i.pv[0]);
      },
    },
  );
  assert.equal(seen.size, 3);
  assert.equal(new Set(seen.values()).size, 3);
});

test('timed search returns in time with a legal move', () => {
  const engine = new Engine({ moveOverheadMs: 10 });
  const pos = Position.startpos();
  const r = engine.search(pos, { wtime: 200, btime: 200 });
  assert.ok(legalMoves(pos).includes(r.bestMove));
  const r2 = engine.search(pos, { movetime: 50 });
  assert.ok(legalMoves(pos).includes(r2.bestMove));
});

test('time budget: the clock is shared over the horizon unless movestogo says otherwise; the hard limit stays safe', () => {
  const sd = { wtime: 10_000, btime: 4_000, winc: 100, binc: 100 };
  // Sudden death with increment: remaining / horizon + three quarters of the increment.
  assert.deepEqual(computeTimeBudget(sd, 0, 0, 20), { timed: true, softMs: 575, hardMs: 2875 });
  assert.deepEqual(computeTimeBudget(sd, 0, 0, 10), { timed: true, softMs: 1075, hardMs: 5375 });
  // Black's clock, and the move overhead taken off first.
  assert.deepEqual(computeTimeBudget(sd, 1, 50, 10), { timed: true, softMs: 470, hardMs: 2350 });
  // movestogo overrides the horizon; the last move before the control keeps a margin.
  assert.deepEqual(computeTimeBudget({ ...sd, movestogo: 40 }, 0, 0, 5), { timed: true, softMs: 325, hardMs: 1625 });
  assert.deepEqual(computeTimeBudget({ ...sd, movestogo: 1 }, 0, 0, 5), { timed: true, softMs: 5000, hardMs: 8500 });
  // However small the horizon, the hard limit never passes 60% of what is left.
  assert.deepEqual(computeTimeBudget(sd, 0, 0, 2), { timed: true, softMs: 5075, hardMs: 6000 });
  assert.deepEqual(computeTimeBudget({ depth: 5 }, 0, 0, 20), { timed: false, softMs: Infinity, hardMs: Infinity });
});

test('go movetime searches the whole time less the move overhead, however stable the best move', () => {
  // A quiet position whose best move settles early: the clock heuristics used to answer a
  // movetime search after as little as 42% of it.
  const pos = Position.fromFen('r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3');
  const engine = new Engine({ moveOverheadMs: 30 });
  const t0 = Date.now();
  const r = engine.search(pos, { movetime: 400 });
  const took = Date.now() - t0;
  assert.ok(legalMoves(pos).includes(r.bestMove));
  assert.ok(took >= 370 - 5, `movetime 400 (overhead 30) answered after ${took} ms`);
  assert.ok(took < 400 + 250, `movetime 400 overran: ${took} ms`);
  // A bare-king ending, where the best line settles at once, still uses the time.
  const one = new Engine({ moveOverheadMs: 30 }).search(Position.fromFen('8/8/8/8/8/5k2/8/4K2R w - - 0 1'), { movetime: 200 });
  assert.ok(one.timeMs >= 165, `a single good line still uses movetime: ${one.timeMs} ms`);
});

test('bench node count is deterministic', () => {
  const a = runBench({ depth: 5 }),
    b = runBench({ depth: 5 });
  assert.equal(a.nodes, b.nodes);
  assert.ok(a.positions >= 12);
});

test('ponder: after ponderhit the search runs on the clock and returns', () => {
  const engine = new Engine();
  const control = new Int32Array(new SharedArrayBuffer(8));
  control[1] = 1; // ponderhit already happened
  const pos = Position.startpos();
  const r = engine.search(pos, { ponder: true, wtime: 300, btime: 300 }, { control });
  assert.ok(legalMoves(pos).includes(r.bestMove));
});

test('the engine searches with the move generator it is given', () => {
  let calls = 0;
  const source = {
    generate(p: Position, out: Int32Array, start: number) {
      calls++;
      return defaultGenerator.generate(p, out, start);
    },
    generateNoisy(p: Position, out: Int32Array, start: number) {
      calls++;
      return defaultGenerator.generateNoisy(p, out, start);
    },
  };
  const engine = new Engine({ moveGenerator: { name: 'counting', ...source } });
  const pos = Position.startpos();
  const r = engine.search(pos, { depth: 3 });
  assert.ok(calls > 10);
  assert.ok(legalMoves(pos).includes(r.bestMove));
});

test('the search switches (singular extensions, correction/continuation/capture history): tactics found, positions restored, searches deterministic, each changes the tree', () => {
  const make = (): Engine => new Engine({ hashMb: 4 });
  const without = (name: 'singularExtension' | 'correctionHistory' | 'continuationHistory' | 'captureHistory'): Engine => {
    const e = make();
    e.params[name] = false;
    e.paramsChanged();
    return e;
  };
  const fork = make().search(Position.fromFen('4k3/1q5p/8/8/2N5/8/P7/4K3 w - - 0 1'), { depth: 10 });
  assert.equal(moveToUci(fork.bestMove), 'c4d6');
  const mate = make().search(Position.fromFen('k7/8/2K5/8/8/8/8/7R w - - 0 1'), { depth: 10 });
  assert.deepEqual(mate.score, { mate: 2 });
  // Deep enough (depth 9) that the singular verification search runs at inner nodes.
  for (const fen of [
    'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
    'r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9',
    '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  ]) {
    const pos = Position.fromFen(fen);
    const a = make().search(pos, { depth: 9 });
    assert.equal(pos.toFen(), fen);
    assert.ok(legalMoves(pos).includes(a.bestMove), fen);
    const b = make().search(pos, { depth: 9 });
    assert.equal(a.nodes, b.nodes);
    assert.equal(a.bestMove, b.bestMove);
    // Each switch changes the tree (it ran), whatever move it chooses.
    for (const name of ['singularExtension', 'correctionHistory', 'continuationHistory', 'captureHistory'] as const)
      assert.notEqual(without(name).search(pos, { depth: 9 }).nodes, a.nodes, `${name}: ${fen}`);
  }
});

test('the history-driven switches, on by default (capture reductions, history pruning, four-ply continuation history): each off and all three off find the tactics, restore the position, search deterministically and change the tree', () => {
  type HistorySwitch = 'captureReductions' | 'historyPruning' | 'contHistory4';
  const withParams = (p: Partial<Pick<Engine['params'], HistorySwitch>>): Engine => {
    const e = new Engine({ hashMb: 4 });
    Object.assign(e.params, p);
    e.paramsChanged();
    return e;
  };
  const defaults = new Engine().params;
  for (const name of ['captureReductions', 'historyPruning', 'contHistory4'] as const) assert.equal(defaults[name], true, name);
  for (const removed of ['lmrBadCaptures', 'qsCorrection', 'nonPawnCorrection', 'checkExtension', 'deeperShallower', 'deeperMargin'])
    assert.equal(removed in defaults, false, `${removed} was removed`);
  const allOff = { captureReductions: false, historyPruning: false, contHistory4: false } as const;
  // The A/B variants: one per switch turned off, and 'no-history-search' with all three off.
  const variants = {
    'no-capture-reductions': 'captureReductions',
    'no-history-pruning': 'historyPruning',
    'no-cont-history-4': 'contHistory4',
  } as const;
  for (const [variant, name] of Object.entries(variants)) {
    const p = abPlayer({ variant }).engine.params;
    for (const other of Object.keys(allOff) as (keyof typeof allOff)[]) assert.equal(p[other], other !== name, `${variant}: ${other}`);
  }
  const bundle = abPlayer({ variant: 'no-history-search' }).engine.params;
  for (const name of Object.keys(allOff) as (keyof typeof allOff)[]) assert.equal(bundle[name], false, `no-history-search: ${name}`);
  const switches: Partial<Pick<Engine['params'], HistorySwitch>>[] = [
    {},
    { captureReductions: false },
    { historyPruning: false },
    { contHistory4: false },
    allOff,
  ];
  for (const p of switches) {
    const fork = withParams(p).search(Position.fromFen('4k3/1q5p/8/8/2N5/8/P7/4K3 w - - 0 1'), { depth: 10 });
    assert.equal(moveToUci(fork.bestMove), 'c4d6', JSON.stringify(p));
    const mate = withParams(p).search(Position.fromFen('k7/8/2K5/8/8/8/8/7R w - - 0 1'), { depth: 10 });
    assert.deepEqual(mate.score, { mate: 2 }, JSON.stringify(p));
  }
  // Each switch changes the tree (it ran) in at least one of the positions: history pruning needs histories well below zero, which a
  // fresh search of the first two positions does not build.
  const changedTree = switches.map(() => false);
  for (const fen of [
    'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
    'r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9',
    '2kr3r/pppq1ppp/2n1bn2/2b1p3/4P3/2NP1N2/PPPBBPPP/R2QK2R w KQ - 4 9',
  ]) {
    const pos = Position.fromFen(fen);
    const base = withParams({}).search(pos, { depth: 9 });
    switches.forEach((p, i) => {
      const a = i === 0 ? base : withParams(p).search(pos, { depth: 9 }); // switches[0] is the defaults: base itself
      assert.equal(pos.toFen(), fen);
      assert.ok(legalMoves(pos).includes(a.bestMove), fen);
      const b = withParams(p).search(pos, { depth: 9 });
      assert.equal(a.nodes, b.nodes);
      assert.equal(a.bestMove, b.bestMove);
      if (a.nodes !== base.nodes) changedTree[i] = true;
    });
  }
  // The defaults themselves ({}) are the baseline; every switch turned off must differ from it somewhere.
  switches.forEach((p, i) => i === 0 || assert.ok(changedTree[i], `${JSON.stringify(p)} changed neither tree`));
});

/** The centipawn score of a depth-1 search, on the network or the classical evaluation. */
function depth1(fen: string, nnue: boolean): number {
  const s = new Engine({ hashMb: 1, nnue: nnue ? loadNnue() : null }).search(Position.fromFen(fen), { depth: 1 }).score;
  assert.ok('cp' in s, fen);
  return s.cp;
}

test('the fifty-move counter short of 100 leaves the score alone, on the network and the classical evaluation', () => {
  // Queen against bare king: a won position whose score must not shrink as the counter grows.
  for (const nnue of [false, true]) {
    const early = depth1('8/8/8/3k4/8/8/8/KQ6 w - - 0 60', nnue);
    assert.ok(early > 300, `${early}`);
    assert.equal(depth1('8/8/8/3k4/8/8/8/KQ6 w - - 80 60', nnue), early);
  }
});
