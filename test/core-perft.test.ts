/**
 * Perft against the published counts of test/data/perft-standard.epd: every position, at every
 * depth whose expected count is small enough to keep CI fast. scripts/perft-suite.ts runs the
 * same file to depth 6.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { readPerftEpd, standardSuitePath } from '../scripts/perft-files.js';
import { perft, perftDivide } from '../src/core/perft.js';
import { MoveGenerator } from '../src/core/movegen.js';
import { rayWalkAttacks } from '../src/core/slider-attacks.js';

/** Largest expected leaf count run per (position, depth): ~30 M nodes in all, a few seconds. */
const MAX_NODES = 1_000_000;

const cases = readPerftEpd(standardSuitePath());

test('the perft suite file is complete', () => {
  assert.equal(cases.length, 128, 'positions in the standard suite');
  for (const c of cases) assert.ok(c.counts.size > 0, `line ${c.line} has no depth counts`);
});

test('perft matches the published counts for every suite position (small depths)', () => {
  let ran = 0;
  for (const c of cases) {
    const pos = Position.fromFen(c.fen);
    for (const [depth, expected] of c.counts) {
      if (expected > MAX_NODES) continue;
      const got = perft(pos, depth);
      assert.equal(got, expected, `line ${c.line} ${c.fen} depth ${depth}: expected ${expected}, got ${got}`);
      assert.equal(pos.toFen(), Position.fromFen(c.fen).toFen(), `perft did not restore ${c.fen}`);
      ran++;
    }
  }
  assert.equal(ran, 677, '(position, depth) pairs with at most 1,000,000 nodes');
});

test('perftDivide sums to perft', () => {
  for (const c of cases.slice(0, 8)) {
    const pos = Position.fromFen(c.fen);
    const divided = perftDivide(pos, 3).reduce((sum, [, n]) => sum + n, 0);
    assert.equal(divided, perft(pos, 3), c.fen);
  }
});

test('the ray-walking reference sliders give the same counts as the magic bitboards', () => {
  // Guards the SliderAttacks seam that the matrix and BNN backends plug into.
  const gen = new MoveGenerator(rayWalkAttacks);
  let ran = 0;
  for (const c of cases.filter((_, i) => i % 8 === 0)) {
    const pos = Position.fromFen(c.fen);
    const depth = [3, 2, 1].find((d) => (c.counts.get(d) ?? Infinity) <= 20_000);
    if (depth === undefined) continue;
    assert.equal(perft(pos, depth, gen), c.counts.get(depth), `${c.fen} depth ${depth}`);
    ran++;
  }
  assert.equal(ran, 16, 'every eighth suite position has a depth of at most 20,000 nodes');
});
