/** Levels by Elo (src/engine/strength.ts): the mapping, the move choice, the engine and the UCI options. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { legalMoveList } from '../src/core/notation.js';
import { Sfc32 } from '../src/core/rng.js';
import { Engine } from '../src/engine/index.js';
import {
  STRENGTH_ANCHORS,
  STRENGTH_ELO_MAX,
  STRENGTH_ELO_MIN,
  StrengthError,
  chooseLine,
  isLimited,
  levelLimits,
  STRENGTH_CLOCK_SHARE,
  strengthLevel,
  type StrengthLevel,
} from '../src/engine/strength.js';
import { MATE } from '../src/engine/score.js';
import { optionLines, parseSetOption, tokenize } from '../src/uci/protocol.js';
import { NODE_UCI_DEFAULTS } from '../src/uci/loop-node.js';

const MIDDLEGAME = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8';

test('the mapping is monotone: a lower Elo searches fewer nodes, fewer plies, and chooses more loosely', () => {
  let prev: StrengthLevel | undefined;
  for (let elo = STRENGTH_ELO_MIN; elo <= STRENGTH_ELO_MAX; elo += 25) {
    const l = strengthLevel(elo);
    assert.equal(l.elo, elo);
    assert.ok(l.nodes >= 1 && l.multiPv >= 1 && l.temperatureCp >= 0 && l.maxLossCp >= 0 && l.maxDepth >= 1, `level ${elo}`);
    if (prev) {
      assert.ok(l.nodes >= prev.nodes, `nodes at ${elo}: ${l.nodes} < ${prev.nodes}`);
      assert.ok(l.maxDepth >= prev.maxDepth, `depth at ${elo}`);
      assert.ok(l.temperatureCp <= prev.temperatureCp, `temperature at ${elo}`);
      assert.ok(l.maxLossCp <= prev.maxLossCp, `loss cap at ${elo}`);
      assert.ok(l.multiPv <= prev.multiPv, `MultiPV at ${elo}`);
    }
    prev = l;
  }
  // The anchors are the table itself, and only the top is full strength.
  for (const a of STRENGTH_ANCHORS) assert.deepEqual(strengthLevel(a.elo), a);
  assert.equal(isLimited(strengthLevel(STRENGTH_ELO_MAX)), false);
  assert.equal(isLimited(strengthLevel(STRENGTH_ELO_MAX - 1)), true);
  assert.ok(Number.isFinite(strengthLevel(STRENGTH_ELO_MAX - 1).nodes));
  assert.ok(strengthLevel(STRENGTH_ELO_MIN).nodes < strengthLevel(2000).nodes / 10);
});

test('an Elo out of range or not whole is a StrengthError naming the field and the range', () => {
  for (const bad of [STRENGTH_ELO_MIN - 1, STRENGTH_ELO_MAX + 1, 1500.5, Number.NaN]) {
    assert.throws(
      () => strengthLevel(bad),
      (e: unknown) => e instanceof StrengthError && /elo: expected a whole number from 800 to 2400/.test(e.message),
    );
    assert.throws(() => new Engine({ limitStrength: true, elo: bad }), /engine option elo: expected a whole number from 800 to 2400/);
  }
  const e = new Engine();
  assert.throws(() => e.setStrength(true, 5000), StrengthError);
  assert.equal(e.strength, null, 'a refused level leaves full strength');
});

test('chooseLine: temperature 0 takes the best; the loss cap is never crossed; the softmax favours better lines', () => {
  const lines = [
    { move: 1, score: 50 },
    { move: 2, score: 30 },
    { move: 3, score: -10 },
    { move: 4, score: -400 },
  ];
  const base = strengthLevel(1400);
  const rng = new Sfc32(7);
  assert.equal(chooseLine(lines, { ...base, temperatureCp: 0 }, rng), 0);
  assert.equal(chooseLine([], base, rng), -1);
  const counts = [0, 0, 0, 0];
  const level = { ...base, temperatureCp: 40, maxLossCp: 100 };
  for (let i = 0; i < 4000; i++) counts[chooseLine(lines, level, rng)]++;
  assert.equal(counts[3], 0, 'a line 450 cp worse is beyond the 100 cp cap');
  assert.ok(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > 0, `counts ${counts.join(',')}`);
  // exp(-20/40) ≈ 0.61 as often as the best.
  const ratio = counts[1] / counts[0];
  assert.ok(ratio > 0.5 && ratio < 0.72, `ratio ${ratio}`);
  // A mate is chosen over lines that are merely better by material.
  const mate = [
    { move: 9, score: MATE - 3 },
    { move: 8, score: 900 },
  ];
  for (let i = 0; i < 50; i++) assert.equal(chooseLine(mate, strengthLevel(STRENGTH_ELO_MIN), rng), 0);
});

test("levelLimits: the level caps nodes and depth and sees part of the clock; full strength sees the caller's limits", () => {
  const l1400 = strengthLevel(1400);
  const limits = { wtime: 10_000, btime: 7_001, winc: 100, binc: 100, nodes: 500 };
  const capped = levelLimits(limits, l1400);
  assert.equal(capped.nodes, Math.min(500, l1400.nodes), 'the smaller node limit wins');
  assert.equal(capped.depth, l1400.maxDepth);
  assert.equal(capped.wtime, Math.floor(10_000 * STRENGTH_CLOCK_SHARE));
  assert.equal(capped.btime, Math.floor(7_001 * STRENGTH_CLOCK_SHARE));
  assert.ok(STRENGTH_CLOCK_SHARE > 0 && STRENGTH_CLOCK_SHARE < 1);
  assert.equal(capped.winc, 100, 'the increment is the increment');
  assert.deepEqual(limits, { wtime: 10_000, btime: 7_001, winc: 100, binc: 100, nodes: 500 }, "the caller's limits are not changed");
  const l2200 = strengthLevel(2200);
  assert.deepEqual(
    levelLimits({ movetime: 300 }, l2200),
    { movetime: 300, nodes: l2200.nodes },
    'movetime unchanged, no depth cap at 2200',
  );
  assert.deepEqual(levelLimits({ wtime: 10_000, btime: 10_000 }, strengthLevel(STRENGTH_ELO_MAX)), { wtime: 10_000, btime: 10_000 });
});

test('a limited search plays a legal move among its MultiPV lines, the same for the same seed, within its node budget', () => {
  const play = (seed: number): number[] => {
    const engine = new Engine({ limitStrength: true, elo: 1200, strengthSeed: seed });
    const level = engine.strength!;
    assert.ok(level !== null && level.elo === 1200);
    const pos = Position.fromFen(MIDDLEGAME);
    const chosen: number[] = [];
    let multiLine = 0;
    for (let ply = 0; ply < 12; ply++) {
      // Weak play can end the game (a seed of 12 at 1200 is mated at ply 11).
      if (legalMoveList(pos).length === 0) break;
      const r = engine.search(pos, { wtime: 60_000, btime: 60_000 });
      assert.ok(legalMoveList(pos).includes(r.bestMove), `legal at ply ${ply}`);
      // A budget spent inside the first iteration leaves fewer lines with a score (at least one).
      assert.ok(r.lines !== undefined && r.lines.length >= 1 && r.lines.length <= level.multiPv, 'MultiPV lines');
      if (r.lines.length >= 2) multiLine++;
      assert.ok(
        r.lines.some((l) => l.move === r.bestMove),
        'the move is one of the lines',
      );
      assert.equal(r.pv[0], r.bestMove, 'the principal variation starts with the move played');
      assert.ok(r.nodes <= level.nodes, `nodes ${r.nodes} within ${level.nodes}`);
      assert.ok(r.depth <= level.maxDepth);
      chosen.push(r.bestMove);
      pos.makeMove(r.bestMove);
    }
    assert.ok(multiLine >= chosen.length / 2, `several lines on most moves (${multiLine} of ${chosen.length})`);
    return chosen;
  };
  const a = play(11);
  assert.deepEqual(play(11), a, 'same seed, same moves');
  // Over 12 moves at 1200 some other seed takes another path (the choice is random, not fixed).
  assert.ok(
    [12, 13, 14, 15].some((s) => play(s).join() !== a.join()),
    'seeds change the choice',
  );
});

test('full strength is unchanged: off, or on at the top level, searches exactly as a plain engine', () => {
  const pos = Position.fromFen(MIDDLEGAME);
  const plain = new Engine().search(pos, { depth: 7 });
  for (const options of [{ limitStrength: false, elo: 1000 }, { limitStrength: true, elo: STRENGTH_ELO_MAX }, {}]) {
    const engine = new Engine(options);
    assert.equal(engine.strength, null);
    const r = engine.search(Position.fromFen(MIDDLEGAME), { depth: 7 });
    assert.equal(r.nodes, plain.nodes, JSON.stringify(options));
    assert.equal(r.bestMove, plain.bestMove);
    assert.equal(r.lines, undefined);
  }
  // Turning the limit off again restores full strength.
  const engine = new Engine({ limitStrength: true, elo: 1500 });
  assert.ok(engine.strength !== null);
  engine.setStrength(false);
  assert.equal(engine.strength, null);
  assert.equal(engine.search(Position.fromFen(MIDDLEGAME), { depth: 7 }).nodes, plain.nodes);
});

test('UCI: UCI_LimitStrength and UCI_Elo are announced and validated', () => {
  const lines = optionLines(NODE_UCI_DEFAULTS);
  assert.ok(lines.includes('option name UCI_LimitStrength type check default false'));
  assert.ok(lines.includes(`option name UCI_Elo type spin default ${STRENGTH_ELO_MAX} min ${STRENGTH_ELO_MIN} max ${STRENGTH_ELO_MAX}`));
  const parse = (text: string) => parseSetOption(tokenize(text), NODE_UCI_DEFAULTS);
  assert.deepEqual(parse('name UCI_LimitStrength value true'), { ok: true, value: { name: 'UCI_LimitStrength', value: true } });
  assert.deepEqual(parse('name uci_limitstrength value FALSE'), { ok: true, value: { name: 'UCI_LimitStrength', value: false } });
  assert.deepEqual(parse('name UCI_Elo value 1500'), { ok: true, value: { name: 'UCI_Elo', value: 1500 } });
  const bad: Array<[string, RegExp]> = [
    ['name UCI_LimitStrength value yes', /setoption UCI_LimitStrength: expected true or false, got 'yes'/],
    ['name UCI_Elo value 700', /setoption UCI_Elo: 700 is out of range \(800 to 2400\)/],
    ['name UCI_Elo value strong', /setoption UCI_Elo: expected a whole number from 800 to 2400, got 'strong'/],
    ['name UCI_Elo', /setoption UCI_Elo: expected a whole number/],
  ];
  for (const [text, pattern] of bad) {
    const r = parse(text);
    assert.equal(r.ok, false, text);
    if (!r.ok) assert.match(r.error, pattern);
  }
});
