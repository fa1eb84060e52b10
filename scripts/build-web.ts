/**
 * Builds the web app into dist/web: the page and the engine worker bundled by esbuild from the
 * same TypeScript sources as the CLI (src/core, src/engine, src/matrix, src/bnn), chessground's
 * CSS, the HTML, and the BNN weights when they exist.
 *
 * Usage: node dist/scripts/build-web.js [--no-minify]
 */
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { weightsFileName } from '../src/bnn/weights.js';
import { parseCommandArgs } from '../src/cmdline/args.js';
import { runScript } from '../src/cmdline/errors.js';
import { LAYOUT_16, LAYOUT_8 } from '../src/bnn/network.js';

/** Repository root, found from this file whether it runs as scripts/*.ts or dist/scripts/*.js. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('build-web: cannot find the repository root (no package.json above this script)');
    dir = up;
  }
  return dir;
}

export interface WebBuildResult {
  outDir: string;
  /** Minified bytes per emitted file. */
  sizes: Record<string, number>;
  weights: string | null;
  /** The 16x8x1 weights' URL (the network panel's small networks), or null. */
  smallWeights: string | null;
}

export async function buildWeb(
  options: { minify?: boolean; quiet?: boolean; weightsFile?: string; outDir?: string } = {},
): Promise<WebBuildResult> {
  const root = repoRoot();
  const outDir = options.outDir ?? join(root, 'dist', 'web');
  const minify = options.minify ?? true;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // BNN weights: the 16x32x1 file, served next to the page and fetched on demand.
  let weights: string | null = null;
  const wDir = join(root, 'weights');
  if (options.weightsFile) {
    const name = basename(options.weightsFile);
    mkdirSync(join(outDir, 'weights'), { recursive: true });
    copyFileSync(options.weightsFile, join(outDir, 'weights', name));
    weights = `weights/${name}`;
  } else {
    const name = weightsFileName(LAYOUT_16);
    if (existsSync(join(wDir, name))) {
      mkdirSync(join(outDir, 'weights'), { recursive: true });
      copyFileSync(join(wDir, name), join(outDir, 'weights', name));
      weights = `weights/${name}`;
    }
  }
  // The small 16x8x1 networks, shown beside the seed's in the network panel.
  let smallWeights: string | null = null;
  const smallName = weightsFileName(LAYOUT_8);
  if (existsSync(join(wDir, smallName))) {
    mkdirSync(join(outDir, 'weights'), { recursive: true });
    copyFileSync(join(wDir, smallName), join(outDir, 'weights', smallName));
    smallWeights = `weights/${smallName}`;
  }

  // The evaluation network and its kernel, served next to the page; null when the build has none.
  let nnue: { net: string; wasm: string } | null = null;
  const netFile = join(wDir, 'nnue.bin'),
    wasmFile = join(root, 'dist', 'nnue', 'nnue.wasm');
  if (existsSync(netFile) && existsSync(wasmFile)) {
    mkdirSync(join(outDir, 'weights'), { recursive: true });
    copyFileSync(netFile, join(outDir, 'weights', 'nnue.bin'));
    copyFileSync(wasmFile, join(outDir, 'nnue.wasm'));
    nnue = { net: 'weights/nnue.bin', wasm: 'nnue.wasm' };
  }

  const common = {
    bundle: true,
    minify,
    sourcemap: false,
    target: 'es2022',
    logLevel: 'error' as const,
    absWorkingDir: root,
    // The browser code reaches no Node built-in (the Node-only modules are *-node.ts, which it
    // never imports): esbuild fails the build if one is reachable.
    platform: 'browser' as const,
    define: {
      __BNN_WEIGHTS__: JSON.stringify(weights),
      __BNN_SMALL_WEIGHTS__: JSON.stringify(smallWeights),
      __NNUE__: JSON.stringify(nnue),
    },
  };
  await build({ ...common, entryPoints: [join(root, 'web', 'main.ts')], outfile: join(outDir, 'app.js'), format: 'esm' });
  await build({ ...common, entryPoints: [join(root, 'web', 'engine-worker.ts')], outfile: join(outDir, 'worker.js'), format: 'iife' });
  await build({ ...common, entryPoints: [join(root, 'web', 'engine-helper.ts')], outfile: join(outDir, 'helper.js'), format: 'iife' });

  copyFileSync(join(root, 'web', 'index.html'), join(outDir, 'index.html'));
  copyFileSync(join(root, 'web', 'style.css'), join(outDir, 'style.css'));
  // Opening names (lichess's CC0 list, web/openings/README.md), fetched by the page once.
  copyFileSync(join(root, 'web', 'openings', 'openings.tsv'), join(outDir, 'openings.tsv'));
  const cgAssets = join(root, 'node_modules', 'chessground', 'assets');
  for (const f of ['chessground.base.css', 'chessground.brown.css', 'chessground.cburnett.css']) {
    copyFileSync(join(cgAssets, f), join(outDir, f));
  }

  const sizes: Record<string, number> = {};
  for (const f of readdirSync(outDir)) {
    const p = join(outDir, f);
    if (statSync(p).isFile()) sizes[f] = statSync(p).size;
  }
  if (weights) sizes[weights] = statSync(join(outDir, weights)).size;
  if (smallWeights) sizes[smallWeights] = statSync(join(outDir, smallWeights)).size;
  if (!options.quiet) {
    const kb = (n: number) => (n / 1024).toFixed(1) + ' KB';
    console.log(`web build: ${outDir}`);
    for (const [f, n] of Object.entries(sizes)) console.log(`  ${f.padEnd(26)} ${kb(n)}`);
    if (!weights) console.log('  (no weights/ directory: the neural backend and panel will say so in the page)');
  }
  return { outDir, sizes, weights, smallWeights };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runScript('build-web', async () => {
    const { values } = parseCommandArgs('build-web', process.argv.slice(2), { 'no-minify': { type: 'boolean' } }, 0);
    await buildWeb({ minify: values['no-minify'] !== true });
  }).catch((e: unknown) => {
    console.error(`build-web: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    process.exit(1);
  });
}
