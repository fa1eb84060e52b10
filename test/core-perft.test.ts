/**
 * Perft against the published counts of test/data/perft-standard.epd: every position, at every
 * depth whose expected count is small enough to keep CI fast. scripts/perft-suite.ts runs the
 * same file to depth 6.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Position } from '../src/core/position.js';
import { perft, perftDivide } from '../src/core/perft.js';
import { MoveGenerator } from '../src/core/movegen.js';
import { rayWalkAttacks } from '../src/core/slider-attacks.js';

/** Largest expected leaf count run per (position, depth): ~30 M nodes in all, a few seconds. */
const MAX_NODES = 1_000_000;

interface PerftCase { line: number; fen: string; counts: Map<number, number>; }

/** The committed copy first; then the shared folder beside a clone (CI) or on this machine. */
function findEpd(): string {
  const candidates = [
    new URL('../../test/data/perft-standard.epd', import.meta.url), // from dist/test/
    new URL('./data/perft-standard.epd', import.meta.url), // when run from source
    new URL('../../../shared/data/perft-standard.epd', import.meta.url),
  ].map((u) => fileURLToPath(u));
  candidates.push('/work/shared/data/perft-standard.epd');
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`perft-standard.epd not found; looked in: ${candidates.join(', ')}`);
  return found;
}

function readEpd(path: string): PerftCase[] {
  const cases: PerftCase[] = [];
  readFileSync(path, 'utf8').split(/\r?\n/).forEach((text, i) => {
    if (text.trim() === '' || text.startsWith('#')) return;
    const [fen, ...rest] = text.split(';');
    const counts = new Map<number, number>();
    for (const field of rest) {
      const m = /^\s*D(\d+)\s+(\d+)\s*$/.exec(field);
      if (!m) throw new Error(`${path}:${i + 1}: bad depth field '${field}'`);
      counts.set(Number(m[1]), Number(m[2]));
    }
    cases.push({ line: i + 1, fen: fen.trim(), counts });
  });
  return cases;
}

const cases = readEpd(findEpd());

test('the perft suite file is complete', () => {
  assert.ok(cases.length >= 127, `expected at least 127 positions, found ${cases.length}`);
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
  assert.ok(ran >= 400, `only ${ran} (position, depth) pairs ran`);
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
  for (const c of cases.filter((_, i) => i % 8 === 0)) {
    const pos = Position.fromFen(c.fen);
    const depth = [3, 2, 1].find((d) => (c.counts.get(d) ?? Infinity) <= 20_000);
    if (depth === undefined) continue;
    assert.equal(perft(pos, depth, gen), c.counts.get(depth), `${c.fen} depth ${depth}`);
  }
});
