/**
 * Bundles each of the package's browser entries (package.json "exports": the root, core, engine,
 * compat) with esbuild for platform 'browser', minified, and measures them: bytes and gzipped
 * bytes, plus what a program importing one name pulls in (tree shaking, "sideEffects": false).
 * A Node built-in reachable from an entry fails its bundle. docs/library.md lists the figures.
 *
 * Usage: node dist/scripts/bundle-sizes.js        (after npm run build; prints a Markdown table)
 */
import { build, type Metafile } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { runScript } from '../src/cmdline/errors.js';
import { repoRoot } from './build-web.js';

/** The entries that must bundle for browsers (matrix-chess/node is Node's; matrix-chess/worker is a prebuilt script). */
export const BROWSER_ENTRIES = ['.', './core', './engine', './compat'] as const;

export interface BundleSize {
  /** What was bundled: an entry ('.', './core', …) or `{ names } from entry`. */
  label: string;
  bytes: number;
  gzipBytes: number;
  /** Imports left outside the bundle (a browser bundle must have none). */
  external: string[];
  /** Modules with code in the bundle (tree shaking drops the others). */
  inputs: string[];
  /** Every module the bundler resolved, kept or not (a Node built-in among them fails the bundle). */
  resolved: string[];
}

/** The built file an entry of package.json "exports" points at. */
export function entryFile(entry: string): string {
  const root = repoRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
  const target = pkg.exports[entry];
  if (target === undefined) throw new Error(`package.json has no export '${entry}'`);
  return join(root, target.default);
}

function measure(label: string, text: string, metafile: Metafile): BundleSize {
  const external = Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  return {
    label,
    bytes: Buffer.byteLength(text),
    gzipBytes: gzipSync(text, { level: 9 }).length,
    external,
    inputs: Object.values(metafile.outputs).flatMap((o) => Object.keys(o.inputs).filter((f) => o.inputs[f].bytesInOutput > 0)),
    resolved: Object.keys(metafile.inputs),
  };
}

/**
 * `entry` bundled for browsers, minified; `names`: only those names imported from it (what
 * tree shaking leaves). Rejects with esbuild's error when the entry reaches a Node built-in.
 */
export async function bundleEntry(entry: string, names?: string[]): Promise<BundleSize> {
  const file = entryFile(entry);
  const common = {
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    metafile: true,
    logLevel: 'silent',
  } as const;
  const result =
    names === undefined
      ? await build({ ...common, entryPoints: [file] })
      : await build({
          ...common,
          stdin: { contents: `export { ${names.join(', ')} } from ${JSON.stringify(file)};`, resolveDir: repoRoot(), loader: 'js' },
        });
  const label = names === undefined ? entry : `{ ${names.join(', ')} } from ${entry}`;
  return measure(label, result.outputFiles[0].text, result.metafile);
}

/** What a program importing one thing gets, beside the whole entries. */
export const SINGLE_IMPORTS: Array<[string, string[]]> = [
  ['.', ['Chess']],
  ['.', ['createEngine']],
  ['.', ['Engine']],
];

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runScript('bundle-sizes', async () => {
    const rows = [
      ...(await Promise.all(BROWSER_ENTRIES.map((e) => bundleEntry(e)))),
      ...(await Promise.all(SINGLE_IMPORTS.map(([e, names]) => bundleEntry(e, names)))),
    ];
    console.log('| bundled for browsers (esbuild, minified) | size | gzipped |');
    console.log('| --- | ---: | ---: |');
    for (const r of rows) {
      const name = r.label
        .replace(/^\.(\/\w+)?/, (_m, sub: string | undefined) => `matrix-chess${sub ?? ''}`)
        .replace(/ from \.(\/\w+)?$/, (_m, sub: string | undefined) => ` from matrix-chess${sub ?? ''}`);
      console.log(`| \`${name}\` | ${kb(r.bytes)} | ${kb(r.gzipBytes)} |`);
    }
  });
}
