/**
 * `matrix-chess tune spsa`: tunes search parameters by SPSA self-play (optimizer.ts) on worker
 * threads. The run lives in its state file: rerunning the same command resumes it, and a command
 * whose settings differ from the file's is refused rather than mixed into it.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseCommandArgs, parseIntIn, parseNumberIn } from '../../cmdline/args.js';
import { UsageError } from '../../cmdline/errors.js';
import { createProgress, progressEnabled } from '../../cmdline/progress.js';
import { SEARCH_PARAM_RANGES, SearchParams, type NumericSearchParam } from '../../engine/search-params.js';
import { DEFAULT_NETWORK_FILE } from '../../engine/nnue/load-node.js';
import { mix32 } from '../../core/rng.js';
import { WorkerPool } from '../../node/worker-pool.js';
import { loadNetworkArg } from '../network-arg.js';
import { networkCrc } from '../datagen-shard.js';
import { initialState, spsaPoint, spsaUpdate, type SpsaParam, type SpsaState } from './optimizer.js';
import { searchParamNameProblem, type AbSide } from '../selfplay/ab.js';
import type { SpsaPairDone, SpsaPairJob } from './worker.js';

export const SPSA_USAGE = `  spsa     --state FILE.json [--params name[:cEnd[:rEnd]],...] [--iterations 5000] [--nodes 8000]
           [--batch 8] [--seed 1] [--workers N] [--nnue FILE | --classical] [--r-end 0.01]
           [--stop-after N]
           SPSA over search parameters (default: the search's margins); rerun to resume`;

/**
 * The learning rate at the end of a run. OpenBench's default is 0.002 for runs of tens of
 * thousands of pairs; at a few thousand, θ would move by about one unit of noise and no signal.
 */
export const SPSA_R_END = 0.01;

/** The margins set on the classical evaluation's scale and never tuned for the network. */
export const SPSA_DEFAULT_PARAMS: readonly NumericSearchParam[] = [
  'aspirationDelta',
  'rfpMargin',
  'razorMargin',
  'futilityBase',
  'futilityMult',
  'seeQuietMult',
  'seeCaptureMult',
  'lmrBaseHundredths',
  'lmrDivisorHundredths',
  'lmrHistoryDiv',
  'qsDeltaMargin',
];

/** What a run is: the file must say the same for a rerun to resume it. */
export interface SpsaConfig {
  params: SpsaParam[];
  iterations: number;
  nodes: number;
  batch: number;
  seed: number;
  /** The network both sides play with, and its CRC-32; null: the classical evaluation. */
  nnue: { file: string; crc32: string } | null;
}

interface SpsaFile {
  format: 'matrix-chess-spsa';
  version: 1;
  config: SpsaConfig;
  state: SpsaState;
  /** θ every 100 iterations, to see where the run went. */
  history: { k: number; theta: number[] }[];
}

/** Parses `--params`: names of numeric search parameters, each with an optional cEnd and rEnd. */
export function parseSpsaParams(text: string | undefined, rEndDefault: number): SpsaParam[] {
  const defaults = new SearchParams();
  const specs = text === undefined ? SPSA_DEFAULT_PARAMS.map((n) => n as string) : text.split(',').filter((s) => s !== '');
  if (specs.length === 0) throw new UsageError('--params: no parameter named');
  const seen = new Set<string>();
  return specs.map((spec) => {
    const [name, cText, rText, extra] = spec.split(':');
    if (extra !== undefined) throw new UsageError(`--params: '${spec}' is not name[:cEnd[:rEnd]]`);
    const unknown = searchParamNameProblem(name);
    if (unknown !== null) throw new UsageError(`--params: ${unknown}`);
    if (seen.has(name)) throw new UsageError(`--params: '${name}' is named twice`);
    seen.add(name);
    const [min, max] = SEARCH_PARAM_RANGES[name as NumericSearchParam];
    const start = defaults[name as NumericSearchParam];
    // ±10% of the start at the end of the run, at least one unit (integers below that do not move).
    const cEnd = parseNumberIn(`--params ${name} cEnd`, cText, Math.max(1, Math.abs(start) / 10), 0.5, max - min);
    const rEnd = parseNumberIn(`--params ${name} rEnd`, rText, rEndDefault, 1e-6, 1);
    return { name, start, min, max, cEnd, rEnd };
  });
}

function describeDifference(a: SpsaConfig, b: SpsaConfig): string {
  for (const key of Object.keys(a) as (keyof SpsaConfig)[]) {
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key]))
      return `${key} ${JSON.stringify(b[key])} in the file, ${JSON.stringify(a[key])} asked`;
  }
  return 'nothing';
}

/**
 * Reads a run's file, or starts one; a file of another run or another format is refused. With
 * `paramsFromFile` (no --params or --r-end asked) a resumed run keeps the parameters it began
 * with: their starts and gains came from the defaults of that day, and a run whose result has
 * since become the defaults must still resume by the command that began it.
 */
function openRun(path: string, asked: SpsaConfig, paramsFromFile: boolean): SpsaFile {
  if (!existsSync(path)) return { format: 'matrix-chess-spsa', version: 1, config: asked, state: initialState(asked.params), history: [] };
  let file: SpsaFile;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as SpsaFile;
  } catch (e) {
    throw new UsageError(`--state: '${path}' is not readable JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (file?.format !== 'matrix-chess-spsa' || file.version !== 1)
    throw new UsageError(`--state: '${path}' is not a matrix-chess SPSA state file (version 1)`);
  const params = file.config?.params;
  if (!Array.isArray(params) || file.state?.theta?.length !== params.length)
    throw new UsageError(`--state: '${path}' has no parameter list matching its θ`);
  for (const p of params) {
    const problem = searchParamNameProblem(p?.name);
    if (problem !== null) throw new UsageError(`--state: '${path}': ${problem}`);
  }
  const config = paramsFromFile ? { ...asked, params } : asked;
  if (JSON.stringify(file.config) !== JSON.stringify(config))
    throw new UsageError(
      `--state: '${path}' is another run (${describeDifference(config, file.config)}); use another file or the same settings`,
    );
  return file;
}

function save(path: string, file: SpsaFile): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(file, null, 1) + '\n');
  renameSync(`${path}.tmp`, path);
}

const rounded = (config: SpsaConfig, theta: number[]): string => config.params.map((p, i) => `${p.name} ${theta[i].toFixed(1)}`).join(', ');

export async function spsaCommand(args: string[], out: (line: string) => void): Promise<void> {
  const { values } = parseCommandArgs(
    'tune spsa',
    args,
    {
      state: { type: 'string' },
      params: { type: 'string' },
      iterations: { type: 'string' },
      nodes: { type: 'string' },
      batch: { type: 'string' },
      seed: { type: 'string' },
      workers: { type: 'string' },
      nnue: { type: 'string' },
      classical: { type: 'boolean' },
      'r-end': { type: 'string' },
      'stop-after': { type: 'string' },
    },
    0,
  );
  const statePath = values.state as string | undefined;
  if (statePath === undefined) throw new UsageError('tune spsa: --state FILE.json is required (the run is kept there and resumed from it)');
  const int = (name: string, dflt: number, min: number, max: number): number =>
    values[name] === undefined ? dflt : parseIntIn(`--${name}`, values[name] as string, min, max);
  const iterations = int('iterations', 5000, 1, 10_000_000),
    nodes = int('nodes', 8000, 100, 100_000_000),
    batch = int('batch', 8, 1, 1024),
    seed = int('seed', 1, 0, 0xffffffff),
    workers = Math.min(int('workers', availableParallelism(), 1, 256), batch);
  const rEnd = parseNumberIn('--r-end', values['r-end'] as string | undefined, SPSA_R_END, 1e-6, 1);
  const stopAfter = int('stop-after', iterations, 1, 10_000_000);
  const askedParams = parseSpsaParams(values.params as string | undefined, rEnd);
  if (values.classical === true && values.nnue !== undefined) throw new UsageError('tune spsa: --nnue and --classical exclude each other');
  let nnue: SpsaConfig['nnue'] = null;
  if (values.classical !== true) {
    const file = (values.nnue as string | undefined) ?? DEFAULT_NETWORK_FILE;
    loadNetworkArg('--nnue', file); // a bad file is a usage error naming it, before any thread starts
    nnue = { file, crc32: networkCrc(file) };
  }
  const run = openRun(
    statePath,
    { params: askedParams, iterations, nodes, batch, seed, nnue },
    values.params === undefined && values['r-end'] === undefined,
  );
  const config = run.config,
    params = config.params;
  if (run.state.k >= iterations) {
    out(`tune spsa: '${statePath}' is complete (${run.state.k} iterations)`);
  } else {
    out(`tune spsa: ${params.length} parameters, iterations ${run.state.k}/${iterations}, ${nodes} nodes a move, ${workers} workers`);
    const side: AbSide = { variant: 'base', ...(nnue === null ? {} : { nnue }) };
    // Threads keep their two engines (and the network) from pair to pair.
    const pool = new WorkerPool<SpsaPairJob, SpsaPairDone>(new URL('./worker.js', import.meta.url), {
      threads: workers,
      workerData: () => side,
    });
    const progress = createProgress('spsa pairs');
    const t0 = Date.now(),
      k0 = run.state.k;
    try {
      // Batches are never split (their boundaries shape θ): --stop-after rounds up to whole batches.
      const stopAt = Math.min(iterations, run.state.k + stopAfter);
      while (run.state.k < stopAt) {
        // A batch plays its pairs around the same θ; updates apply in iteration order, so the
        // run depends on the seed and the batch size, never on the worker count or timing.
        const first = run.state.k,
          n = Math.min(batch, iterations - first);
        const jobs: Promise<SpsaPairDone>[] = [];
        for (let k = first; k < first + n; k++) {
          const { plus, minus } = spsaPoint(params, { ...run.state, k }, seed, iterations);
          jobs.push(pool.run({ k, openingSeed: mix32(seed ^ mix32(k + 1)), nodes, plus, minus }));
        }
        const results = await Promise.all(jobs);
        for (const r of results) run.state = spsaUpdate(params, run.state, seed, iterations, r.plusPoints);
        if (Math.floor(run.state.k / 100) > Math.floor(first / 100)) {
          run.history.push({ k: run.state.k, theta: [...run.state.theta] });
          if (!progressEnabled()) out(`${run.state.k}/${iterations}: ${rounded(config, run.state.theta)}`);
        }
        save(statePath, run);
        const rate = (run.state.k - k0) / ((Date.now() - t0) / 1000);
        progress.update(run.state.k, iterations, `${rate.toFixed(2)} pairs/s`);
      }
    } finally {
      progress.finish();
      await pool.close();
    }
  }
  const final = params.map((p, i) => ({ name: p.name, start: p.start, value: Math.round(run.state.theta[i]) }));
  out(`after ${run.state.k} iterations: ${rounded(config, run.state.theta)}`);
  out(
    `changed: ${
      final
        .filter((f) => f.value !== f.start)
        .map((f) => `${f.name} ${f.start} -> ${f.value}`)
        .join(', ') || 'none'
    }`,
  );
  out(`as UCI options: ${final.map((f) => `option.${f.name}=${f.value}`).join(' ')}`);
}
