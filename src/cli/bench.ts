/**
 * `matrix-chess bench [--depth N] [--eval nnue|classical|both] [--evalfile FILE]`: the engine's
 * fixed benchmark (the network read from FILE instead of the shipped one, for its node rate).
 * The node count is deterministic (the search's signature); `both` runs the network and the
 * classical evaluation one after the other, twice, for their node rates side by side: the first
 * round also warms up the compiler for the search code they share, which would favour whichever
 * ran second, so the ratio is taken from the second round.
 */
import { parseCommandArgs, parseIntIn } from '../cmdline/args.js';
import { runBench } from '../engine/bench.js';
import { describeNnue } from '../engine/nnue/evaluator.js';
import { checkEvalFile, evaluatorFor, parseEvalChoice } from './eval-flag.js';

export const BENCH_USAGE = 'bench [--depth N] [--eval classical|nnue|both] [--evalfile FILE]';

export async function runBenchCommand(args: string[], out: (line: string) => void): Promise<void> {
  const { values } = parseCommandArgs(
    'bench',
    args,
    { depth: { type: 'string' }, eval: { type: 'string' }, evalfile: { type: 'string' } },
    0,
  );
  const depth = values.depth === undefined ? undefined : parseIntIn('--depth', values.depth as string, 1, 30);
  const evalName = parseEvalChoice('bench', values.eval as string | undefined, ['both']);
  const evalFile = values.evalfile as string | undefined;
  checkEvalFile('bench', evalName, evalFile);
  if (process.stderr.isTTY && !process.env.CI) process.stderr.write(`running bench${depth ? ` at depth ${depth}` : ''}…\n`);
  const runs = evalName === 'both' ? ['nnue', 'classical', 'nnue', 'classical'] : [evalName];
  const nps: number[] = [];
  for (const [i, run] of runs.entries()) {
    const nnue = evaluatorFor(run, evalFile);
    const r = runBench({ depth, nnue });
    if (runs.length > 1) out(`Evaluation (round ${(i >> 1) + 1}): ${nnue ? describeNnue(nnue) : 'classical'}`);
    out(`Positions: ${r.positions}`);
    out(`Nodes: ${r.nodes}`);
    out(`Time: ${(r.ms / 1000).toFixed(3)} s`);
    out(`NPS: ${Math.round(r.nps)}`);
    nps.push(r.nps);
  }
  if (runs.length > 1) out(`NPS network / classical (round 2): ${(nps[2] / nps[3]).toFixed(2)}`);
}
