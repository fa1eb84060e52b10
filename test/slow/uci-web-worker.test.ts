/**
 * The UCI Web Worker (dist/worker/matrix-chess-worker.js, built by scripts/build-worker.ts) in
 * Debian's Chromium: a tiny page starts it with `new Worker(...)` and talks UCI to it by
 * postMessage, as a site embedding the engine would. Checked twice: on a plain page (no
 * SharedArrayBuffer, so stop replaces the search thread) and on a cross-origin-isolated page
 * (stop through the shared control block).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../browser.js';
import { buildWorker } from '../../scripts/build-worker.js';
import { CROSS_ORIGIN_ISOLATION, serveDir } from '../../scripts/serve-web.js';
import { legalMoveList, replayUciMoves } from '../../src/core/notation.js';
import { moveToUci } from '../../src/core/move.js';
import { START_FEN } from '../../src/core/fen.js';

// Callbacks passed to page.evaluate/waitForFunction run in the browser; the root tsconfig has no DOM lib.
declare const window: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const PAGE = `<!doctype html><meta charset="utf-8"><title>worker</title><script>
window.lines = [];
window.engine = new Worker('worker/matrix-chess-worker.js');
window.engine.onmessage = (e) => window.lines.push(e.data);
window.engine.onerror = (e) => window.lines.push('worker error: ' + e.message);
</script>`;

let dir: string;
let browser: BrowserContext;
let profile: string;
const servers: Server[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matrix-chess-worker-'));
  await buildWorker({ outDir: join(dir, 'worker'), quiet: true });
  writeFileSync(join(dir, 'index.html'), PAGE);
  ({ browser, profile } = await launchChromium());
});

after(async () => {
  await browser?.close();
  for (const s of servers) await new Promise<void>((ok) => s.close(() => ok()));
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openEngine(headers: Record<string, string> = {}): Promise<{ page: Page; errors: string[]; isolated: boolean }> {
  const server = await serveDir(dir, 0, '127.0.0.1', headers);
  servers.push(server);
  const addr = server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`;
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) errors.push(`external request: ${r.url()}`);
  });
  await page.goto(base);
  const isolated = (await page.evaluate(() => window.crossOriginIsolated)) as boolean;
  return { page, errors, isolated };
}

/** Posts `command` and waits for the first new line matching `until`; returns every line since the command. */
async function send(page: Page, command: string, until?: RegExp, timeout = 30_000): Promise<string[]> {
  const from = (await page.evaluate(() => window.lines.length)) as number;
  await page.evaluate((c) => window.engine.postMessage(c), command);
  if (!until) return [];
  await page.waitForFunction(
    ([n, src]) => window.lines.slice(n).some((l: string) => new RegExp(src).test(l)),
    [from, until.source] as const,
    { timeout },
  );
  return (await page.evaluate((n) => window.lines.slice(n), from)) as string[];
}

function assertLegal(bestmoveLine: string | undefined, moves: string[]): string {
  const m = /^bestmove (\S+)/.exec(bestmoveLine ?? '');
  assert.ok(m, `a bestmove line, got ${bestmoveLine}`);
  const legal = legalMoveList(replayUciMoves(START_FEN, moves)).map(moveToUci);
  assert.ok(legal.includes(m[1]), `${m[1]} is legal after ${moves.join(' ')}`);
  return m[1];
}

/** The first move of the last PV reported before the bestmove. */
function lastPvMove(lines: string[]): string | undefined {
  const pvs = lines.filter((l) => l.startsWith('info depth') && l.includes(' pv ')).map((l) => / pv (\S+)/.exec(l)![1]);
  return pvs[pvs.length - 1];
}

for (const mode of ['plain page', 'cross-origin isolated page'] as const) {
  test(`UCI worker on a ${mode}: uci, isready, go, go infinite + stop, bad input, NNUE`, async () => {
    const headers = mode === 'plain page' ? {} : CROSS_ORIGIN_ISOLATION;
    const { page, errors, isolated } = await openEngine(headers);
    assert.equal(isolated, mode !== 'plain page', 'the page is cross-origin isolated exactly when served with COOP/COEP');

    const hello = await send(page, 'uci', /^uciok$/);
    assert.ok(hello.includes('id name Matrix Chess'), hello.join('\n'));
    assert.ok(hello.some((l) => l.startsWith('option name Hash type spin')));
    assert.deepEqual(await send(page, 'isready', /^readyok$/), ['readyok']);

    // A fixed-depth search: every depth reported, then a legal move.
    await send(page, 'position startpos moves e2e4');
    const search = await send(page, 'go depth 5', /^bestmove/);
    assert.ok(
      search.some((l) => l.startsWith('info depth 5 ')),
      search.join('\n'),
    );
    assertLegal(search.at(-1), ['e2e4']);

    // go infinite answers only after stop, and stop is read while the search runs.
    await send(page, 'position startpos moves d2d4 g8f6');
    const goAt = (await page.evaluate(() => window.lines.length)) as number;
    const running = await send(page, 'go infinite', /^info depth 6 /, 60_000);
    assert.ok(!running.some((l) => l.startsWith('bestmove')), 'no bestmove before stop');
    const ready = await send(page, 'isready', /^readyok$/);
    assert.ok(!ready.some((l) => l.startsWith('bestmove')), `isready is answered during the search: ${ready.join('\n')}`);
    const t0 = Date.now();
    const stopped = await send(page, 'stop', /^bestmove/, 5_000);
    const stopMs = Date.now() - t0;
    const best = assertLegal(
      stopped.find((l) => l.startsWith('bestmove')),
      ['d2d4', 'g8f6'],
    );
    const infinite = (await page.evaluate(() => window.lines)) as string[];
    assert.equal(best, lastPvMove(infinite.slice(goAt)), 'stop plays the first move of the last reported PV');
    assert.ok(stopMs < 3_000, `bestmove ${stopMs} ms after stop`);

    // Bad input: a one-line info string, and the engine keeps answering.
    assert.ok((await send(page, 'frobnicate', /^info string/)).includes("info string unknown command 'frobnicate'"));
    const badPos = await send(page, 'position startpos moves e2e5', /^info string/);
    assert.match(badPos[0], /^info string .*e2e5.*; keeping the previous position$/);
    assert.deepEqual(await send(page, 'isready', /^readyok$/), ['readyok']);
    assertLegal((await send(page, 'go depth 3', /^bestmove/)).at(-1), ['d2d4', 'g8f6']);

    // Levels by Elo: the options reach the worker's engine, which reports its MultiPV lines and plays a legal move.
    assert.ok(hello.includes('option name UCI_Elo type spin default 2400 min 800 max 2400'), hello.join('\n'));
    const badElo = await send(page, 'setoption name UCI_Elo value 3000', /^info string/);
    assert.equal(badElo[0], 'info string setoption UCI_Elo: 3000 is out of range (800 to 2400)');
    await send(page, 'setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1400\nisready', /^readyok$/);
    const weak = await send(page, 'go wtime 5000 btime 5000', /^bestmove/);
    assert.ok(
      weak.some((l) => / multipv 2 /.test(l)),
      weak.join('\n'),
    );
    assertLegal(weak.at(-1), ['d2d4', 'g8f6']);
    await send(page, 'setoption name UCI_LimitStrength value false\nisready', /^readyok$/);

    // The learned evaluation: the network and its WebAssembly kernel fetched from beside the script.
    const nnue = await send(page, 'setoption name UseNNUE value true\nisready', /^readyok$/);
    assert.ok(
      nnue.some((l) =>
        /^info string evaluation: NNUE http:\/\/127\.0\.0\.1:\d+\/worker\/nnue\.bin: 768x2-\d+-\d+ buckets, wasm kernel/.test(l),
      ),
      nnue.join('\n'),
    );
    await send(page, 'position startpos');
    assertLegal((await send(page, 'go depth 4', /^bestmove/)).at(-1), []);
    const missing = await send(page, 'setoption name EvalFile value no-such.bin\nisready', /^readyok$/);
    assert.ok(
      missing.some((l) => /^info string .*no-such\.bin.*HTTP 404.*; keeping the NNUE http:\S+\/worker\/nnue\.bin/.test(l)),
      missing.join('\n'),
    );

    // quit answers an isready sent before it (in the same message), then ends the worker:
    // nothing answers any more.
    await send(page, 'isready\nquit', /^readyok$/);
    const before = (await page.evaluate(() => window.lines.length)) as number;
    await send(page, 'isready');
    await page.waitForTimeout(1_000);
    assert.equal(await page.evaluate(() => window.lines.length), before, 'no answer after quit');
    // The only console error is the browser's report of the missing file asked for above.
    assert.deepEqual(errors, ['Failed to load resource: the server responded with a status of 404 (Not Found)']);
    await page.close();
  });
}
