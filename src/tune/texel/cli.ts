/** `matrix-chess tune fit` and `tune export` (dispatched by ../cli.ts; docs/strength.md). */
import { existsSync, writeFileSync } from 'node:fs';
import { parseCommandArgs, parseIntIn, parseNumberIn } from '../../cmdline/args.js';
import { UsageError } from '../../cmdline/errors.js';
import { createProgress } from '../../cmdline/progress.js';
import { PgnError } from '../../core/pgn/index.js';
import { TuningSetBuilder, extractFromPgn, setLabels } from './dataset.js';
import { currentEvalParams, formatEvalParams } from './eval-params-source.js';
import { fitK, freezeMask, meanSquaredError, paramsFromValues, tune, valuesFromParams, type ParamGroup } from './fit.js';

const DEFAULT_OUT = 'src/engine/eval-params.ts';

export async function fitCommand(args: string[], out: (line: string) => void): Promise<void> {
  const { values } = parseCommandArgs(
    'tune fit',
    args,
    {
      pgn: { type: 'string' },
      out: { type: 'string' },
      iterations: { type: 'string' },
      'skip-plies': { type: 'string' },
      lambda: { type: 'string' },
      lr: { type: 'string' },
      'hold-out': { type: 'string' },
      json: { type: 'string' },
      verbose: { type: 'boolean' },
      freeze: { type: 'string' },
      'mirror-pst': { type: 'boolean' },
      'result-weight': { type: 'string' },
      optimizer: { type: 'string' },
    },
    0,
  );
  const verbose = values.verbose === true;
  const freeze = ((values.freeze as string | undefined) ?? '').split(',').filter((g) => g !== '');
  for (const g of freeze)
    if (g !== 'terms' && g !== 'material' && g !== 'pst')
      throw new UsageError(`tune fit: --freeze: unknown group '${g}' (expected terms, material, pst)`);
  const pgnArg = values.pgn as string | undefined;
  if (!pgnArg) throw new UsageError('tune fit: --pgn FILE[,FILE...] is required (games to learn from)');
  const paths = pgnArg.split(',').filter((p) => p !== '');
  for (const p of paths) if (!existsSync(p)) throw new UsageError(`tune fit: --pgn: no such file '${p}'`);
  const outPath = (values.out as string | undefined) ?? DEFAULT_OUT;
  const iterations = values.iterations === undefined ? 800 : parseIntIn('--iterations', values.iterations as string, 0, 1_000_000);
  const skipPlies = values['skip-plies'] === undefined ? 6 : parseIntIn('--skip-plies', values['skip-plies'] as string, 0, 1000);
  const holdOut = values['hold-out'] === undefined ? 5 : parseIntIn('--hold-out', values['hold-out'] as string, 2, 1_000_000);
  const lambda = parseNumberIn('--lambda', values.lambda as string | undefined, 0, 0, 1);
  const optimizer = (values.optimizer as string | undefined) ?? 'gd';
  if (optimizer !== 'adam' && optimizer !== 'gd') throw new UsageError(`tune fit: --optimizer: expected adam or gd, got '${optimizer}'`);
  const resultWeight = parseNumberIn('--result-weight', values['result-weight'] as string | undefined, 0.5, 0, 1);
  const lr = parseNumberIn('--lr', values.lr as string | undefined, optimizer === 'gd' ? 3000 : 1, 1e-6, 1e9);

  const t0 = Date.now();
  const train = new TuningSetBuilder(),
    validation = new TuningSetBuilder();
  let stats;
  try {
    stats = extractFromPgn(paths, { skipPlies }, train, validation, holdOut);
  } catch (e) {
    if (e instanceof PgnError) throw new UsageError(`tune fit: ${e.message}`);
    throw e;
  }
  const trainSet = train.build(),
    validSet = validation.build();
  out(
    `data: ${stats.games} games (${stats.skippedGames} unfinished skipped), ${stats.positions} positions after ply ${skipPlies}: ` +
      `${stats.kept} quiet kept, ${stats.inCheck} in check, ${stats.notQuiet} with a winning capture; ` +
      `train ${trainSet.count}, validation ${validSet.count} (every ${holdOut}th game); ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  if (trainSet.count === 0) throw new UsageError('tune fit: no positions to learn from');

  const start = paramsFromValues(currentEvalParams());
  // K is fitted to the game results; the search scores are then mapped to the same scale.
  const k = fitK(trainSet, start);
  if (resultWeight < 1) {
    setLabels(trainSet, resultWeight, k);
    setLabels(validSet, resultWeight, k);
    let scored = 0;
    for (let i = 0; i < trainSet.count; i++) if (!Number.isNaN(trainSet.score[i])) scored++;
    out(
      `labels: ${resultWeight} x game result + ${(1 - resultWeight).toFixed(2)} x sigma(K x search score); ${scored} of ${trainSet.count} training positions have a score`,
    );
  }
  const before = { train: meanSquaredError(trainSet, start, k), valid: meanSquaredError(validSet, start, k) };
  out(`K = ${k.toFixed(4)}; error before: train ${before.train.toFixed(6)}, validation ${before.valid.toFixed(6)}`);

  const progress = createProgress('tuning');
  const t1 = Date.now();
  const log: string[] = [];
  const result = tune(trainSet, start, {
    k,
    iterations,
    lr,
    lambda,
    reportEvery: 10,
    validation: validSet,
    optimizer,
    frozen: freezeMask(freeze as ParamGroup[]),
    mirrorPst: values['mirror-pst'] === true,
    onProgress: (it, tm, vm) => {
      progress.update(it, iterations);
      if (it % 100 === 0) log.push(`  iteration ${it}: train ${tm.toFixed(6)}, validation ${vm.toFixed(6)}`);
    },
  });
  progress.finish();
  if (verbose) for (const l of log) out(l);
  const tuned = result.params;
  const rounded = paramsFromValues(valuesFromParams(tuned));
  const after = { train: meanSquaredError(trainSet, rounded, k), valid: meanSquaredError(validSet, rounded, k) };
  out(
    `error after ${result.bestIteration} of ${iterations} iterations (lowest validation error; ${((Date.now() - t1) / 1000).toFixed(0)} s): train ${after.train.toFixed(6)}, validation ${after.valid.toFixed(6)}`,
  );

  const provenance = [
    `Tuned: matrix-chess tune fit --pgn ${paths.join(',')} --iterations ${iterations} --skip-plies ${skipPlies} --lambda ${lambda} --optimizer ${optimizer} --lr ${lr} --hold-out ${holdOut}${freeze.length ? ` --freeze ${freeze.join(',')}` : ''}${values['mirror-pst'] ? ' --mirror-pst' : ''} --result-weight ${resultWeight}`,
    `Data: ${stats.games} games, ${trainSet.count} training and ${validSet.count} validation positions (quiet, labelled by ${resultWeight < 1 ? 'game result and search score' : 'game result'}).`,
    `K = ${k.toFixed(4)}; stopped at iteration ${result.bestIteration} (lowest validation error); mean squared error train ${before.train.toFixed(6)} -> ${after.train.toFixed(6)}, validation ${before.valid.toFixed(6)} -> ${after.valid.toFixed(6)}.`,
  ];
  writeFileSync(outPath, formatEvalParams(valuesFromParams(tuned), provenance));
  out(`wrote ${outPath} (rebuild with npm run build to use it)`);
  const jsonPath = values.json as string | undefined;
  if (jsonPath) {
    writeFileSync(jsonPath, JSON.stringify(valuesFromParams(tuned)) + '\n');
    out(`wrote ${jsonPath}`);
  }
}

export async function exportCommand(args: string[], out: (line: string) => void): Promise<void> {
  const { values } = parseCommandArgs('tune export', args, { out: { type: 'string' }, json: { type: 'string' } }, 0);
  const jsonPath = values.json as string | undefined;
  if (jsonPath) {
    writeFileSync(jsonPath, JSON.stringify(currentEvalParams()) + '\n');
    out(`wrote ${jsonPath}`);
    if (values.out === undefined) return;
  }
  const outPath = (values.out as string | undefined) ?? DEFAULT_OUT;
  writeFileSync(
    outPath,
    formatEvalParams(currentEvalParams(), ['Exported by `matrix-chess tune export`: the weights the engine was built with.']),
  );
  out(`wrote ${outPath}`);
}
