import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sfc32 } from '../src/core/rng.js';
import { initialState, spsaDelta, spsaGains, spsaPoint, spsaUpdate, type SpsaParam } from '../src/tune/spsa/optimizer.js';
import { parseSpsaParams, spsaCommand } from '../src/tune/spsa/cli.js';
import { UsageError } from '../src/cmdline/errors.js';
import { SearchParams } from '../src/engine/search-params.js';

const param = (name: string, start: number): SpsaParam => ({ name, start, min: 0, max: 1000, cEnd: 10, rEnd: 0.01 });

test('spsa gains: the perturbation is cEnd and the step per point rEnd·cEnd at the last iteration, larger before', () => {
  const p = param('x', 100),
    n = 5000;
  const end = spsaGains(p, n - 1, n),
    start = spsaGains(p, 0, n);
  assert.ok(Math.abs(end.c - p.cEnd) < 1e-9, `c at the end ${end.c}`);
  assert.ok(Math.abs(end.a / end.c - p.rEnd * p.cEnd) < 1e-9, `step at the end ${end.a / end.c}`);
  assert.ok(start.c > 2 * end.c && start.a > end.a);
});

test('spsa point: θ ± c·Δ, integers kept in range, Δ fixed by the seed and the iteration', () => {
  const params = [param('a', 100), { ...param('b', 3), min: 0 }, param('c', 500)];
  const state = initialState(params);
  const { plus, minus } = spsaPoint(params, state, 7, 1000);
  params.forEach((p, i) => {
    const { c } = spsaGains(p, 0, 1000);
    const d = spsaDelta(7, 0, i);
    assert.equal(plus[p.name], Math.round(Math.max(p.min, p.start + d * c)));
    assert.equal(minus[p.name], Math.round(Math.max(p.min, p.start - d * c)));
  });
  assert.ok(plus.b >= 0 && minus.b >= 0, 'clamped at the minimum');
  assert.deepEqual(spsaPoint(params, state, 7, 1000), { plus, minus });
  // Over many iterations each Δ is ±1 about half the time and not the same for all parameters.
  let ones = 0,
    agree = 0;
  for (let k = 0; k < 2000; k++) {
    if (spsaDelta(7, k, 0) === 1) ones++;
    if (spsaDelta(7, k, 0) === spsaDelta(7, k, 1)) agree++;
  }
  assert.ok(ones > 900 && ones < 1100, `${ones} of 2000`);
  assert.ok(agree > 900 && agree < 1100, `${agree} of 2000`);
});

test('spsa converges on a noisy synthetic match whose best parameters are known', () => {
  // The plus side wins a game with probability 0.5 + (distance of minus − distance of plus)/400:
  // only the sign of one pair is seen, as in real games. The optimum is (300, 40).
  const target = [300, 40];
  const params = [param('x', 150), param('y', 120)];
  const n = 4000;
  const rng = new Sfc32(3);
  let state = initialState(params);
  for (let k = 0; k < n; k++) {
    const { plus, minus } = spsaPoint(params, state, 11, n);
    const dist = (v: Record<string, number>): number => Math.abs(v.x - target[0]) + Math.abs(v.y - target[1]);
    const p = Math.min(1, Math.max(0, 0.5 + (dist(minus) - dist(plus)) / 400));
    const points = (rng.nextFloat() < p ? 1 : 0) + (rng.nextFloat() < p ? 1 : 0);
    state = spsaUpdate(params, state, 11, n, points);
  }
  assert.equal(state.k, n);
  assert.ok(Math.abs(state.theta[0] - target[0]) < 60, `x ${state.theta[0]} from 150 towards 300`);
  assert.ok(Math.abs(state.theta[1] - target[1]) < 60, `y ${state.theta[1]} from 120 towards 40`);
});

test('spsa params: defaults from the search, cEnd and rEnd per parameter, bad names are usage errors', () => {
  const [rfp, fut] = parseSpsaParams('rfpMargin,futilityBase:5:0.004', 0.01);
  const defaults = new SearchParams();
  assert.deepEqual(rfp, { name: 'rfpMargin', start: defaults.rfpMargin, min: 0, max: 400, cEnd: defaults.rfpMargin / 10, rEnd: 0.01 });
  assert.deepEqual(fut, { name: 'futilityBase', start: defaults.futilityBase, min: 0, max: 500, cEnd: 5, rEnd: 0.004 });
  assert.ok(parseSpsaParams(undefined, 0.01).length >= 10);
  assert.throws(() => parseSpsaParams('rfpMargn', 0.01), /--params: 'rfpMargn' is not a numeric search parameter/);
  assert.throws(() => parseSpsaParams('rfpMargin,rfpMargin', 0.01), /named twice/);
  assert.throws(() => parseSpsaParams('singularExtension', 0.01), UsageError);
  assert.throws(() => parseSpsaParams('rfpMargin:0', 0.01), /cEnd: '0' is not a number/);
});

test('tune spsa: a resumed run ends where an uninterrupted one does, whatever the threads; another run is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spsa-'));
  try {
    const common = ['--params', 'rfpMargin,futilityBase', '--iterations', '4', '--batch', '2', '--nodes', '200', '--seed', '5'];
    const quiet = (): void => {};
    const whole = join(dir, 'whole.json'),
      split = join(dir, 'split.json');
    await spsaCommand([...common, '--state', whole, '--workers', '2'], quiet);
    await spsaCommand([...common, '--state', split, '--workers', '1', '--stop-after', '2'], quiet);
    assert.equal(JSON.parse(readFileSync(split, 'utf8')).state.k, 2);
    await spsaCommand([...common, '--state', split, '--workers', '2'], quiet);
    const a = JSON.parse(readFileSync(whole, 'utf8')),
      b = JSON.parse(readFileSync(split, 'utf8'));
    assert.equal(a.state.k, 4);
    assert.deepEqual(b.state, a.state);
    const lines: string[] = [];
    await spsaCommand([...common, '--state', whole], (l) => lines.push(l));
    assert.match(lines[0], /is complete \(4 iterations\)/);
    assert.match(lines.at(-1)!, /^as UCI options: option\.rfpMargin=\d+ option\.futilityBase=\d+$/);
    await assert.rejects(
      spsaCommand([...common.slice(0, -1), '6', '--state', whole], quiet),
      /another run \(seed 5 in the file, 6 asked\)/,
    );
    // A run begun when the defaults were other values resumes without --params on its own
    // parameters; asked for explicitly, today's defaults are another run.
    const old = join(dir, 'old.json');
    await spsaCommand([...common, '--state', old, '--stop-after', '2'], quiet);
    const file = JSON.parse(readFileSync(old, 'utf8'));
    file.config.params[0].start = 77;
    writeFileSync(old, JSON.stringify(file));
    await assert.rejects(spsaCommand([...common, '--state', old], quiet), /another run \(params .*"start":77/);
    const resumed: string[] = [];
    await spsaCommand([...common.slice(2), '--state', old], (l) => resumed.push(l));
    assert.equal(JSON.parse(readFileSync(old, 'utf8')).state.k, 4);
    assert.match(resumed.at(-2)!, /^changed: .*rfpMargin 77 -> /);
    file.config.params[0].name = 'rfpMargn';
    writeFileSync(old, JSON.stringify(file));
    await assert.rejects(spsaCommand([...common.slice(2), '--state', old], quiet), /'rfpMargn' is not a numeric search parameter/);
    writeFileSync(join(dir, 'bad.json'), '{"format":"other"}');
    await assert.rejects(spsaCommand([...common, '--state', join(dir, 'bad.json')], quiet), /not a matrix-chess SPSA state file/);
    await assert.rejects(spsaCommand(common, quiet), /--state FILE\.json is required/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
