/**
 * Builds the UCI Web Worker (web/uci-worker.ts) into dist/worker/: one classic worker script,
 * matrix-chess-worker.js, plus the files it fetches from beside itself: the evaluation network
 * (nnue.bin), its WebAssembly kernel (nnue.wasm) and the BNN weights (bnn-16x32x1.bin, bnn-16x8x1.bin). Part of
 * `npm run build`, so the published package ships it (package.json "exports": "./worker").
 *
 * Usage: node dist/scripts/build-worker.js [--no-minify] [--out DIR]
 */
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandArgs } from '../src/cmdline/args.js';
import { runScript, UsageError } from '../src/cmdline/errors.js';
import { repoRoot } from './build-web.js';

export const WORKER_SCRIPT = 'matrix-chess-worker.js';

/** The types of `matrix-chess/worker`: a script to start, not a module to import; its messages are strings. */
const DECLARATION = `/**
 * matrix-chess/worker is a classic Web Worker script (docs/worker.md), not a module to import:
 * start it with new Worker(url), post UCI commands, receive UCI output lines.
 */
/** A message to the worker: one UCI command line (or several, separated by newlines). */
export type UciWorkerCommand = string;
/** A message from the worker: one UCI output line, such as 'uciok' or 'bestmove e7e5'. */
export type UciWorkerLine = string;
`;

export async function buildWorker(options: { minify?: boolean; outDir?: string; quiet?: boolean } = {}): Promise<string> {
  const root = repoRoot();
  const outDir = options.outDir ?? join(root, 'dist', 'worker');
  const files: Array<[string, string]> = [
    [join(root, 'weights', 'nnue.bin'), 'nnue.bin'],
    [join(root, 'dist', 'nnue', 'nnue.wasm'), 'nnue.wasm'],
    [join(root, 'weights', 'bnn-16x32x1.bin'), 'bnn-16x32x1.bin'],
    [join(root, 'weights', 'bnn-16x8x1.bin'), 'bnn-16x8x1.bin'],
  ];
  for (const [from] of files)
    if (!existsSync(from)) throw new UsageError(`build-worker: ${from} is missing (run npm run build:wasm first)`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const script = join(outDir, WORKER_SCRIPT);
  await build({
    entryPoints: [join(root, 'web', 'uci-worker.ts')],
    outfile: script,
    bundle: true,
    minify: options.minify ?? true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'error',
    absWorkingDir: root,
    // No Node built-in is reachable from the worker (the UCI code's Node side is src/uci/*-node.ts):
    // esbuild fails the build if one is.
  });
  for (const [from, name] of files) copyFileSync(from, join(outDir, name));
  writeFileSync(script.replace(/\.js$/, '.d.ts'), DECLARATION);
  if (!options.quiet) console.log(`worker build: ${script} (${(statSync(script).size / 1024).toFixed(1)} KB)`);
  return script;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runScript('build-worker', async () => {
    const { values } = parseCommandArgs(
      'build-worker',
      process.argv.slice(2),
      { 'no-minify': { type: 'boolean' }, out: { type: 'string' } },
      0,
    );
    await buildWorker({ minify: values['no-minify'] !== true, outDir: values.out as string | undefined });
  });
}
