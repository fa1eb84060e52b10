/**
 * `matrix-chess tune nnue`: trains the learned evaluation from game records and writes the
 * quantised network file (docs/nnue.md has the command that produced weights/nnue.bin).
 * `matrix-chess tune nnue-scale`: rewrites a network file's output scale, its weights unchanged.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseCommandArgs, parseIntIn, parseNumberIn } from '../../cmdline/args.js';
import { UsageError } from '../../cmdline/errors.js';
import { createProgress } from '../../cmdline/progress.js';
import { encodeNetwork } from '../../engine/nnue/network.js';
import { loadNetworkArg } from '../network-arg.js';
import { expandInputs, forEachTrainingPosition, loadNnueData } from './dataset.js';
import { nnueFromNetwork } from '../../engine/nnue/load-node.js';
import type { NnueNetwork } from '../../engine/nnue/network.js';
import { crc32 } from '../../core/crc32.js';
import { PASS_KERNELS, labelsOf, type FloatNetwork, type PassKernel } from './pass.js';
import {
  classicalLoss,
  fitWdlScale,
  quantise,
  resultLoss,
  train,
  weightDecayAllowed,
  type EpochReport,
  type TrainOptions,
  type TrainState,
} from './train.js';
import {
  NnueCheckpointError,
  datasetChecksum,
  decodeCheckpoint,
  settingsDiffer,
  writeCheckpoint,
  type CheckpointSettings,
} from './checkpoint.js';

export const NNUE_USAGE = `  nnue     --data DIR|DIR@FIRST-LAST|FILE[,...] --out weights/nnue.bin [--hidden 128] [--buckets 8]
           [--epochs 20] [--batch 16384] [--lr 0.002] [--result-weight 0.5] [--endgame-result-weight λ] [--seed 1]
           [--hold-out 20] [--max-positions N] [--mirror] [--classical-weight 0] [--residual]
           [--weight-decay 0] [--activation crelu|screlu] [--features plain|king-mirrored|king-buckets] [--threads 1]
           [--wdl-scale 400] [--checkpoint OUT.ckpt] [--kernel wasm|ts] [--init RUN.ckpt]
           (after each epoch the run is saved to the checkpoint; the same command continues it;
           the WebAssembly kernel and the TypeScript one give the same numbers;
           --endgame-result-weight: λ in the fewest-pieces bucket, linear up to --result-weight in the top one;
           --init: start from another run's best network, of the same shape, instead of random weights)
  nnue-scale --evalfile FILE (--scale N | --like REF --data DIR|DIR@FIRST-LAST|FILE[,...]) --out FILE
           the same network with output scale N (centipawns = output sum × N / (QA·QB); trained: 400);
           --like: the scale that gives FILE REF's median |evaluation| over the positions of --data that the trainer keeps`;

export async function nnueCommand(args: string[], out: (line: string) => void): Promise<void> {
  const { values } = parseCommandArgs(
    'tune nnue',
    args,
    {
      data: { type: 'string' },
      out: { type: 'string' },
      hidden: { type: 'string' },
      buckets: { type: 'string' },
      epochs: { type: 'string' },
      batch: { type: 'string' },
      lr: { type: 'string' },
      'result-weight': { type: 'string' },
      'endgame-result-weight': { type: 'string' },
      init: { type: 'string' },
      seed: { type: 'string' },
      'hold-out': { type: 'string' },
      'max-positions': { type: 'string' },
      mirror: { type: 'boolean' },
      'classical-weight': { type: 'string' },
      residual: { type: 'boolean' },
      'weight-decay': { type: 'string' },
      activation: { type: 'string' },
      features: { type: 'string' },
      threads: { type: 'string' },
      'wdl-scale': { type: 'string' },
      checkpoint: { type: 'string' },
      kernel: { type: 'string' },
    },
    0,
  );
  const data = values.data as string | undefined,
    outPath = values.out as string | undefined;
  if (!data) throw new UsageError('tune nnue: --data DIR|FILE[,...] is required');
  if (!outPath) throw new UsageError('tune nnue: --out FILE is required');
  const int = (name: string, dflt: number, min: number, max: number): number =>
    values[name] === undefined ? dflt : parseIntIn(`--${name}`, values[name] as string, min, max);
  const hidden = int('hidden', 128, 16, 4096);
  if (hidden % 16 !== 0) throw new UsageError(`--hidden: ${hidden} is not a multiple of 16`);
  const buckets = int('buckets', 8, 1, 32),
    epochs = int('epochs', 20, 1, 10000),
    batch = int('batch', 16384, 1, 1 << 24);
  const seed = int('seed', 1, 0, 0xffffffff),
    holdOut = int('hold-out', 20, 0, 1000),
    threads = int('threads', 1, 1, 64);
  const maxPositions = int('max-positions', 2 ** 31, 1, 2 ** 31);
  const lr = parseNumberIn('--lr', values.lr as string | undefined, 0.002, 1e-7, 10);
  const resultWeight = parseNumberIn('--result-weight', values['result-weight'] as string | undefined, 0.5, 0, 1);
  const endgameResultWeight = parseNumberIn(
    '--endgame-result-weight',
    values['endgame-result-weight'] as string | undefined,
    resultWeight,
    0,
    1,
  );
  if (endgameResultWeight !== resultWeight && buckets < 2)
    throw new UsageError('--endgame-result-weight: with one output bucket there is no ending to weigh apart (give --buckets 2 or more)');
  // K: centipawns per unit before σ, in the label and the prediction (the output's units stay SCALE's).
  const wdlScale = parseNumberIn('--wdl-scale', values['wdl-scale'] as string | undefined, 400, 10, 10000);
  const weightDecay = parseNumberIn('--weight-decay', values['weight-decay'] as string | undefined, 0, 0, 100);
  if (!weightDecayAllowed(lr, weightDecay)) throw new UsageError(`--weight-decay: ${weightDecay} times --lr ${lr} must be below 1`);
  const activation = (values.activation as string | undefined) ?? 'crelu';
  if (activation !== 'crelu' && activation !== 'screlu')
    throw new UsageError(`--activation: '${activation}' is not crelu (clipped ReLU) or screlu (squared clipped ReLU)`);
  const features = (values.features as string | undefined) ?? 'plain';
  if (features !== 'plain' && features !== 'king-mirrored' && features !== 'king-buckets')
    throw new UsageError(`--features: '${features}' is not plain, king-mirrored or king-buckets`);
  // A reflected position flips both kings' wings, so its king-mirrored inputs are the position's own.
  if (features === 'king-mirrored' && values.mirror === true)
    throw new UsageError('--mirror adds nothing with --features king-mirrored: a reflected position has the same inputs');
  const kernel = ((values.kernel as string | undefined) ?? 'wasm') as PassKernel;
  if (!PASS_KERNELS.includes(kernel)) throw new UsageError(`--kernel: '${kernel}' is not wasm (WebAssembly SIMD) or ts (TypeScript)`);
  const classicalWeight = parseNumberIn('--classical-weight', values['classical-weight'] as string | undefined, 0, 0, 1);
  const paths = data.split(',').filter((p) => p !== '');

  const t0 = Date.now();
  const loading = createProgress('reading games');
  const {
    train: trainSet,
    validation,
    stats,
  } = loadNnueData(paths, {
    buckets,
    holdOutEvery: holdOut,
    maxPositions,
    mirror: values.mirror === true,
    classicalWeight,
    onFile: (_f, d, t) => loading.update(d, t),
  });
  loading.finish();
  out(
    `${stats.files} files, ${stats.games} games, ${stats.positions} positions, ${stats.kept} kept (${trainSet.count} train, ${validation.count} held out) in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  if (trainSet.count === 0) throw new UsageError('tune nnue: no training positions in the data');
  // Which K these games' scores and results agree on (what --wdl-scale might be set to).
  const stride = Math.max(1, Math.floor(trainSet.count / 1_000_000)),
    fitted = fitWdlScale(trainSet, stride);
  out(
    `search scores against results: best K ${fitted} cp (loss ${resultLoss(trainSet, fitted, stride).toFixed(5)}; K 400: ${resultLoss(trainSet, 400, stride).toFixed(5)}); training with K ${wdlScale}`,
  );
  const labels = labelsOf(resultWeight, wdlScale, endgameResultWeight, buckets);
  out(`classical evaluation on the held-out set: loss ${classicalLoss(validation, labels).toFixed(6)}`);
  const init =
    values.init === undefined
      ? undefined
      : readInit(values.init as string, {
          kind: values.residual === true ? 'residual' : 'evaluation',
          activation,
          features,
          hidden,
          buckets,
        });

  // What the trainer is given; with the data, what a checkpoint must agree with to continue.
  const recipe = {
    hidden,
    buckets,
    epochs,
    batch,
    lr,
    resultWeight,
    // Only a ramp is a setting, so that flat runs' checkpoints from before it still continue.
    ...(endgameResultWeight !== resultWeight ? { endgameResultWeight } : {}),
    wdlScale,
    seed,
    residual: values.residual === true,
    activation,
    features,
    weightDecay,
    threads,
  } satisfies Partial<TrainOptions>;
  const checkpointPath = (values.checkpoint as string | undefined) ?? `${outPath}.ckpt`;
  const settings: CheckpointSettings = {
    ...recipe,
    holdOut,
    maxPositions,
    mirror: values.mirror === true,
    classicalWeight,
    trainPositions: trainSet.count,
    heldOutPositions: validation.count,
    trainData: datasetChecksum(trainSet),
    heldOutData: datasetChecksum(validation),
    ...(init ? { init: init.checksum } : {}),
  };
  const epochLine = (e: EpochReport, note = ''): string =>
    `epoch ${e.epoch}: lr ${e.lr.toPrecision(3)} train ${e.trainLoss.toFixed(6)} held-out ${e.validationLoss.toFixed(6)} (${e.seconds.toFixed(0)} s${note})`;
  let resumeFrom: TrainState | undefined;
  if (existsSync(checkpointPath)) {
    try {
      const saved = decodeCheckpoint(readFileSync(checkpointPath), checkpointPath);
      const differs = settingsDiffer(saved.settings, settings);
      if (differs !== null)
        throw new UsageError(
          `tune nnue: ${checkpointPath} is the checkpoint of another run (${differs}); delete it or give another --checkpoint`,
        );
      resumeFrom = saved.state;
    } catch (e) {
      if (e instanceof NnueCheckpointError) throw new UsageError(`tune nnue: ${e.message}; delete it or give another --checkpoint`);
      throw e;
    }
    out(`resuming from ${checkpointPath} after epoch ${resumeFrom.epoch} of ${epochs}`);
    for (const e of resumeFrom.history) out(epochLine(e, ', from the checkpoint'));
  } else mkdirSync(dirname(checkpointPath), { recursive: true });

  const progress = createProgress('training', process.stderr, (resumeFrom?.epoch ?? 0) * Math.ceil(trainSet.count / batch));
  const result = train(trainSet, validation, {
    ...recipe,
    kernel,
    resumeFrom,
    initNet: init?.net,
    onCheckpoint: (state) => writeCheckpoint(checkpointPath, settings, state),
    onBatch: (d, t) => progress.update(d, t),
    onEpoch: (e) => {
      progress.finish();
      out(epochLine(e));
    },
  });
  progress.finish();
  const net = quantise(result.net, {
    positions: trainSet.count,
    seed,
    epochs: result.best.epoch,
    description: `${values.residual === true ? 'residual; ' : ''}${init ? 'from another run; ' : ''}${trainSet.count} pos, ${stats.games} games; h${hidden}${activation === 'screlu' ? 's' : ''}${features === 'king-mirrored' ? 'km' : features === 'king-buckets' ? 'kb' : ''} b${buckets} l${resultWeight}${endgameResultWeight !== resultWeight ? `-${endgameResultWeight}` : ''} cw${classicalWeight}${weightDecay > 0 ? ` wd${weightDecay}` : ''}${wdlScale !== 400 ? ` k${wdlScale}` : ''}`,
  });
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, encodeNetwork(net));
  out(`best epoch ${result.best.epoch}: held-out ${result.best.validationLoss.toFixed(6)} -> ${outPath}`);
}

/** `--init`: another run's checkpoint, whose best network the run starts from (its CRC names it in the settings). */
function readInit(
  path: string,
  shape: Pick<FloatNetwork, 'kind' | 'activation' | 'features' | 'hidden' | 'buckets'>,
): { net: FloatNetwork; checksum: number } {
  let bytes: Buffer, net: FloatNetwork;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new UsageError(`--init: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    net = decodeCheckpoint(bytes, path).state.bestNet;
  } catch (e) {
    if (e instanceof NnueCheckpointError) throw new UsageError(`--init: ${e.message}`);
    throw e;
  }
  for (const k of ['kind', 'activation', 'features', 'hidden', 'buckets'] as const)
    if (net[k] !== shape[k]) throw new UsageError(`--init: ${path} holds a network with ${k} ${net[k]}, this run's is ${shape[k]}`);
  return { net, checksum: crc32(bytes) };
}

/**
 * The network's scores are on the scale of the search scores it was trained on, and those have
 * grown generation by generation; the search's margins are on the classical evaluation's scale.
 * SCALE in the file says how network units become centipawns, so recalibrating is a header change.
 */
export function nnueScaleCommand(args: string[], out: (line: string) => void): void {
  const { values } = parseCommandArgs(
    'tune nnue-scale',
    args,
    {
      evalfile: { type: 'string' },
      scale: { type: 'string' },
      like: { type: 'string' },
      data: { type: 'string' },
      out: { type: 'string' },
    },
    0,
  );
  const inPath = values.evalfile as string | undefined,
    outPath = values.out as string | undefined,
    like = values.like as string | undefined,
    data = values.data as string | undefined;
  if (!inPath) throw new UsageError('tune nnue-scale: --evalfile FILE is required');
  if (!outPath) throw new UsageError('tune nnue-scale: --out FILE is required');
  if (values.scale !== undefined && like !== undefined)
    throw new UsageError('tune nnue-scale: --scale N and --like REF both set the scale; give one');
  if (values.scale === undefined && like === undefined) throw new UsageError('tune nnue-scale: --scale N or --like REF is required');
  if (like !== undefined && data === undefined)
    throw new UsageError('tune nnue-scale: --like REF needs --data, the games whose positions the two networks are compared on');
  if (like === undefined && data !== undefined) throw new UsageError('tune nnue-scale: --data is read only with --like REF');
  const net = loadNetworkArg('tune nnue-scale --evalfile', inPath);
  let scale: number;
  if (like !== undefined) {
    const ref = loadNetworkArg('tune nnue-scale --like', like);
    const files = expandInputs(data!.split(',').filter((p) => p !== ''));
    const {
      medians: [refMedian, netMedian],
      count,
    } = medianAbsEvaluations([ref, net], files);
    if (count === 0) throw new UsageError(`tune nnue-scale --data: '${data}' holds no position the trainer keeps`);
    if (netMedian === 0) throw new UsageError(`tune nnue-scale: ${inPath} evaluates at least half the positions at 0; no scale matches it`);
    scale = Math.round((net.scale * refMedian) / netMedian);
    if (scale < 1 || scale > 65535) throw new UsageError(`tune nnue-scale: the matching scale ${scale} is outside 1–65535`);
    out(`median |evaluation| over ${count} positions: ${like} ${refMedian}, ${inPath} ${netMedian} at SCALE ${net.scale}`);
  } else scale = parseIntIn('--scale', values.scale as string, 1, 65535);
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, encodeNetwork({ ...net, scale }));
  out(`${inPath}: SCALE ${net.scale} -> ${scale} (scores × ${(scale / net.scale).toFixed(3)}) -> ${outPath}`);
}

/**
 * Each network's median |evaluation| (centipawns, the middle value; the upper one of the two
 * for an even count) over the positions of `files` the trainer keeps, and how many there are.
 */
function medianAbsEvaluations(nets: readonly NnueNetwork[], files: readonly string[]): { medians: number[]; count: number } {
  const evaluators = nets.map((n) => nnueFromNetwork(n, 'ts'));
  const values = nets.map((): number[] => []);
  forEachTrainingPosition(files, (pos) => evaluators.forEach((e, i) => values[i].push(Math.abs(e.evaluateFresh(pos)))));
  const count = values[0].length;
  return { medians: values.map((v) => (count === 0 ? 0 : v.sort((a, b) => a - b)[count >> 1])), count };
}
