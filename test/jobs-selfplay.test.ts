/**
 * The `selfplay-pair` job kind on the local pool: an A/B pair played as a job (fresh engines, the
 * opening redrawn from the seed) is the pair bench/engine-selfplay.ts plays in process after the
 * pairs before it, game results and moves; the harness's summary is made of those pairs; a
 * malformed job or a network with another CRC is a typed failure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { JobFailed, LocalPool } from '../src/jobs/local-pool.js';
import type { SelfplayPairJob } from '../src/jobs/job.js';
import { currentEvalParams } from '../src/tune/texel/eval-params-source.js';
import { abOpenings, abPlayer, parseSearchSettings, playAbPair, testScore, type AbSide } from '../src/tune/selfplay/ab.js';
import { sprt } from '../src/match/stats.js';
import { SEARCH_PARAM_RANGES, SearchParams } from '../src/engine/search-params.js';

const SELFPLAY = fileURLToPath(new URL('../bench/engine-selfplay.js', import.meta.url));
const NETWORK = fileURLToPath(new URL('../../weights/nnue.bin', import.meta.url));

test('a selfplay-pair job on the local pool plays the in-process pair; malformed jobs and a wrong network fail typed', async () => {
  const params = currentEvalParams();
  // Test side: a search variant with its own evaluation parameters (one term changed); base: another term changed.
  const changed = (term: number): AbSide['params'] => ({ ...params, terms: params.terms.map((t, i) => (i === term ? t + 40 : t)) });
  const test: AbSide = { variant: 'no-lmp', params: changed(0) };
  const base: AbSide = { variant: 'base', params: changed(1) };
  const nodes = 150,
    seed = 5;
  // In process as the harness plays: one engine per side, pair after pair.
  const openings = abOpenings(seed, 2);
  const testPlayer = abPlayer(test),
    basePlayer = abPlayer(base);
  const inProcess = openings.map((o, i) => playAbPair(i, o, testPlayer, basePlayer, nodes));
  assert.notDeepEqual(inProcess[0].games[0].moves, inProcess[1].games[0].moves, 'the pairs have their own openings');
  assert.deepEqual(currentEvalParams(), params, "the test side's evaluation parameters are undone after the pair");

  const pool = new LocalPool(2);
  try {
    const job = (pair: number): SelfplayPairJob => ({ kind: 'selfplay-pair', seed, pair, nodes, test, base });
    const progress: number[] = [];
    const results = await Promise.all([pool.run(job(1), (done) => progress.push(done)), pool.run(job(0))]);
    assert.deepEqual(
      results,
      [
        { kind: 'selfplay-pair', ...inProcess[1] },
        { kind: 'selfplay-pair', ...inProcess[0] },
      ],
      'each pair as a job equals the in-process pair',
    );
    assert.equal(progress.at(-1), 2);

    const bad = await Promise.allSettled([
      pool.run({ ...job(0), test: { variant: 'nonsense' } }),
      pool.run({ ...job(0), nodes: 0 }),
      pool.run({ ...job(0), base: { variant: 'base', params: { ...params, terms: [1, 2] } } }),
      pool.run({ ...job(0), test: { variant: 'base', nnue: { file: NETWORK, crc32: '0' } } }),
      pool.run({ ...job(0), base: { variant: 'base', nodes: 0 } }),
      pool.run({ ...job(0), test: { variant: 'base', search: { rfpMargin: 10_000 } } }),
      pool.run({ ...job(0), base: { variant: 'base', search: { singularExtension: 1 } } }),
      pool.run({ ...job(0), movetimeMs: 0.5 }),
    ]);
    const reasons = bad.map((r) => (r.status === 'rejected' ? (r.reason as JobFailed) : undefined));
    assert.ok(reasons.every((r) => r instanceof JobFailed));
    assert.deepEqual(
      reasons.map((r) => [r!.malformed, r!.message.replace(/CRC-32 [0-9a-f]+ here/, 'CRC-32 X here')]),
      [
        [true, 'malformed job: test.variant "nonsense" is not a known variant'],
        [true, 'malformed job: nodes is not a whole number from 1 to 1000000000'],
        [true, `malformed job: base.params: field 'terms' must be ${params.terms.length} integers`],
        [false, `network '${NETWORK}' has CRC-32 X here, the run wants 0`],
        [true, 'malformed job: base.nodes is not a whole number from 1 to 1000000000'],
        [true, 'malformed job: test.search: rfpMargin=10000 is out of range (expected a whole number from 0 to 400)'],
        [
          true,
          `malformed job: base.search: 'singularExtension' is not a numeric search parameter (expected one of ${Object.keys(SEARCH_PARAM_RANGES).join(', ')})`,
        ],
        [true, 'malformed job: movetimeMs is not a whole number from 1 to 600000'],
      ],
    );
  } finally {
    await pool.close();
  }

  // The harness's summary line counts these pairs' games.
  const cli = spawnSync(
    process.execPath,
    [SELFPLAY, '--variant', 'no-lmp', '--nodes', '150', '--pairs', '2', '--seed', '5', '--sprt', 'elo0=0 elo1=10'],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(cli.status, 0, cli.stderr);
  // The same pairs with the variant alone against the built-in engine (the command line gives no params here).
  const plain = abPlayer({ variant: 'no-lmp' }),
    plainBase = abPlayer({ variant: 'base' });
  const plainScores = openings.map((o, i) => playAbPair(i, o, plain, plainBase, nodes)).flatMap((r) => [testScore(r, 0), testScore(r, 1)]);
  const plainCount = (s: number): number => plainScores.filter((x) => x === s).length;
  assert.match(cli.stdout, new RegExp(`\\nfinal: 4 games, \\+${plainCount(1)} =${plainCount(0.5)} -${plainCount(0)}, `));
  // And the pairs by the test side's points in each (0, ½, 1, 1½, 2: the pentanomial counts).
  const pairCounts = [0, 0, 0, 0, 0];
  for (let i = 0; i < plainScores.length; i += 2) pairCounts[Math.round(2 * (plainScores[i] + plainScores[i + 1]))]++;
  assert.match(cli.stdout, new RegExp(`\\nfinal: .*, pairs ${pairCounts.join('/')} [-+]`));
  // The SPRT's log-likelihood ratio on those counts; two pairs are too few for a decision.
  const state = sprt(
    { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 },
    { wins: plainCount(1), draws: plainCount(0.5), losses: plainCount(0) },
    pairCounts,
  );
  assert.match(cli.stdout, new RegExp(`\\nfinal: .*, LLR ${state.llr.toFixed(2).replace('-', '\\-')} \\(-2\\.94, 2\\.94\\)\\n`));
  assert.match(cli.stdout, /\nsprt: no decision after 4 games \(--pairs 2\)\n$/);
  const badSprt = spawnSync(process.execPath, [SELFPLAY, '--pairs', '1', '--sprt', 'elo0=5 elo1=0'], { encoding: 'utf8' });
  assert.equal(badSprt.status, 2);
  assert.equal(badSprt.stderr, 'engine-selfplay: --sprt: elo1 must be greater than elo0\n');
  // In a pipe: no progress line, and the summary says what played.
  assert.doesNotMatch(cli.stdout + cli.stderr, /\r/);
  assert.match(
    cli.stdout,
    /^test: variant no-lmp, classical evaluation, 150 nodes a move\nbase: variant base, classical evaluation, 150 nodes a move\nfinal: /m,
  );
});

test("node odds: a side's own budget replaces the pair's for that side only", () => {
  const [opening] = abOpenings(3, 1);
  const pair = (test: AbSide, base: AbSide, nodes: number) => playAbPair(0, opening, abPlayer(test), abPlayer(base), nodes);
  // Test side at 400 nodes, base at 150: given as the test side's odds, or as the base side's.
  const testOdds = pair({ variant: 'base', nodes: 400 }, { variant: 'base' }, 150);
  const baseOdds = pair({ variant: 'base' }, { variant: 'base', nodes: 150 }, 400);
  assert.deepEqual(testOdds, baseOdds, 'the same budgets, however given, play the same games');
  const even = pair({ variant: 'base' }, { variant: 'base' }, 150);
  assert.notDeepEqual(testOdds.games, even.games, 'the odds change the games');
});

test("search settings: a side's numeric search parameters are set after its variant; bad settings are usage errors", () => {
  const [opening] = abOpenings(3, 1);
  const pair = (test: AbSide) => playAbPair(0, opening, abPlayer(test), abPlayer({ variant: 'base' }), 300);
  const set = abPlayer({ variant: 'no-lmp', search: { rfpMargin: 20, lmrDivisorHundredths: 150 } }).engine.params;
  assert.deepEqual([set.rfpMargin, set.lmrDivisorHundredths, set.lmpDepth], [20, 150, 0], 'the variant stays, the settings apply');
  assert.deepEqual(
    pair({ variant: 'base', search: { rfpMargin: new SearchParams().rfpMargin } }),
    pair({ variant: 'base' }),
    'the default value: the same games',
  );
  assert.notDeepEqual(pair({ variant: 'base', search: { rfpMargin: 0, futilityBase: 0 } }).games, pair({ variant: 'base' }).games);
  assert.deepEqual(parseSearchSettings('--test-set', 'rfpMargin=70,futilityBase=100'), { rfpMargin: 70, futilityBase: 100 });
  assert.throws(
    () => parseSearchSettings('--test-set', 'rfpMargin=999'),
    /--test-set: rfpMargin=999 is out of range \(expected a whole number from 0 to 400\)/,
  );
  assert.throws(
    () => parseSearchSettings('--base-set', 'singularExtension=1'),
    /--base-set: 'singularExtension' is not a numeric search parameter/,
  );
  assert.throws(() => parseSearchSettings('--test-set', 'rfpMargin'), /'rfpMargin' is not name=whole number/);
  const cli = spawnSync(process.execPath, [SELFPLAY, '--pairs', '1', '--nodes', '100', '--test-set', 'rfpMargin=70'], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(cli.stdout, /^test: variant base, rfpMargin=70, classical evaluation, 100 nodes a move$/m);
});

test('movetime: every move is searched by time, each side at its own node rate; node budgets clash with it on the command line', async () => {
  const [opening] = abOpenings(4, 1);
  const test = abPlayer({ variant: 'base' }),
    base = abPlayer({ variant: 'base', nodes: 10 });
  // Record what each search was asked and what it searched.
  const seen: Array<{ limits: object; nodes: number }> = [];
  for (const p of [test, base]) {
    const search = p.engine.search.bind(p.engine);
    p.engine.search = (pos, limits, hooks) => {
      const r = search(pos, limits, hooks);
      seen.push({ limits, nodes: r.nodes });
      return r;
    };
  }
  const r = playAbPair(0, opening, test, base, 50, 15);
  assert.equal(r.games.length, 2);
  assert.ok(seen.length >= 8, `only ${seen.length} moves searched`);
  assert.ok(
    seen.every((s) => JSON.stringify(s.limits) === '{"movetime":15}'),
    "every search was by time (the base side's 10-node budget unused)",
  );
  // Searched by the clock, not cut at a node budget: well past both sides' budgets (50 and 10).
  const nodes = seen.map((s) => s.nodes).sort((x, y) => x - y);
  assert.ok(nodes[nodes.length >> 1] > 200, `median ${nodes[nodes.length >> 1]} nodes a move`);

  // As a job: the time travels with it.
  const pool = new LocalPool(1);
  try {
    const job: SelfplayPairJob = {
      kind: 'selfplay-pair',
      seed: 4,
      pair: 0,
      nodes: 10,
      movetimeMs: 5,
      test: { variant: 'base' },
      base: { variant: 'base' },
    };
    const result = await pool.run(job);
    assert.equal(result.kind, 'selfplay-pair');
    if (result.kind === 'selfplay-pair') assert.ok(result.games.every((g) => g.moves.split(' ').length > opening.length + 8));
  } finally {
    await pool.close();
  }

  const clash = spawnSync(process.execPath, [SELFPLAY, '--pairs', '1', '--movetime', '10', '--base-nodes', '100'], { encoding: 'utf8' });
  assert.equal(clash.status, 2);
  assert.equal(
    clash.stderr,
    'engine-selfplay: --base-nodes: a node budget does not apply with --movetime (every move is searched by time)\n',
  );
  const timed = spawnSync(process.execPath, [SELFPLAY, '--variant', 'no-lmp', '--pairs', '1', '--movetime', '5', '--seed', '2'], {
    encoding: 'utf8',
  });
  assert.equal(timed.status, 0, timed.stderr);
  assert.match(
    timed.stdout,
    /^test: variant no-lmp, classical evaluation, 5 ms a move\nbase: variant base, classical evaluation, 5 ms a move\n/m,
  );
});
