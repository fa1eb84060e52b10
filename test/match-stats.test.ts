import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eloFromScore, eloPentanomial, eloTrinomial, scoreFromElo, sprt, sprtBounds, pairBucket } from '../src/match/stats.js';

test('Elo from score: 50% is 0, 75% is +190.8, symmetric, inverse of scoreFromElo', () => {
  assert.equal(eloFromScore(0.5), 0);
  assert.ok(Math.abs(eloFromScore(0.75) - 190.85) < 0.01, String(eloFromScore(0.75)));
  assert.ok(Math.abs(eloFromScore(0.25) + eloFromScore(0.75)) < 1e-9);
  for (const e of [-400, -35, 0, 12.5, 300]) assert.ok(Math.abs(eloFromScore(scoreFromElo(e)) - e) < 1e-9);
  assert.equal(eloFromScore(1), Infinity);
  assert.equal(eloFromScore(0), -Infinity);
});

test('trinomial interval: centred on the score, matches the hand-computed standard error', () => {
  // 30 wins, 40 draws, 30 losses: mean 0.5, per-game variance (30·0.25 + 30·0.25)/100 = 0.15.
  const e = eloTrinomial(30, 40, 30);
  assert.equal(e.score, 0.5);
  assert.equal(e.elo, 0);
  assert.ok(Math.abs(e.stderr - Math.sqrt(0.15 / 100)) < 1e-12);
  assert.ok(Math.abs(e.high - eloFromScore(0.5 + 1.959964 * Math.sqrt(0.0015))) < 1e-3);
  assert.ok(Math.abs(e.low + e.high) < 1e-9, 'symmetric at 50%');
  // More games with the same proportions give a narrower interval.
  const big = eloTrinomial(300, 400, 300);
  assert.ok(big.high - big.low < e.high - e.low);
  // 75 of 100: Elo +190.8, interval strictly around it and asymmetric (wider above).
  const s = eloTrinomial(60, 30, 10);
  assert.ok(Math.abs(s.elo - 190.85) < 0.01);
  assert.ok(s.low < s.elo && s.elo < s.high && s.high - s.elo > s.elo - s.low);
});

test('pentanomial: pair buckets, and an all-1:1 pair record has a narrower interval than its games suggest', () => {
  assert.equal(pairBucket(1, 0), 2);
  assert.equal(pairBucket(1, 0.5), 3);
  assert.equal(pairBucket(0, 0), 0);
  // 40 pairs split 1-1 (each a win and a loss) plus 10 pairs of two wins: mean 0.6.
  const p = eloPentanomial([0, 0, 40, 0, 10]);
  assert.ok(Math.abs(p.score - 0.6) < 1e-12);
  const t = eloTrinomial(60, 0, 40);
  assert.ok(Math.abs(t.score - 0.6) < 1e-12);
  assert.ok(p.high - p.low < t.high - t.low, 'pairing removes the colour/opening noise');
  assert.throws(() => eloPentanomial([1, 2, 3]), RangeError);
});

test('SPRT: LLR sign follows the evidence, bounds from alpha/beta, decisions at the bounds', () => {
  const cfg = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 };
  const { lower, upper } = sprtBounds(cfg);
  assert.ok(Math.abs(upper - Math.log(19)) < 1e-12 && Math.abs(lower + Math.log(19)) < 1e-12);
  const good = sprt(cfg, { wins: 60, draws: 20, losses: 20 });
  const bad = sprt(cfg, { wins: 20, draws: 20, losses: 60 });
  assert.ok(good.llr > 0, String(good.llr));
  assert.ok(bad.llr < 0, String(bad.llr));
  assert.equal(sprt(cfg, { wins: 600, draws: 200, losses: 200 }).decision, 'H1');
  assert.equal(sprt(cfg, { wins: 200, draws: 200, losses: 600 }).decision, 'H0');
  assert.equal(sprt(cfg, { wins: 3, draws: 2, losses: 3 }).decision, null);
  // Two lost games (or one lost pair) have no variance to speak of: no decision on so little.
  assert.equal(sprt(cfg, { wins: 0, draws: 0, losses: 2 }).decision, null);
  assert.equal(sprt(cfg, { wins: 0, draws: 0, losses: 3 }, [1, 0, 0, 0, 0]).decision, null);
  assert.equal(sprt(cfg, { wins: 0, draws: 0, losses: 40 }, [20, 0, 0, 0, 0]).decision, 'H0');
  // A score exactly between elo0 and elo1 is no evidence either way.
  const mid = scoreFromElo(5);
  const n = 1000,
    w = Math.round(n * mid);
  assert.ok(Math.abs(sprt(cfg, { wins: w, draws: 0, losses: n - w }).llr) < 0.5);
  // Pentanomial counts take over when given.
  assert.ok(sprt(cfg, { wins: 0, draws: 0, losses: 0 }, [0, 5, 20, 40, 35]).llr > 0);
});
