/**
 * `matrix-chess analyse` (annotated PGN or JSON from a PGN file, on local worker threads or
 * through a Redis queue) and `matrix-chess worker` (takes queued jobs). See docs/analysis.md
 * and docs/scale.md.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { parseCommandArgs, parseIntIn } from '../cmdline/args.js';
import { UsageError } from '../cmdline/errors.js';
import { createProgress, formatSeconds } from '../cmdline/progress.js';
import { PgnError, streamPgn } from '../core/pgn/index.js';
import { readTextChunks } from '../node/text-file.js';
import { jobGameOf, jobSize, type AnalyseJob, type JobResult } from './job.js';
import { JobFailed, LocalPool } from './local-pool.js';
import { NNUE_BY_DEFAULT } from '../engine/nnue/network.js';
import { loadNetwork, DEFAULT_NETWORK_FILE } from '../engine/nnue/load-node.js';
import { networkCrc } from '../tune/datagen-shard.js';

export const ANALYSE_USAGE =
  'analyse FILE.pgn [--out FILE] [--depth N | --nodes N | --movetime MS] [--eval nnue|classical] [--hash MB] [--threads 1] [--workers N] [--queue redis://HOST:PORT] [--json]';
export const WORKER_USAGE = 'worker --queue redis://HOST:PORT [--concurrency N]';

const ANALYSE_HELP = `Usage: matrix-chess ${ANALYSE_USAGE}

Searches every position of every game and writes the games back as PGN with [%eval] comments,
?!/?/?? judgements (lichess's win-probability rules), the better move as a variation, and
WhiteAccuracy/BlackAccuracy/WhiteACPL/BlackACPL tags (docs/analysis.md).
  --out FILE        write there instead of stdout
  --depth N | --nodes N | --movetime MS   search per position (default --nodes 100000;
                    a node or depth limit gives the same output on every run and machine)
  --eval E          nnue: the shipped network (weights/nnue.bin; the default), classical: the
                    hand-written evaluation alone
  --hash MB         transposition table per search thread (default 16)
  --threads N       search threads per position (Lazy SMP; above 1 the result is no longer
                    deterministic, even with --nodes)
  --workers N       games analysed at once on local worker threads (default 1)
  --queue URL       send the games as jobs to Redis; 'matrix-chess worker' processes run them
  --json            write machine-readable results instead of PGN`;

function limitsFrom(values: Record<string, unknown>): AnalyseJob['limits'] {
  const given = (['depth', 'nodes', 'movetime'] as const).filter((k) => values[k] !== undefined);
  if (given.length > 1)
    throw new UsageError(`analyse: give one of --depth, --nodes, --movetime, not ${given.map((k) => `--${k}`).join(' and ')}`);
  if (values.depth !== undefined) return { depth: parseIntIn('--depth', values.depth as string, 1, 64) };
  if (values.movetime !== undefined) return { movetime: parseIntIn('--movetime', values.movetime as string, 1, 3_600_000) };
  return { nodes: parseIntIn('--nodes', (values.nodes as string | undefined) ?? '100000', 1, 1_000_000_000) };
}

/** The network the jobs name (checked here, so a bad file stops the command before any game), or none. */
function analysisEval(choice: string): AnalyseJob['nnue'] {
  if (choice === 'classical') return undefined;
  if (choice !== 'nnue') throw new UsageError(`analyse --eval: expected nnue or classical, got '${choice}'`);
  try {
    loadNetwork(DEFAULT_NETWORK_FILE);
  } catch (e) {
    throw new UsageError(`analyse --eval nnue: ${(e as Error).message}`);
  }
  return { file: DEFAULT_NETWORK_FILE, crc32: networkCrc(DEFAULT_NETWORK_FILE) };
}

/** Standard output, or a file written as it goes (created or emptied at the start). */
function openOutput(file: string | undefined): { write(text: string): void; close(): void } {
  if (file === undefined) return { write: (text) => void process.stdout.write(text), close: () => {} };
  let fd: number;
  try {
    fd = openSync(file, 'w');
  } catch (e) {
    throw new UsageError(`analyse --out: cannot write '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return { write: (text) => void writeSync(fd, text), close: () => closeSync(fd) };
}

export async function runAnalyseCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'analyse',
    args,
    {
      out: { type: 'string' },
      depth: { type: 'string' },
      nodes: { type: 'string' },
      movetime: { type: 'string' },
      hash: { type: 'string' },
      eval: { type: 'string' },
      threads: { type: 'string' },
      workers: { type: 'string' },
      queue: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    1,
  );
  if (values.help === true) {
    process.stdout.write(ANALYSE_HELP + '\n');
    return 0;
  }
  const file = positionals[0];
  if (file === undefined) throw new UsageError('analyse: missing the PGN file (usage: matrix-chess analyse FILE.pgn)');
  const limits = limitsFrom(values);
  const hashMb = parseIntIn('--hash', (values.hash as string | undefined) ?? '16', 1, 4096);
  const threads = parseIntIn('--threads', (values.threads as string | undefined) ?? '1', 1, 256);
  const workers = parseIntIn('--workers', (values.workers as string | undefined) ?? '1', 1, 256);
  const nnue = analysisEval((values.eval as string | undefined) ?? (NNUE_BY_DEFAULT ? 'nnue' : 'classical'));
  const t0 = Date.now();
  // The file is read as a stream, game by game; a game that cannot be read is reported, counted
  // and left out, and the others are analysed.
  const entries: Array<PgnError | undefined> = [];
  const jobs: AnalyseJob[] = [];
  const jobEntry: number[] = [];
  const skipped: number[] = [];
  try {
    for await (const g of streamPgn(readTextChunks(file), { source: file })) {
      if (g instanceof PgnError) {
        skipped.push(entries.length + 1);
        process.stderr.write(`matrix-chess analyse: ${g.message.split('\n')[0]} (game skipped)\n`);
        entries.push(g);
        continue;
      }
      jobs.push({ kind: 'analyse', game: jobGameOf(g), limits, hashMb, ...(threads > 1 ? { threads } : {}), ...(nnue ? { nnue } : {}) });
      jobEntry.push(entries.length);
      entries.push(undefined);
    }
  } catch (e) {
    if (e instanceof PgnError) throw e;
    throw new UsageError(`analyse: cannot read '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }

  // Progress counts positions; a job's progress replaces its earlier report.
  const totalPositions = jobs.reduce((a, j) => a + jobSize(j), 0);
  const doneByJob = new Int32Array(jobs.length);
  let positionsDone = 0,
    gamesDone = 0;
  const progress = createProgress('analyse: positions');
  const onProgress = (i: number, done: number): void => {
    positionsDone += done - doneByJob[i];
    doneByJob[i] = done;
    progress.update(positionsDone, totalPositions, `games ${gamesDone}/${jobs.length}`);
  };
  const onDone = (i: number): void => {
    onProgress(i, jobSize(jobs[i]));
    gamesDone++;
    progress.update(positionsDone, totalPositions, `games ${gamesDone}/${jobs.length}`);
  };

  // Output in input order as soon as the games before it are done, each game in one write: an
  // interrupted run leaves every game before the interruption written, and results do not pile
  // up in memory. A game that failed is reported and left out.
  const out = openOutput(values.out as string | undefined);
  const json = values.json === true;
  let nodes = 0,
    accW = 0,
    accB = 0,
    n = 0,
    judged = [0, 0, 0],
    jsonItems = 0;
  const writeJson = (item: unknown): void => out.write(`${jsonItems++ === 0 ? '' : ',\n'}${JSON.stringify(item)}`);
  const record = (game: number, r: JobResult | JobFailed): void => {
    if (r instanceof JobFailed || r.kind !== 'analyse') {
      const message = r instanceof JobFailed ? r.message : `a ${r.kind} result came back`;
      skipped.push(game);
      process.stderr.write(`matrix-chess analyse: game ${game}: ${message} (game skipped)\n`);
      if (json) writeJson({ game, error: message });
      return;
    }
    if (json) writeJson({ game, ...r.analysis });
    else out.write(r.pgn);
    nodes += r.analysis.nodes;
    const { white, black } = r.analysis;
    if (Number.isFinite(white.accuracy)) accW += white.accuracy;
    if (Number.isFinite(black.accuracy)) accB += black.accuracy;
    for (const side of [white, black]) judged = [judged[0] + side.inaccuracies, judged[1] + side.mistakes, judged[2] + side.blunders];
    n++;
  };
  const jobOfEntry = new Int32Array(entries.length).fill(-1);
  jobEntry.forEach((e, k) => (jobOfEntry[e] = k));
  const finished = new Map<number, JobResult | JobFailed>();
  let nextEntry = 0;
  const flush = (): void => {
    for (; nextEntry < entries.length; nextEntry++) {
      const e = entries[nextEntry];
      if (e !== undefined) {
        if (json) writeJson({ game: nextEntry + 1, error: e.message });
        continue;
      }
      const done = finished.get(jobOfEntry[nextEntry]);
      if (done === undefined) break;
      finished.delete(jobOfEntry[nextEntry]);
      record(nextEntry + 1, done);
    }
  };
  const accept = (k: number, r: JobResult | JobFailed): void => {
    finished.set(k, r);
    flush();
  };

  try {
    if (json) out.write(`{"limits":${JSON.stringify(limits)},"hashMb":${hashMb},"games":[\n`);
    flush(); // the games before the first job's, if they could not be read
    if (values.queue !== undefined) {
      const { parseRedisUrl, streamJobsOnQueue } = await import('./redis-queue.js');
      await streamJobsOnQueue(parseRedisUrl(values.queue as string), jobs, {
        onProgress,
        onDone: (i, r) => {
          onDone(i);
          accept(i, r);
        },
      });
    } else {
      const pool = new LocalPool(Math.min(workers, Math.max(1, jobs.length)));
      try {
        await Promise.all(
          jobs.map((j, i) =>
            pool
              .run(j, (done) => onProgress(i, done))
              .then(
                (r) => (onDone(i), accept(i, r)),
                (e: Error) => (onDone(i), accept(i, e instanceof JobFailed ? e : new JobFailed(e.message, false))),
              ),
          ),
        );
      } finally {
        await pool.close();
      }
    }
    progress.finish();
    if (json) out.write('\n]}\n');
  } finally {
    out.close();
  }

  const secs = (Date.now() - t0) / 1000;
  skipped.sort((a, b) => a - b);
  const which = skipped.length === 0 ? '' : ` (game${skipped.length === 1 ? '' : 's'} ${skipped.join(', ')})`;
  process.stderr.write(
    `analyse: ${n} game${n === 1 ? '' : 's'} analysed, ${skipped.length} skipped${which}; ${totalPositions} positions, ${nodes} nodes in ${formatSeconds(secs)}` +
      (n > 0
        ? `; mean accuracy white ${(accW / n).toFixed(1)}, black ${(accB / n).toFixed(1)}; ${judged[0]} inaccuracies, ${judged[1]} mistakes, ${judged[2]} blunders`
        : '') +
      '\n',
  );
  return skipped.length > 0 ? 1 : 0;
}

export async function runWorkerCommand(args: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    'worker',
    args,
    {
      queue: { type: 'string' },
      concurrency: { type: 'string' },
      'lock-duration': { type: 'string' },
      'stalled-interval': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    0,
  );
  if (values.help === true) {
    process.stdout.write(`Usage: matrix-chess ${WORKER_USAGE} [--lock-duration MS] [--stalled-interval MS]\n`);
    return 0;
  }
  if (values.queue === undefined) throw new UsageError('worker: --queue redis://HOST:PORT is required');
  const { parseRedisUrl, runQueueWorker } = await import('./redis-queue.js');
  await runQueueWorker(parseRedisUrl(values.queue as string), {
    concurrency: parseIntIn('--concurrency', (values.concurrency as string | undefined) ?? '1', 1, 256),
    lockDurationMs: parseIntIn('--lock-duration', (values['lock-duration'] as string | undefined) ?? '30000', 100, 3_600_000),
    stalledIntervalMs: parseIntIn('--stalled-interval', (values['stalled-interval'] as string | undefined) ?? '30000', 100, 3_600_000),
    log: (line) => process.stderr.write(line + '\n'),
  });
  return 0;
}
