/**
 * The web app in a real browser: Debian's Chromium driven by playwright-core. Builds dist/web,
 * serves it on a free localhost port, and plays through the page like a user: a refused illegal
 * drop, e2–e4 by clicks, the engine's reply (checked legal by our core, replaying the page's
 * PGN), the matrix and network panels, bad FEN/PGN input, Stop, and a phone-width layout.
 * Screenshots go to artifacts/ (web-screenshot.png, web-phone.png).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { openWebApp, pastePgn, type WebAppSession } from '../browser.js';
import { repoRoot } from '../../scripts/build-web.js';
import { Position } from '../../src/core/position.js';
import { START_FEN } from '../../src/core/fen.js';
import { squareName } from '../../src/core/types.js';
import { parseSan, parseUciMove } from '../../src/core/notation.js';
import { loadNetwork, nnueFromNetwork } from '../../src/engine/nnue/load-node.js';
import { moveToUci } from '../../src/core/move.js';
import { LAYOUT_16, LAYOUT_8, OUTPUT_THRESHOLD, thresholdOffset } from '../../src/bnn/network.js';
import { SQUARE_LAYOUTS } from '../../src/bnn/layout.js';
import { weightsFileName } from '../../src/bnn/weights.js';
import { readWeightsFile } from '../../src/bnn/weights-node.js';

// Callbacks passed to page.evaluate/waitForFunction run in the browser; the root tsconfig has no DOM lib.
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const window: any; // eslint-disable-line @typescript-eslint/no-explicit-any

let app: WebAppSession;
let browser: BrowserContext;
let base: string;
const artifacts = join(repoRoot(), 'artifacts');

before(async () => {
  // Build into a temp dir (dist/web is left alone), with the shipped weights: the network panel's
  // attack set is checked against the real answer, so the file must be there.
  const weightsFile = join(repoRoot(), 'weights', weightsFileName(LAYOUT_16));
  assert.ok(existsSync(weightsFile), `${weightsFile} is missing: it is committed with the repository`);
  app = await openWebApp('matrix-chess-web-', { weightsFile });
  ({ browser, base } = app);
  mkdirSync(artifacts, { recursive: true });
});

after(async () => {
  await app?.close();
});

async function openPage(width = 1280, height = 900): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // Offline: anything not served by our server is a failure.
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) errors.push(`external request: ${r.url()}`);
  });
  // The page keeps its game across reloads (localStorage, shared by the tests' pages): start fresh.
  await page.addInitScript(() => window.localStorage.clear());
  await page.goto(base);
  await page.waitForFunction(() => document.querySelectorAll('cg-board piece').length === 32);
  return { page, errors };
}

/** Page coordinates of a square's centre (board shown from White's side unless flipped). */
async function squareCenter(page: Page, square: string, orientation: 'white' | 'black' = 'white'): Promise<{ x: number; y: number }> {
  const box = await page.locator('cg-board').boundingBox();
  assert.ok(box, 'board has a bounding box');
  let f = square.charCodeAt(0) - 97,
    r = square.charCodeAt(1) - 49;
  if (orientation === 'black') {
    f = 7 - f;
    r = 7 - r;
  }
  return { x: box.x + ((f + 0.5) * box.width) / 8, y: box.y + ((7 - r + 0.5) * box.height) / 8 };
}

async function clickSquare(page: Page, square: string): Promise<void> {
  const p = await squareCenter(page, square);
  await page.mouse.click(p.x, p.y);
}

const pageFen = (page: Page) => page.inputValue('[data-testid=fen]');
const pagePgn = (page: Page) => page.inputValue('[data-testid=pgn]');

/** Replays the page's PGN movetext with our core (every SAN must be legal) and returns the final FEN and UCI moves. */
function replayPgn(pgn: string): { fen: string; uci: string[] } {
  const body = pgn
    .split('\n')
    .filter((l) => !l.startsWith('['))
    .join(' ');
  const pos = Position.fromFen(START_FEN);
  const uci: string[] = [];
  for (const tok of body.split(/\s+/)) {
    if (tok === '' || /^\d+\.+$/.test(tok) || /^(1-0|0-1|1\/2-1\/2|\*)$/.test(tok)) continue;
    const m = parseSan(pos, tok); // throws on an illegal move
    uci.push(moveToUci(m));
    pos.makeMove(m);
  }
  return { fen: pos.toFen(), uci };
}

test('page loads offline, refuses an illegal drop, plays e2-e4 by clicks, and the engine answers legally', async () => {
  const { page, errors } = await openPage();
  assert.equal(await pageFen(page), START_FEN);

  // Illegal drag e2 -> e5: the board must stay as it was.
  const a = await squareCenter(page, 'e2'),
    b = await squareCenter(page, 'e5');
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
  await page.waitForTimeout(300);
  assert.equal(await pageFen(page), START_FEN, 'illegal drop changed the game');
  assert.equal(await page.locator('cg-board piece.pawn.white').count(), 8);
  assert.equal(await page.evaluate(() => document.getElementById('board').dataset.fen), START_FEN);

  // e2 then e4 by clicks.
  await clickSquare(page, 'e2');
  await clickSquare(page, 'e4');
  // The engine (Black) answers: two plies in the PGN and White to move again.
  await page.waitForFunction(
    () => document.querySelector('[data-testid=fen]').value.split(' ')[1] === 'w' && document.querySelectorAll('#moves .san').length === 2,
    undefined,
    { timeout: 30_000 },
  );
  const replay = replayPgn(await pagePgn(page));
  assert.equal(replay.uci[0], 'e2e4');
  assert.equal(replay.uci.length, 2);
  assert.equal(replay.fen, await pageFen(page), 'page FEN agrees with replaying its PGN in the core');
  assert.match((await page.textContent('[data-testid=eval]')) ?? '', /^[+-]?\d+\.\d\d$|^#-?\d+$/);
  assert.notEqual((await page.textContent('[data-testid=pv]'))?.trim(), '–');
  // Served cross-origin isolated (COOP/COEP headers): one search thread per core, up to 8.
  assert.equal(await page.evaluate(() => window.crossOriginIsolated), true);
  const cores = await page.evaluate(() => window.navigator.hardwareConcurrency as number);
  const thinking = (await page.textContent('#thinking')) ?? '';
  if (cores >= 2) assert.match(thinking, new RegExp(`, ${Math.min(8, cores)} threads$`), thinking);
  else assert.doesNotMatch(thinking, /threads/, thinking);
  assert.equal(await page.textContent('[data-testid=message]'), '', 'no helper thread failed');

  // Last-move panel: M, Z, v·E, M′ with the changed cells of the engine's move highlighted.
  const panel = page.locator('[data-testid=move-update]');
  await panel.waitFor();
  for (const id of ['grid-M', 'grid-Z', 'grid-vE', 'grid-Mprime'])
    assert.equal(await panel.locator(`[data-testid=${id}] td`).count(), 64, id);
  assert.equal(await panel.locator('[data-testid=grid-Z] td.changed').count(), 2, 'Z has two zeros');
  assert.ok((await panel.locator('[data-testid=grid-Mprime] td.changed').count()) >= 2);
  assert.equal(await panel.locator('p.bad').count(), 0, 'M′ agrees with MatrixPosition');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the engine answers through the shared backend registry with the matrix and both neural backends', async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#strength', 'depth:2');
  const backends = ['matrix', 'bnn', 'bnn-16x8x1'];
  const whiteMoves = [
    ['e2', 'e4'],
    ['g1', 'f3'],
    ['b1', 'c3'],
  ];
  for (let i = 0; i < backends.length; i++) {
    await page.selectOption('#backend', backends[i]);
    await clickSquare(page, whiteMoves[i][0]);
    await clickSquare(page, whiteMoves[i][1]);
    await page.waitForFunction((n) => document.querySelectorAll('#moves .san').length === n, 2 * (i + 1), { timeout: 30_000 });
    assert.match(
      (await page.textContent('#thinking')) ?? '',
      new RegExp(`^${backends[i]}, (classical evaluation|network \\d+×2, wasm): depth 2, `),
      'the backend that answered',
    );
    const replay = replayPgn(await pagePgn(page));
    assert.equal(replay.uci.length, 2 * (i + 1));
    assert.equal(replay.fen, await pageFen(page), 'every engine move is legal in the core');
  }
  assert.equal(await page.textContent('[data-testid=message]'), '', 'no backend fell back');
  assert.deepEqual(errors, []);
  await page.close();
});

test('selected pieces show the shift products, prefix sums and the network; phone width works', async () => {
  const { page, errors } = await openPage();
  // Two humans: 1. e4 fills the last-move panel without waiting for the engine.
  await page.selectOption('#mode', 'human');
  await clickSquare(page, 'e2');
  await clickSquare(page, 'e4');
  await page.locator('[data-testid=grid-Mprime]').waitFor();
  // Knight g1: H1·P·H2 and H2·P·H1 give e2, f3, h3 (the products ignore occupancy).
  await clickSquare(page, 'g1');
  const pp = page.locator('[data-testid=piece-products]');
  await pp.waitFor();
  // The panel fills in after it appears; wait (bounded) for the products before counting them.
  await page
    .waitForFunction(
      () => document.querySelectorAll('[data-testid=grid-H1PH2] td.target, [data-testid=grid-H2PH1] td.target').length >= 3,
      null,
      { timeout: 5000 },
    )
    .catch(() => {});
  const h1ph2 = await pp.locator('[data-testid=grid-H1PH2] td.target').count();
  const h2ph1 = await pp.locator('[data-testid=grid-H2PH1] td.target').count();
  assert.equal(h1ph2 + h2ph1, 3, 'knight on g1 has three product targets (e2, f3, h3)');
  assert.equal(await pp.locator('p.ok').count(), 1, 'agrees with matrix-attacks.ts');
  assert.equal(await page.locator('cg-board square.inside-target').count(), 3);

  // Rook a1 in the start position: north ray blocked at a2, east ray at b1; L·occ rows shown.
  await clickSquare(page, 'a1');
  const rays = page.locator('[data-testid=slider-rays]');
  await rays.waitFor();
  assert.equal(await rays.locator('.ray-box').count(), 2, 'a corner rook has two rays');
  assert.equal(await rays.locator('td.blocker').count(), 2 * 4, 'one blocker per ray, marked in all four rows');
  const prefixes = await rays.locator('[data-testid=prefix-row]').first().locator('td').allTextContents();
  assert.deepEqual(prefixes.map(Number), [1, 1, 1, 1, 1, 2, 3], 'L·occ along a1→a8 (pawn a2, pawn a7, rook a8)');
  assert.equal(await page.locator('[data-testid=piece-products] p.ok').count(), 1);

  // The network panel for the rook.
  const bnn = page.locator('[data-testid=bnn-panel]');
  await bnn.waitFor();
  await bnn.locator('[data-testid=bnn-neurons]').first().waitFor();
  assert.equal(await bnn.locator('[data-testid=bnn-input] td').count(), 16, 'two input bytes');
  // One row per target square of a rook on a1 (its whole rank and file), 32 neurons each, and
  // the fired count and output agree with the neurons drawn.
  const rows = bnn.locator('[data-testid=bnn-neurons] tr:not(:first-child)');
  assert.equal(await rows.count(), SQUARE_LAYOUTS[0][0].targets.length);
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    assert.equal(await row.locator('.n').count(), LAYOUT_16.neurons);
    const on = await row.locator('.n.on').count();
    assert.equal(Number(await row.locator('td').nth(2).textContent()), on);
    assert.equal(await row.evaluate((e: any) => e.classList.contains('fires')), on > OUTPUT_THRESHOLD); // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  assert.equal(await bnn.locator('[data-testid=bnn-neurons] tr.fires').count(), 2, 'rook a1 attacks a2 and b1');
  assert.match((await bnn.locator('[data-testid=bnn-attacks]').textContent()) ?? '', /: (a2 b1|b1 a2)$/);
  assert.equal(await bnn.locator('p.bad').count(), 0, 'networks agree with infer16 and the ray walk');
  // Beside them the small 16x8x1 networks of the same targets: 8 neurons each, the file's own T.
  const small = bnn.locator('[data-testid=bnn-small-neurons] tr:not(:first-child)');
  assert.equal(await small.count(), SQUARE_LAYOUTS[0][0].targets.length);
  const smallFile = readWeightsFile(join(repoRoot(), 'weights', weightsFileName(LAYOUT_8)));
  for (let i = 0; i < (await small.count()); i++) {
    const row = small.nth(i);
    assert.equal(await row.locator('td').first().textContent(), squareName(SQUARE_LAYOUTS[0][0].targets[i].square));
    assert.equal(await row.locator('.n').count(), LAYOUT_8.neurons);
    const on = await row.locator('.n.on').count();
    assert.equal(Number(await row.locator('td').nth(2).textContent()), on);
    const t = Number(await row.locator('td').nth(3).textContent());
    assert.equal(t, smallFile.weights[thresholdOffset(LAYOUT_8, 0, 0, i)], 'T from the 16x8x1 file');
    assert.equal(await row.evaluate((e: any) => e.classList.contains('fires')), on > t); // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  assert.equal(await bnn.locator('[data-testid=bnn-small-neurons] tr.fires').count(), 2, 'the small networks: a2 and b1 too');
  assert.equal(await bnn.locator('[data-testid=bnn-small-check].ok').count(), 1, 'small networks agree with infer8 and the ray walk');

  await page.screenshot({ path: join(artifacts, 'web-screenshot.png'), fullPage: true });

  // Pawn c2: the control-flow side of the line.
  await clickSquare(page, 'c2');
  await page.locator('[data-testid=pawn-control-flow]').waitFor();

  // Phone width (390 px): no horizontal scrolling, the board fits, panels still render.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than the phone`);
  const box = await page.locator('cg-board').boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390 && box.width >= 300, 'board fills the phone width');
  await clickSquare(page, 'b1');
  await page.locator('[data-testid=grid-H1PH2]').waitFor();
  await page.screenshot({ path: join(artifacts, 'web-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('bad FEN and PGN get a clear message and the game is kept; Stop plays the best move so far', async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#mode', 'human');
  await clickSquare(page, 'd2');
  await clickSquare(page, 'd4');
  await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 1);
  const fen = await pageFen(page);

  await page.fill('[data-testid=fen]', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1');
  await page.click('#load-fen');
  const msg = page.locator('[data-testid=message]');
  assert.match((await msg.textContent()) ?? '', /Invalid FEN: castling: /);
  assert.equal(await page.evaluate(() => window.matrixChess.fen()), fen);
  assert.equal(await page.locator('#moves .san').count(), 1);

  await page.fill('[data-testid=pgn]', '1. e4 e5 2. Ke3 Nc6 *');
  await page.click('#load-pgn');
  assert.match((await msg.textContent()) ?? '', /PGN: game 1, line 1, column 13: move 2\. Ke3: illegal move/);
  assert.equal(await page.evaluate(() => window.matrixChess.fen()), fen);

  // A good PGN with a FEN header loads.
  await page.fill('[data-testid=pgn]', '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. e4 Kd7 *');
  await page.click('#load-pgn');
  assert.equal(await pageFen(page), '8/3k4/8/8/4P3/8/8/4K3 w - - 1 2');

  // Stop: a long search is cut short and its best move so far is played.
  await page.selectOption('#strength', 'movetime:10000');
  await page.click('#go');
  await page.waitForFunction(() => !document.getElementById('stop').disabled);
  await page.waitForFunction(() => document.getElementById('pv').textContent !== '–', undefined, { timeout: 10_000 });
  const t0 = Date.now();
  await page.click('#stop');
  // The search was given 10 s; the move must come well before that (generous for loaded machines).
  await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 3, undefined, { timeout: 6_000 });
  assert.ok(Date.now() - t0 < 6_000, 'Stop did not cut the 10 s search short');
  assert.equal(await page.locator('#stop').isDisabled(), true);

  // Undo (two humans: one ply), Flip, New game.
  await page.click('#undo');
  assert.equal(await pageFen(page), '8/3k4/8/8/4P3/8/8/4K3 w - - 1 2');
  await page.click('#flip');
  assert.equal(await page.locator('.cg-wrap.orientation-black').count(), 1);
  await page.click('#new');
  assert.equal(await pageFen(page), START_FEN);
  assert.equal(await page.locator('#moves .san').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the evaluation network: the engine plays with it (WebAssembly in the worker) and the panel shows its output, accumulators, piece contributions and the last move's affine update", async () => {
  const net = loadNetwork(join(repoRoot(), 'weights', 'nnue.bin'));
  const { page, errors } = await openPage();
  await page.selectOption('#strength', 'depth:2');
  await page.selectOption('#evaluation', 'nnue');
  await page.locator('[data-testid=nnue-eval]').waitFor({ timeout: 30_000 });
  // The start position: the page's number is the network's, computed here with the same file.
  const start = nnueFromNetwork(net, 'ts').evaluateFresh(Position.fromFen(START_FEN));
  assert.match(
    (await page.textContent('[data-testid=nnue-eval]')) ?? '',
    new RegExp(`^Network: ${start >= 0 ? '\\+' : '-'}${Math.abs(start)} cp for White`),
  );
  assert.equal(await page.locator('[data-testid=nnue-acc-us] .nnue-cell').count(), net.hidden);
  assert.equal(await page.locator('[data-testid=nnue-acc-them] .nnue-cell').count(), net.hidden);
  assert.equal(await page.locator('[data-testid=nnue-pieces] td').count(), 64);
  await clickSquare(page, 'e2');
  await clickSquare(page, 'e4');
  await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 2, undefined, { timeout: 30_000 });
  assert.match(
    (await page.textContent('#thinking')) ?? '',
    new RegExp(`^bitboard, network ${net.hidden}×2, wasm: depth 2, `),
    'the worker played with the network',
  );
  const replay = replayPgn(await pagePgn(page));
  const pos = Position.fromFen(START_FEN);
  for (const m of replay.uci) pos.makeMove(parseUciMove(pos, m));
  const now = nnueFromNetwork(net, 'ts').evaluateFresh(pos),
    white = pos.side === 0 ? now : -now;
  assert.match(
    (await page.textContent('[data-testid=nnue-eval]')) ?? '',
    new RegExp(`^Network: ${white >= 0 ? '\\+' : '-'}${Math.abs(white)} cp`),
  );
  assert.match(
    (await page.textContent('[data-testid=nnue-update]')) ?? '',
    /^Last move: a′ = a \+ W₁·\(e\d+ \(\w\d\)\) − W₁·\(e\d+ \(\w\d\)/,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('Chess960: the button starts a numbered 960 position, the engine answers in it, the PGN says Variant "Chess960"; a pasted 960 FEN starts one too', async () => {
  const { chess960BackRank } = await import('../../src/core/chess960.js');
  const { page, errors } = await openPage();
  await page.click('[data-testid=new960]');
  const note = (await page.textContent('[data-testid=message]')) ?? '';
  const m = /start position (\d+)/.exec(note);
  assert.ok(m, note);
  const rank = chess960BackRank(Number(m[1]));
  assert.equal(await pageFen(page), `${rank.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${rank} w KQkq - 0 1`);
  await clickSquare(page, 'a2');
  await clickSquare(page, 'a3');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=fen]').value.split(' ')[1] === 'w' && document.querySelectorAll('#moves .san').length === 2,
    undefined,
    { timeout: 30_000 },
  );
  const pgn = await pagePgn(page);
  assert.match(pgn, /\[Variant "Chess960"\]/);
  const fen = /\[FEN "([^"]+)"\]/.exec(pgn)![1];
  const pos = Position.fromFen(fen);
  for (const uci of await page.evaluate(() => window.matrixChess.uciMoves())) pos.makeMove(parseUciMove(pos, uci, true));
  assert.equal(pos.toFen(), await pageFen(page));
  // A FEN only Chess960 castling reads (start position 0: the king on g1), pasted, starts a Chess960 game.
  const fen960 = 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1';
  await page.fill('[data-testid=fen]', fen960);
  await page.click('#load-fen');
  assert.match((await page.textContent('[data-testid=message]')) ?? '', /Chess960 position loaded from FEN/);
  assert.equal(await pageFen(page), fen960);
  assert.match(await pagePgn(page), /\[Variant "Chess960"\]/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Analyse game: progress in the worker, one graph point per ply, the hung queen marked ??, accuracies, annotated PGN; Stop ends an analysis', async () => {
  const { page, errors } = await openPage();
  // 2. Qg4?? hangs the queen to the c8 bishop.
  await pastePgn(page, '1. e4 d5 2. Qg4 Bxg4 3. Nf3 e6 *', 6);
  // Record every progress line the panel shows.
  await page.evaluate(() => {
    window.progressSeen = [];
    const box = document.querySelector('[data-testid=analysis-panel]');
    new window.MutationObserver(() => {
      const p = box.querySelector('[data-testid=analysis-progress]');
      if (p) window.progressSeen.push(p.textContent);
    }).observe(box, { childList: true, subtree: true });
  });
  await page.selectOption('#analysis-nodes', '5000');
  await page.click('[data-testid=analyse]');
  const graph = page.locator('[data-testid=eval-graph]');
  await graph.waitFor({ timeout: 60_000 });
  const progress: string[] = await page.evaluate(() => window.progressSeen);
  assert.ok(progress.includes('Analysing position 7/7…'), progress.join(' | '));
  assert.equal(await graph.locator('circle').count(), 6, 'one point per ply');
  assert.equal(await page.textContent('#moves .san[data-ply="2"]'), 'Qg4??');
  assert.match((await graph.locator('circle[data-ply="2"]').getAttribute('class')) ?? '', /\bblunder\b/);
  assert.match((await page.textContent('[data-testid=analysis-judged]')) ?? '', /2\. Qg4\?\? \(-?\d+\.\d\d\): \S+ was best/);
  const accuracy = (await page.textContent('[data-testid=analysis-accuracy]')) ?? '';
  const figures = /White: accuracy (\d+\.\d)%, ACPL (\d+).*Black: accuracy (\d+\.\d)%, ACPL (\d+)/.exec(accuracy);
  assert.ok(figures, accuracy);
  assert.ok(Number(figures[1]) < Number(figures[3]), `the side that hung its queen is less accurate: ${accuracy}`);
  assert.ok(Number(figures[2]) > Number(figures[4]), `and loses more centipawns: ${accuracy}`);
  const pgn = await pagePgn(page);
  assert.match(pgn, /2\. Qg4\?\?\s+\{\[%eval -?\d+\.\d\d\] Blunder\. \S+ was best\.\}/);
  assert.equal(pgn.match(/\[%eval /g)?.length, 6, 'an evaluation after every move');
  assert.match(pgn, /\[WhiteAccuracy "\d+\.\d"\]/);
  assert.match((await page.getAttribute('[data-testid=analysis-download]', 'href')) ?? '', /^blob:/);
  // Clicking the blunder's point marks it in the move list and shows the position after it.
  await graph.locator('circle[data-ply="2"]').click();
  assert.equal(await page.textContent('#moves .san.picked'), 'Qg4??');
  assert.equal(await page.textContent('#moves .san.active'), 'Qg4??');
  assert.equal((await pageFen(page)).split(' ')[0], 'rnbqkbnr/ppp1pppp/8/3p4/4P1Q1/8/PPPP1PPP/RNB1KBNR');
  assert.match((await page.textContent('[data-testid=analysis-pick]')) ?? '', /^2\. Qg4\?\?: /);
  await page.screenshot({ path: join(artifacts, 'web-analysis.png'), fullPage: true });

  // A big budget, stopped after its first position: the page is free again and the game kept.
  await page.selectOption('#analysis-nodes', '200000');
  await page.click('[data-testid=analyse]');
  await page.waitForFunction(() => /Analysing position [1-6]\/7/.test(document.querySelector('[data-testid=analysis-panel]').textContent));
  assert.equal(await page.locator('[data-testid=analyse]').isDisabled(), true);
  await page.click('#stop');
  assert.equal(await page.textContent('[data-testid=analysis-note]'), 'Analysis stopped.');
  assert.equal(await page.locator('[data-testid=analyse]').isDisabled(), false);
  assert.equal(await page.locator('#stop').isDisabled(), true);
  assert.equal(await page.locator('#moves .san').count(), 6);
  assert.doesNotMatch(await pagePgn(page), /%eval/, 'the stopped analysis left no annotations');
  // The engine still plays after the stopped analysis (a fresh worker), at the game's end.
  await page.click('#nav-end');
  await page.click('#go');
  await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 7, undefined, { timeout: 30_000 });
  // A new game during an analysis ends it and clears the panel.
  await page.selectOption('#analysis-nodes', '200000');
  await page.click('[data-testid=analyse]');
  await page.locator('[data-testid=analysis-progress]').waitFor();
  await page.click('#new');
  assert.equal(await page.evaluate(() => window.matrixChess.analysing()), false);
  assert.equal(await page.textContent('[data-testid=analysis-panel]'), '');
  assert.deepEqual(errors, []);
  await page.close();
});
