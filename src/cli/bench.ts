/** `matrix-chess bench [--depth N]`: the engine's fixed benchmark (node count is deterministic). */
import { parseCommandArgs, parseIntIn } from '../cmdline/args.js';

export const BENCH_USAGE = 'bench [--depth N]';

interface BenchResult { nodes: number; ms: number; nps: number; positions: number }

// Loaded at run time so the CLI builds and runs while the engine is being written.
const BENCH_MODULE = '../engine/bench.js';

export async function runBenchCommand(args: string[], out: (line: string) => void): Promise<void> {
  const { values } = parseCommandArgs('bench', args, { depth: { type: 'string' } }, 0);
  const depth = values.depth === undefined ? undefined : parseIntIn('--depth', values.depth as string, 1, 30);
  let runBench: (options?: { depth?: number }) => BenchResult;
  try {
    runBench = ((await import(BENCH_MODULE)) as { runBench: typeof runBench }).runBench;
  } catch (err) {
    throw new Error(`bench needs the engine, which is not available: ${(err as Error).message.split('\n')[0]}`);
  }
  if (process.stderr.isTTY && !process.env.CI) process.stderr.write(`running bench${depth ? ` at depth ${depth}` : ''}…\n`);
  const r = runBench(depth === undefined ? {} : { depth });
  out(`Positions: ${r.positions}`);
  out(`Nodes: ${r.nodes}`);
  out(`Time: ${(r.ms / 1000).toFixed(3)} s`);
  out(`NPS: ${Math.round(r.nps)}`);
}
