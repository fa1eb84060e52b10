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
import { currentEvalParams } from '../src/tune/eval-params-source.js';
import { abOpenings, abPlayer, parseSearchSettings, playAbPair, testScore, type AbSide } from '../src/tune/selfplay-ab.js';
import { sprt } from '../src/match/stats.js';
import { SEARCH_PARAM_RANGES, SearchParams } from '../src/engine/search.js';

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
      pool.run({ ...job(0), base: { variant: 'base', search: { probCut: 1 } } }),
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
          `malformed job: base.search: 'probCut' is not a numeric search parameter (expected one of ${Object.keys(SEARCH_PARAM_RANGES).join(', ')})`,
        ],
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
  assert.throws(() => parseSearchSettings('--base-set', 'probCut=1'), /--base-set: 'probCut' is not a numeric search parameter/);
  assert.throws(() => parseSearchSettings('--test-set', 'rfpMargin'), /'rfpMargin' is not name=whole number/);
  const cli = spawnSync(process.execPath, [SELFPLAY, '--pairs', '1', '--nodes', '100', '--test-set', 'rfpMargin=70'], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(cli.stdout, /^test: variant base, rfpMargin=70, classical evaluation, 100 nodes a move$/m);
});
