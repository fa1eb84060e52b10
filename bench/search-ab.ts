/**
 * Two builds of the engine, time to depth on the bench positions (src/engine/bench.ts), in one
 * process with rounds interleaved (A then B, B then A, ...): the way to measure a speed-up on a
 * machine whose speed wanders by tens of percent from one round to the next. Each build is a
 * directory with `dist/` built (a checkout, or a copy set aside) and is searched with its own
 * `weights/nnue.bin`, or the classical evaluation with --classical. The figure is the median over
 * rounds of A's CPU time to depth over B's (above 1: B is faster); node counts are printed
 * because a change may also change what counts as a node.
 *
 *   node dist/bench/search-ab.js --a DIR --b DIR [--depth 11] [--rounds 30] [--classical]
 */
import { isAbsolute, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { median } from './median.js';

interface Round {
  nodes: number;
  cpuMs: number;
}

/** What the bench needs from a build, typed here because each build is loaded from its own directory. */
interface BuildModules {
  Engine: new (opts: { hashMb: number; nnue: unknown }) => {
    newGame(): void;
    search(pos: unknown, limits: { depth: number }): { nodes: number };
  };
  BENCH_FENS: readonly string[];
  Position: { fromFen(fen: string): unknown };
  loadNnue: (file: string) => unknown;
}

async function loadBuild(dir: string, classical: boolean, depth: number): Promise<() => Round> {
  const root = isAbsolute(dir) ? dir : resolve(dir);
  const src = `${root}/dist/src`;
  if (!existsSync(`${src}/engine/index.js`)) throw new UsageError(`--a/--b: ${dir} has no built engine (dist/src/engine/index.js)`);
  const load = async (p: string): Promise<Record<string, unknown>> =>
    (await import(pathToFileURL(`${src}/${p}`).href)) as Record<string, unknown>;
  // Builds older than the Node-only loader have it as engine/nnue/load.js.
  const loader = existsSync(`${src}/engine/nnue/load-node.js`) ? 'engine/nnue/load-node.js' : 'engine/nnue/load.js';
  const m = {
    // The engine's index: where Engine lives inside src/engine differs between builds.
    ...(await load('engine/index.js')),
    ...(await load('core/position.js')),
    ...(await load(loader)),
  } as unknown as BuildModules;
  const nnue = classical ? null : m.loadNnue(`${root}/weights/nnue.bin`);
  const engine = new m.Engine({ hashMb: 16, nnue });
  return () => {
    let nodes = 0;
    const cpu0 = process.cpuUsage();
    for (const fen of m.BENCH_FENS) {
      engine.newGame();
      nodes += engine.search(m.Position.fromFen(fen), { depth }).nodes;
    }
    const cpu = process.cpuUsage(cpu0);
    return { nodes, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
}

async function main(): Promise<void> {
  const { values } = parseCommandArgs(
    'search-ab',
    process.argv.slice(2),
    {
      a: { type: 'string' },
      b: { type: 'string' },
      depth: { type: 'string' },
      rounds: { type: 'string' },
      classical: { type: 'boolean' },
    },
    0,
  );
  if (typeof values.a !== 'string' || typeof values.b !== 'string') throw new UsageError('--a DIR and --b DIR are required');
  const depth = values.depth === undefined ? 11 : parseIntIn('--depth', String(values.depth), 1, 30);
  const rounds = values.rounds === undefined ? 30 : parseIntIn('--rounds', String(values.rounds), 1, 1000);
  const classical = values.classical === true;
  const a = await loadBuild(values.a, classical, depth),
    b = await loadBuild(values.b, classical, depth);
  a(); // warm-up: both builds compiled before anything is timed
  b();
  const ratios: number[] = [];
  let last: [Round, Round] | undefined;
  for (let r = 0; r < rounds; r++) {
    let ra: Round, rb: Round;
    if (r % 2 === 0) {
      ra = a();
      rb = b();
    } else {
      rb = b();
      ra = a();
    }
    ratios.push(ra.cpuMs / rb.cpuMs);
    last = [ra, rb];
    console.log(`round ${r + 1}: A ${ra.cpuMs.toFixed(0)} ms, B ${rb.cpuMs.toFixed(0)} ms, A/B ${(ra.cpuMs / rb.cpuMs).toFixed(3)}`);
  }
  const [ra, rb] = last!;
  console.log(`nodes to depth ${depth}: A ${ra.nodes}, B ${rb.nodes}`);
  const sorted = ratios.slice().sort((x, y) => x - y);
  console.log(
    `time to depth, A over B: median ${median(ratios).toFixed(3)} over ${rounds} rounds (quartiles ${sorted[Math.floor(rounds / 4)].toFixed(3)}, ${sorted[Math.floor((3 * rounds) / 4)].toFixed(3)})`,
  );
}

await runScript('search-ab', main);
