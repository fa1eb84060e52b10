/**
 * The asynchronous engine in Debian's Chromium (playwright-core): `createEngine` from the root
 * entry runs the package's UCI worker (dist/worker/matrix-chess-worker.js) and analyses through
 * it. Twice: on a plain page loading the package's own ES modules unbundled (dist/src/index.js,
 * the worker found by its default URL beside them; no SharedArrayBuffer, so stop replaces the
 * search thread), and on a cross-origin-isolated page loading the root entry bundled by esbuild
 * for browsers (the worker's URL given). Each time: depth 6, MultiPV 3, an abort mid-search, a bad
 * limit refused, the same tree as Node's `new Engine({ nnue: loadNnue() })`, and the synchronous
 * Engine on the network from bytes (nnueFromBytes, fetched) searching that same tree in the page.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { build } from 'esbuild';
import type { BrowserContext } from 'playwright-core';
import { launchChromium } from '../browser.js';
import { repoRoot } from '../../scripts/build-web.js';
import { CROSS_ORIGIN_ISOLATION, serveDir } from '../../scripts/serve-web.js';
import { Engine } from '../../src/engine/index.js';
import { loadNnue } from '../../src/engine/nnue/load-node.js';
import { Position } from '../../src/core/position.js';
import { moveToUci } from '../../src/core/move.js';
import { legalMoveList } from '../../src/core/notation.js';
import { START_FEN } from '../../src/core/fen.js';
import type { Analysis } from '../../src/client/engine-client.js';

// Callbacks passed to page.evaluate run in the browser; the root tsconfig has no DOM lib.
declare const window: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const location: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare function fetch(url: unknown): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ITALIAN = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';
const page = (module: string): string =>
  `<!doctype html><meta charset="utf-8"><title>engine</title><link rel="icon" href="data:,"><script type="module">
import * as lib from '${module}';
window.lib = lib;
</script>`;

let dir: string;
let browser: BrowserContext;
let profile: string;
const servers: Server[] = [];

before(async () => {
  const root = repoRoot();
  dir = mkdtempSync(join(tmpdir(), 'matrix-chess-client-web-'));
  // The package's built files as a site would serve them: dist/src (ES modules) and dist/worker.
  symlinkSync(join(root, 'dist'), join(dir, 'dist'));
  writeFileSync(join(dir, 'modules.html'), page('./dist/src/index.js'));
  mkdirSync(join(dir, 'bundle'));
  await build({
    entryPoints: [join(root, 'dist', 'src', 'index.js')],
    outfile: join(dir, 'bundle', 'lib.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    logLevel: 'error',
  });
  writeFileSync(join(dir, 'bundle.html'), page('./bundle/lib.js'));
  ({ browser, profile } = await launchChromium());
});

after(async () => {
  await browser?.close();
  for (const s of servers) await new Promise<void>((ok) => s.close(() => ok()));
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface PageResult {
  name: string;
  evaluation: string[];
  isolated: boolean;
  depth6: Analysis;
  multi: Analysis;
  aborted: Analysis;
  invalid: { name: string; field: string; message: string };
  sameTree: Analysis;
  sync: { nodes: number; best: string; evaluation: string };
}

const cases = [
  { mode: 'a plain page, the package modules unbundled, the default worker URL', file: 'modules.html', headers: {}, workerUrl: null },
  {
    mode: 'a cross-origin isolated page, the root entry bundled by esbuild',
    file: 'bundle.html',
    headers: CROSS_ORIGIN_ISOLATION,
    workerUrl: 'dist/worker/matrix-chess-worker.js',
  },
];

for (const c of cases) {
  test(`createEngine in Chromium on ${c.mode}: analyse, MultiPV, abort, bad limits, the same network as Node`, async () => {
    const server = await serveDir(dir, 0, '127.0.0.1', c.headers);
    servers.push(server);
    const addr = server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`;
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    tab.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await tab.goto(base + c.file);
    await tab.waitForFunction(() => window.lib !== undefined, null, { timeout: 30_000 });

    const r = (await tab.evaluate(
      async ([workerUrl, italian]) => {
        const lib = window.lib;
        const engine = await lib.createEngine(workerUrl === null ? {} : { workerUrl });
        const depth6 = await engine.analyse('startpos', { depth: 6 });
        const multi = await engine.analyse(italian, { depth: 5, multiPv: 3 });
        const controller = new AbortController();
        const aborted = await engine.analyse('startpos', {
          infinite: true,
          signal: controller.signal,
          onInfo: (l: { depth: number }) => l.depth >= 6 && controller.abort(),
        });
        let invalid;
        try {
          await engine.analyse('startpos', { depth: -1 });
        } catch (e) {
          invalid = { name: (e as Error).name, field: (e as { field: string }).field, message: (e as Error).message };
        }
        const evaluation = await engine.setOption('UseNNUE', true);
        await engine.newGame();
        const sameTree = await engine.analyse(italian, { depth: 6 });
        const name = engine.name;
        await engine.quit();
        // The synchronous engine on this thread, with the network fetched as bytes from beside the worker.
        const folder = new URL(workerUrl ?? 'dist/worker/matrix-chess-worker.js', location.href);
        const [net, wasm] = await Promise.all(
          ['nnue.bin', 'nnue.wasm'].map((f) => fetch(new URL(f, folder)).then((res) => res.arrayBuffer())),
        );
        const sync = new lib.Engine({ nnue: lib.nnueFromBytes(net, { wasm, source: 'nnue.bin' }) });
        const result = sync.search(new lib.Chess(italian).position, { depth: 6 });
        return {
          name,
          evaluation,
          isolated: window.crossOriginIsolated,
          depth6,
          multi,
          aborted,
          invalid,
          sameTree,
          sync: { nodes: result.nodes, best: lib.moveToUci(result.bestMove), evaluation: sync.evaluation },
        };
      },
      [c.workerUrl, ITALIAN] as const,
    )) as PageResult;

    assert.equal(r.name, 'Matrix Chess');
    assert.match(r.evaluation.join('\n'), /^evaluation: NNUE http:\S+\/dist\/worker\/nnue\.bin: 768x2-\d+-\d+ buckets, wasm kernel/);
    assert.equal(r.isolated, c.file === 'bundle.html');
    const startMoves = legalMoveList(Position.fromFen(START_FEN)).map(moveToUci);
    assert.equal(r.depth6.lines[0].depth, 6);
    assert.equal(r.depth6.bestmove, r.depth6.lines[0].pv[0]);
    assert.ok(startMoves.includes(r.depth6.bestmove!));
    assert.equal(r.multi.lines.length, 3);
    assert.equal(new Set(r.multi.lines.map((l) => l.pv[0])).size, 3);
    assert.equal(r.aborted.stopped, true);
    assert.ok(r.aborted.lines[0].depth >= 6);
    assert.ok(startMoves.includes(r.aborted.bestmove!));
    assert.equal(r.aborted.bestmove, r.aborted.lines[0].pv[0], 'the move of the last reported line');
    assert.deepEqual({ name: r.invalid.name, field: r.invalid.field }, { name: 'SearchLimitError', field: 'depth' });

    // The same network, the same tree: Node's synchronous engine with the package's file.
    const node = new Engine({ nnue: loadNnue() }).search(Position.fromFen(ITALIAN), { depth: 6 });
    assert.equal(r.sameTree.lines[0].nodes, node.nodes, 'the worker engine searched the tree Node searches');
    assert.equal(r.sameTree.bestmove, moveToUci(node.bestMove));
    assert.equal(r.sync.nodes, node.nodes, 'the page engine on nnueFromBytes searched the same tree');
    assert.equal(r.sync.best, moveToUci(node.bestMove));
    assert.match(r.sync.evaluation, /^NNUE nnue\.bin: 768x2-\d+-\d+ buckets, wasm kernel/);
    assert.deepEqual(errors, []);
    await tab.close();
  });
}
