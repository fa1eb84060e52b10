/**
 * The web app for players, in Debian's Chromium (playwright-core): stepping through a game
 * (←/→/Home/End/↑/↓ and clicks in the move list, checked against the pieces on the board), a
 * variation kept in the move list and the PGN, levels by Elo (the setoption lines reach the
 * worker and the engine still plays), clocks running out (a loss, and a draw when the side with
 * time cannot mate), the hint and best-line arrows, the opening name, the game kept across a
 * reload (and bad stored data discarded), typed moves, a pasted game's comments and NAGs (shown,
 * exported, kept across a reload, beside the analysis's judgements), and a phone-sized layout.
 */
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { openWebApp, pastePgn, type WebAppSession } from '../browser.js';
import { repoRoot } from '../../scripts/build-web.js';
import { Position } from '../../src/core/position.js';
import { START_FEN } from '../../src/core/fen.js';
import { legalMoveList } from '../../src/core/notation.js';
import { moveToUci } from '../../src/core/move.js';
import { parsePgnGame } from '../../src/core/pgn/index.js';

// Callbacks passed to page.evaluate/waitForFunction run in the browser; the root tsconfig has no DOM lib.
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const window: any; // eslint-disable-line @typescript-eslint/no-explicit-any

let app: WebAppSession;
let browser: BrowserContext;
let base: string;
const artifacts = join(repoRoot(), 'artifacts');

before(async () => {
  app = await openWebApp('matrix-chess-web-players-');
  ({ browser, base } = app);
  mkdirSync(artifacts, { recursive: true });
});

after(async () => {
  await app?.close();
});

/** Pages still open after a test (one that failed): closed so they stop saving into the shared localStorage. */
const openPages = new Set<Page>();
afterEach(async () => {
  for (const p of openPages) if (!p.isClosed()) await p.close();
  openPages.clear();
});

/** A page on a fresh app (no saved game); `query` is added to the URL (e.g. `?clock=s2+0`). */
async function openPage(query = '', width = 1280, height = 900): Promise<{ page: Page; errors: string[]; warnings: string[] }> {
  const page = await browser.newPage();
  openPages.add(page);
  await page.setViewportSize({ width, height });
  const errors: string[] = [],
    warnings: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
    if (m.type() === 'warning') warnings.push(m.text());
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) errors.push(`external request: ${r.url()}`);
  });
  // Empty storage on the page's first load only (a tab's sessionStorage survives its reloads, so
  // the reload test still finds what the page saved).
  await page.addInitScript(() => {
    if (window.sessionStorage.getItem('test-fresh')) return;
    window.sessionStorage.setItem('test-fresh', '1');
    window.localStorage.clear();
  });
  await page.goto(base + query);
  await page.waitForFunction(() => document.querySelectorAll('cg-board piece').length === 32);
  return { page, errors, warnings };
}

const pageFen = (page: Page) => page.inputValue('[data-testid=fen]');
const pagePgn = (page: Page) => page.inputValue('[data-testid=pgn]');

/** Types moves into the move box (each must be accepted). */
async function typeMoves(page: Page, moves: string[]): Promise<void> {
  for (const m of moves) {
    const before = await page.locator('#moves .san').count();
    await page.fill('[data-testid=move-input]', m);
    await page.press('[data-testid=move-input]', 'Enter');
    await page.waitForFunction((n) => document.querySelectorAll('#moves .san').length > n, before, { timeout: 15_000 });
  }
}

/** The pieces chessground draws, as `square:piece` (FEN letters), sorted; read from their positions on the board. */
async function boardPieces(page: Page): Promise<string> {
  return page.evaluate(() => {
    const b = document.querySelector('cg-board').getBoundingClientRect();
    const size = b.width / 8;
    const letters: Record<string, string> = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };
    const out: string[] = [];
    for (const p of document.querySelectorAll('cg-board piece')) {
      if (p.classList.contains('ghost') || p.classList.contains('fading')) continue;
      const r = p.getBoundingClientRect();
      const file = Math.round((r.left - b.left) / size),
        rank = 7 - Math.round((r.top - b.top) / size);
      const role = [...p.classList].find((c: string) => c in letters) as string;
      const letter = p.classList.contains('white') ? letters[role].toUpperCase() : letters[role];
      out.push(`${'abcdefgh'[file]}${rank + 1}:${letter}`);
    }
    return out.sort().join(' ');
  });
}

/** The same listing from a FEN's placement. */
function fenPieces(fen: string): string {
  const out: string[] = [];
  fen
    .split(' ')[0]
    .split('/')
    .forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) file += Number(ch);
        else out.push(`${'abcdefgh'[file++]}${8 - i}:${ch}`);
      }
    });
  return out.sort().join(' ');
}

/** The FEN after playing UCI moves from the start (our core). */
function fenAfter(ucis: string[]): string {
  const pos = Position.fromFen(START_FEN);
  for (const uci of ucis) {
    const m = legalMoveList(pos).find((x) => moveToUci(x) === uci);
    if (m) pos.makeMove(m);
    else throw new Error(`fenAfter: ${uci} is not UCI of a legal move`);
  }
  return pos.toFen();
}

/** Waits until the board shows the position of `fen` (after the move animation). */
async function expectBoard(page: Page, fen: string, what: string): Promise<void> {
  const want = fenPieces(fen);
  // Polled from here with boardPieces, so the page reading is written once.
  const deadline = Date.now() + 3000;
  let shown = await boardPieces(page);
  while (shown !== want && Date.now() < deadline) {
    await page.waitForTimeout(50);
    shown = await boardPieces(page);
  }
  assert.equal(shown, want, what);
  assert.equal((await pageFen(page)).split(' ')[0], fen.split(' ')[0], `${what}: the FEN box`);
}

test('navigation: arrows, Home/End, Up/Down and clicks show the right positions; a move from an earlier ply makes a variation the PGN keeps', async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#mode', 'human');
  await typeMoves(page, ['e4', 'e5', 'Nf3', 'Nc6']);
  const line = ['e2e4', 'e7e5', 'g1f3', 'b8c6'];
  const after = (n: number) => fenAfter(line.slice(0, n));
  await expectBoard(page, after(4), 'after 2...Nc6');
  await page.locator('body').click({ position: { x: 5, y: 5 } }); // keys go to the page, not an input
  await page.keyboard.press('ArrowLeft');
  await expectBoard(page, after(3), '← shows 2.Nf3');
  assert.equal(await page.textContent('#moves .san.active'), 'Nf3');
  await page.keyboard.press('ArrowLeft');
  await expectBoard(page, after(2), '← again shows 1...e5');
  await page.keyboard.press('Home');
  await expectBoard(page, START_FEN, 'Home shows the start');
  assert.equal(await page.locator('#moves .san.active').count(), 0);
  await page.keyboard.press('ArrowRight');
  await expectBoard(page, after(1), '→ shows 1.e4');
  await page.keyboard.press('End');
  await expectBoard(page, after(4), 'End shows the last move');
  await page.keyboard.press('ArrowUp');
  await expectBoard(page, START_FEN, '↑ goes to the start');
  await page.keyboard.press('ArrowDown');
  await expectBoard(page, after(4), '↓ goes to the end');
  await page.click('#moves .san[data-ply="1"]');
  await expectBoard(page, after(2), 'clicking 1...e5');
  await page.click('#nav-forward');
  await expectBoard(page, after(3), 'the ▶ button');
  await page.click('#nav-start');
  await expectBoard(page, START_FEN, 'the |◀ button');

  // From 1...e5, 2. d4 starts a variation: the main line keeps Nf3 Nc6.
  await page.click('#moves .san[data-ply="1"]');
  await typeMoves(page, ['d4']);
  await expectBoard(page, fenAfter(['e2e4', 'e7e5', 'd2d4']), 'the variation move');
  assert.equal(await page.locator('#moves .san.var').count(), 1);
  assert.equal(await page.textContent('#moves .san.var.active'), 'd4');
  assert.equal(await page.locator('#moves .san[data-ply]').count(), 4, 'the main line is kept');
  assert.match((await page.textContent('#moves li.variation')) ?? '', /^\(2\.\s*d4\)$/);
  // And a reply inside the variation.
  await typeMoves(page, ['exd4']);
  assert.equal(await page.locator('#moves .san.var').count(), 2);
  const pgn = await pagePgn(page);
  assert.match(pgn, /1\. e4 e5 2\. Nf3 \(2\. d4 exd4\) 2\.\.\. Nc6 \*/, pgn);
  assert.match(pgn, /\[ECO "C\d\d"\]/, 'the main line is named');
  // The End key follows the shown line (the variation), ← steps back inside it.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowLeft');
  await expectBoard(page, fenAfter(['e2e4', 'e7e5', 'd2d4']), '← inside the variation');
  // Clicking a main-line move leaves the variation.
  await page.click('#moves .san[data-ply="3"]');
  await expectBoard(page, after(4), 'back on the main line');
  // The PGN pasted back loads with its variation into the move list, and writes the same PGN.
  await page.fill('[data-testid=pgn]', pgn);
  await page.click('#load-pgn');
  await expectBoard(page, after(4), 'the loaded game shows its main line');
  assert.equal(await page.locator('#moves .san.var').count(), 2, 'the variation is loaded');
  assert.equal(await pagePgn(page), pgn);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the opening name follows the shown position and goes into the PGN tags', async () => {
  const { page, errors } = await openPage();
  await page.waitForFunction(() => window.matrixChess.openingsLoaded());
  await page.selectOption('#mode', 'human');
  await typeMoves(page, ['e4', 'c5']);
  assert.equal(await page.textContent('[data-testid=opening]'), 'B20 Sicilian Defense');
  const pgn = await pagePgn(page);
  assert.match(pgn, /\[ECO "B20"\]/);
  assert.match(pgn, /\[Opening "Sicilian Defense"\]/);
  await typeMoves(page, ['Nf3', 'd6', 'd4', 'cxd4', 'Nxd4', 'Nf6', 'Nc3', 'a6']);
  assert.equal(await page.textContent('[data-testid=opening]'), 'B90 Sicilian Defense: Najdorf Variation');
  // Back at 1.e4 the name is the shown position's (the deepest named position on the way there).
  await page.click('#moves .san[data-ply="0"]');
  assert.match((await page.textContent('[data-testid=opening]')) ?? '', /^B00 King's Pawn/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a level by Elo sends UCI_LimitStrength and UCI_Elo to the worker, and the engine plays', async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#strength', 'depth:2');
  await page.selectOption('#level', '1200');
  assert.match((await page.textContent('[data-testid=level-note]')) ?? '', /Level 1200 Elo/);
  await typeMoves(page, ['e4']);
  await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 2, undefined, { timeout: 30_000 });
  const sent: string[] = await page.evaluate(() => window.matrixChess.sentOptions());
  assert.deepEqual(sent, ['setoption name UCI_LimitStrength value true', 'setoption name UCI_Elo value 1200']);
  // The worker applies both lines and says so; the page tells the player the level is set.
  await page.waitForFunction(() => window.matrixChess.optionAnswers().length >= 2);
  const answers: string[] = await page.evaluate(() => window.matrixChess.optionAnswers());
  assert.deepEqual(answers.slice(0, 2), [
    'info string setoption name UCI_LimitStrength value true: applied',
    'info string setoption name UCI_Elo value 1200: applied',
  ]);
  assert.match((await page.textContent('[data-testid=level-note]')) ?? '', /Level 1200 Elo: set in the engine/);
  // The engine's reply is legal: the page's moves replay in our core.
  const fen = await pageFen(page);
  const uci: string[] = await page.evaluate(() => window.matrixChess.uciMoves());
  const pos = Position.fromFen(START_FEN);
  for (const u of uci) {
    const m = legalMoveList(pos).find((x) => moveToUci(x) === u);
    assert.ok(m, `${u} is legal`);
    pos.makeMove(m);
  }
  assert.equal(pos.toFen(), fen);
  // Full strength again: the limit is switched off before the next move.
  await page.selectOption('#level', '');
  await typeMoves(page, ['d4']);
  await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 4, undefined, { timeout: 30_000 });
  assert.equal((await page.evaluate(() => window.matrixChess.sentOptions())).at(-1), 'setoption name UCI_LimitStrength value false');
  assert.deepEqual(errors, []);
  await page.close();
});

test('clocks: the engine plays on its clock; a flag fall loses, or draws when the side with time cannot mate', async () => {
  // Against the engine at 5+3: the engine is told the clocks, and White's clock runs after its reply.
  let { page, errors } = await openPage();
  await page.selectOption('#clock', '5+3');
  assert.equal(await page.isVisible('[data-testid=clocks]'), true);
  assert.equal(await page.textContent('#clock-white .time'), '5:00');
  await typeMoves(page, ['e4']);
  await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 2, undefined, { timeout: 30_000 });
  assert.match((await page.getAttribute('#clock-white', 'class')) ?? '', /\brunning\b/);
  // Black's clock: 5:00 less its thinking, plus the 3 s increment (a loaded machine may think for many seconds).
  const [min, sec] = ((await page.textContent('#clock-black .time')) ?? '').split(':').map(Number);
  assert.ok(min * 60 + sec > 240 && min * 60 + sec <= 303, `Black's clock ${min}:${sec}`);
  // The engine searched with the clocks (UCI's go wtime btime winc binc), not a fixed depth.
  const limits = await page.evaluate(() => window.matrixChess.lastLimits());
  assert.equal(limits.depth, undefined);
  assert.deepEqual([limits.winc, limits.binc], [3000, 3000]);
  assert.equal(limits.wtime, 300_000, "White's first move was not timed");
  assert.ok(limits.btime > 290_000 && limits.btime <= 300_000, `btime ${limits.btime}`);
  await page.close();

  // Two humans on a 1.5-second clock (a URL parameter adds it): Black does not move and loses on time.
  ({ page, errors } = await openPage('?clock=s1.5%2B0'));
  await page.selectOption('#mode', 'human');
  await page.selectOption('#clock', 's1.5+0');
  await typeMoves(page, ['e4']);
  await page.waitForFunction(() => /lost on time/.test(document.querySelector('[data-testid=status]').textContent), undefined, {
    timeout: 10_000,
  });
  assert.equal(await page.textContent('[data-testid=status]'), 'Black lost on time: White wins');
  assert.match(await pagePgn(page), /\[Result "1-0"\][\s\S]*1\. e4 1-0/);
  assert.match((await page.getAttribute('#clock-black', 'class')) ?? '', /\bflagged\b/);
  // The game is over: no more moves on the board or typed.
  await page.fill('[data-testid=move-input]', 'e5');
  await page.press('[data-testid=move-input]', 'Enter');
  assert.equal(await page.locator('#moves .san').count(), 1);

  // White has a bare king: when Black's time runs out, White cannot mate, so it is a draw.
  await page.fill('[data-testid=fen]', 'q3k3/8/8/8/8/8/8/4K3 w - - 0 1');
  await page.click('#load-fen');
  await page.selectOption('#clock', 's1.5+0');
  await typeMoves(page, ['Kd2']);
  await page.waitForFunction(() => /ran out of time/.test(document.querySelector('[data-testid=status]').textContent), undefined, {
    timeout: 10_000,
  });
  assert.equal(await page.textContent('[data-testid=status]'), 'Draw: Black ran out of time and White cannot mate');
  assert.match(await pagePgn(page), /\[Result "1\/2-1\/2"\]/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('hint and best line are arrows on the board, not moves', async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#mode', 'human');
  await page.selectOption('#strength', 'depth:3');
  await typeMoves(page, ['e4', 'e5']);
  const fen = await pageFen(page);
  await page.click('[data-testid=hint]');
  await page.waitForFunction(() => document.getElementById('board').dataset.arrows, undefined, { timeout: 30_000 });
  const arrows = ((await page.getAttribute('#board', 'data-arrows')) ?? '').split(' ');
  assert.equal(arrows.length, 1, 'one arrow for a hint');
  const pos = Position.fromFen(fen);
  assert.ok(
    legalMoveList(pos).some((m) => moveToUci(m) === arrows[0]),
    `${arrows[0]} is a legal move here`,
  );
  assert.ok((await page.locator('cg-container svg.cg-shapes g').count()) >= 1, 'chessground draws the arrow');
  assert.equal(await pageFen(page), fen, 'the hint was not played');
  assert.equal(await page.locator('#moves .san').count(), 2);

  await page.click('[data-testid=best-line]');
  await page.waitForFunction(() => document.getElementById('board').dataset.arrows.split(' ').length > 1, undefined, {
    timeout: 30_000,
  });
  const lineArrows = ((await page.getAttribute('#board', 'data-arrows')) ?? '').split(' ');
  assert.equal(lineArrows[0], arrows[0], 'the best line starts with the hint');
  assert.equal(await pageFen(page), fen);
  // A move clears the arrows.
  await typeMoves(page, ['Nf3']);
  assert.equal(await page.getAttribute('#board', 'data-arrows'), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a reload restores the game with its variation, the shown move and the settings; bad stored data is discarded', async () => {
  const { page, errors, warnings } = await openPage();
  await page.selectOption('#mode', 'human');
  await page.selectOption('#level', '1600');
  await typeMoves(page, ['d4', 'd5', 'c4']);
  await page.click('#moves .san[data-ply="0"]');
  await typeMoves(page, ['Nf6']); // a variation 1...Nf6
  await page.click('#moves .san[data-ply="2"]');
  // (On a running clock the game goes on at its end only, so the clock is chosen after the variation.)
  await page.selectOption('#clock', '10+5');
  await page.check('[data-testid=mute]');
  const fen = await pageFen(page);
  const pgn = await pagePgn(page);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('cg-board piece').length > 0);
  assert.equal(await pageFen(page), fen, 'the shown position');
  assert.equal(await page.textContent('#moves .san.active'), 'c4');
  assert.equal(await page.locator('#moves .san.var').count(), 1);
  assert.equal(await pagePgn(page), pgn, 'the same game, variation included');
  assert.equal(await page.inputValue('#mode'), 'human');
  assert.equal(await page.inputValue('#level'), '1600');
  assert.equal(await page.inputValue('#clock'), '10+5');
  assert.equal(await page.isChecked('[data-testid=mute]'), true);
  await expectBoard(page, fen, 'the board after the reload');

  // Corrupt data: a warning, and a fresh app.
  await page.evaluate(() => window.localStorage.setItem('matrix-chess.game', '{"v":1,"startFen":"x","tree":7}'));
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('cg-board piece').length === 32);
  assert.equal(await pageFen(page), START_FEN);
  assert.ok(
    warnings.some((w) => /saved game was discarded/.test(w)),
    warnings.join('\n'),
  );
  // Moves that do not replay are discarded too.
  await page.evaluate(() => {
    const s = JSON.parse(window.localStorage.getItem('matrix-chess.game'));
    s.tree = { u: '', c: [{ u: 'e2e5', c: [] }] };
    window.localStorage.setItem('matrix-chess.game', JSON.stringify(s));
  });
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('cg-board piece').length === 32);
  assert.equal(await page.locator('#moves .san').count(), 0);
  assert.ok(warnings.some((w) => /do not replay/.test(w)));
  // New game clears the kept game.
  await typeMoves(page, ['e4']);
  await page.click('#new');
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('cg-board piece').length === 32);
  assert.equal(await page.locator('#moves .san').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('typed moves: SAN and UCI are played, a bad one is refused with a message', async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#mode', 'human');
  await typeMoves(page, ['e2e4', 'Nc6', 'Nf3']);
  assert.deepEqual(await page.evaluate(() => window.matrixChess.uciMoves()), ['e2e4', 'b8c6', 'g1f3']);
  await page.fill('[data-testid=move-input]', 'Ke3');
  await page.press('[data-testid=move-input]', 'Enter');
  assert.match((await page.textContent('[data-testid=message]')) ?? '', /^Move 'Ke3': not a legal move here/);
  assert.equal(await page.locator('#moves .san').count(), 3);
  assert.deepEqual(errors, []);
  await page.close();
});

/** A game with a leading comment, NAGs ($1, $4, $14), [%clk]/[%eval]/[%csl] commands, an HTML-looking comment and a commented variation. */
const ANNOTATED_PGN = `[Event "Annotated"]
[White "Anna"]
[Black "Bert"]
[Result "*"]

{A quiet game} 1. e4 $1 {[%clk 0:03:00] Best by test} 1... e5 $4 {[%clk 0:02:58.5] <b>x</b>}
2. Nf3 $14 (2. d4 {The centre game} exd4 $6) 2... Nc6 {[%eval 0.25] [%csl Gd4] Normal} *
`;

/** The texts of the elements `selector` finds. */
const texts = (page: Page, selector: string): Promise<string[]> => page.locator(selector).allTextContents();

test('a pasted game keeps its comments and NAGs: shown as text and glyphs, exported, kept across a reload and by a new variation', async () => {
  const { page, errors, warnings } = await openPage();
  await pastePgn(page, ANNOTATED_PGN, 6);

  /** What the move list shows of the annotations. */
  const shown = async () => ({
    comments: await texts(page, '#moves .comment'),
    mainline: await texts(page, '#moves .san[data-ply]'),
    variation: await texts(page, '#moves .san.var'),
    clocks: await texts(page, '#moves .clk'),
    glyphTitles: await page.locator('#moves .nag').evaluateAll((es) => es.map((e) => e.getAttribute('title'))),
  });
  const want = {
    // The game comment first; the [%csl] command is not shown; the tags are text, not markup.
    comments: ['A quiet game', 'Best by test', '<b>x</b>', 'The centre game', 'Normal'],
    mainline: ['e4!', 'e5??', 'Nf3+/=', 'Nc6'],
    variation: ['d4', 'exd4?!'],
    clocks: ['3:00', '2:58.5'],
    glyphTitles: ['Good move', 'Blunder', 'White is slightly better', 'Dubious move'],
  };
  assert.deepEqual(await shown(), want);
  const list = (await page.textContent('#moves')) ?? '';
  assert.doesNotMatch(list, /\[%|clk|eval|csl/, `no raw command in the move list: ${list}`);
  assert.equal(await page.locator('#moves b').count(), 0, 'the comment <b>x</b> is not interpreted');
  // The game comment stands before the first move, the variation's comment inside the variation.
  assert.equal(await page.textContent('#moves li:first-child'), 'A quiet game');
  assert.match((await page.textContent('#moves li.variation')) ?? '', /^\(2\.\s*d4\s*The centre game\s*2…\s*exd4\?!\)$/);
  // The [%eval] is the move's tooltip.
  assert.equal(await page.getAttribute('#moves .san[data-ply="3"]', 'title'), 'eval 0.25');
  await page.locator('#moves').screenshot({ path: join(artifacts, 'web-annotations.png') });

  // Export: the same game, comments, NAGs and commands included (read back by the core's reader).
  const original = parsePgnGame(ANNOTATED_PGN);
  const exported = await pagePgn(page);
  assert.equal(await page.evaluate(() => window.matrixChess.pgn()), exported, 'Copy PGN writes what the box shows');
  assert.match(
    exported,
    /\{A\s+quiet\s+game\}\s+1\.\s+e4!\s+\{\[%clk\s+0:03:00\]\s+Best\s+by\s+test\}\s+1\.\.\.\s+e5\?\?\s+\{\[%clk\s+0:02:58\.5\]\s+<b>x<\/b>\}/,
  );
  assert.match(
    exported,
    /2\.\s+Nf3\s+\$14\s+\(2\.\s+d4\s+\{The\s+centre\s+game\}\s+2\.\.\.\s+exd4\?!\)\s+2\.\.\.\s+Nc6\s+\{\[%eval\s+0\.25\]\s+\[%csl\s+Gd4\]\s+Normal\}/,
  );
  const back = parsePgnGame(exported);
  assert.deepEqual(back.comments, original.comments);
  assert.deepEqual(back.moves, original.moves);

  // A reload keeps them all.
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 6);
  assert.deepEqual(await shown(), want, 'after the reload');
  assert.equal(await pagePgn(page), exported);

  // A move played from 1...e5 starts a variation; the annotated moves keep their annotations.
  await page.click('#moves .san[data-ply="1"]');
  await typeMoves(page, ['Bc4']);
  assert.equal(await page.textContent('#moves .san.var.active'), 'Bc4');
  const grown = parsePgnGame(await pagePgn(page));
  assert.deepEqual(grown.comments, original.comments);
  const strip = (m: (typeof original.moves)[number]) => ({ ...m, variations: undefined });
  assert.deepEqual(grown.moves.map(strip), original.moves.map(strip), 'the main line and its annotations');
  assert.deepEqual(grown.moves[2].variations?.[0], original.moves[2].variations?.[0], 'the annotated variation');
  assert.deepEqual(
    grown.moves[2].variations?.[1].map((m) => m.san),
    ['Bc4'],
    'the new variation, without annotations',
  );
  assert.equal(grown.moves[2].variations?.[1][0].commentsAfter, undefined);
  assert.deepEqual((await shown()).comments, want.comments);

  // Stored annotations that are not annotations (a NAG that is not a number) are discarded with the game.
  await page.evaluate(() => {
    const s = JSON.parse(window.localStorage.getItem('matrix-chess.game'));
    s.tree.c[0].a = { nags: ['!'] };
    window.localStorage.setItem('matrix-chess.game', JSON.stringify(s));
  });
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('cg-board piece').length === 32);
  assert.equal(await page.locator('#moves .san').count(), 0);
  assert.ok(
    warnings.some((w) => /saved game was discarded \(tree/.test(w)),
    warnings.join('\n'),
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("an analysed game: the judgement replaces a move's own !/? glyph (not shown twice), its other glyphs and comments stay", async () => {
  const { page, errors } = await openPage();
  // 2. Qg4 hangs the queen, whatever its annotator thought of it.
  await pastePgn(page, '{Opening trap} 1. e4 d5 2. Qg4! $14 {The queen hangs} 2... Bxg4 3. Nf3 e6 *', 6);
  assert.equal(await page.textContent('#moves .san[data-ply="2"]'), 'Qg4!+/=');
  await page.selectOption('#analysis-nodes', '5000');
  await page.click('[data-testid=analyse]');
  await page.locator('[data-testid=eval-graph]').waitFor({ timeout: 60_000 });
  assert.equal(await page.textContent('#moves .san[data-ply="2"]'), 'Qg4??+/=');
  assert.equal(await page.textContent('#moves .san[data-ply="2"] .nag.judgement'), '??');
  assert.deepEqual(await texts(page, '#moves .comment'), ['Opening trap', 'The queen hangs']);
  // The annotated PGN keeps the game's own comments and its other NAG, after the analysis's.
  const pgn = await pagePgn(page);
  assert.match(pgn, /\{Opening\s+trap\}\s+1\.\s+e4\s+\{\[%eval\s+-?\d+\.\d\d\]\}\s+1\.\.\.\s+d5/);
  assert.match(pgn, /2\.\s+Qg4\?\?\s+\$14\s+\{\[%eval\s+-?\d+\.\d\d\]\s+Blunder\.\s+\S+\s+was\s+best\.\}\s+\{The\s+queen\s+hangs\}/);
  // The next move drops the analysis: the annotator's glyph is back.
  await page.click('#nav-end');
  await typeMoves(page, ['Nc3']);
  assert.equal(await page.textContent('#moves .san[data-ply="2"]'), 'Qg4!+/=');
  assert.match(await pagePgn(page), /2\.\s+Qg4!\s+\$14\s+\{The\s+queen\s+hangs\}/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('phone size (390x844): the board fills the width and no element is wider than the screen', async () => {
  const { page, errors } = await openPage('', 390, 844);
  await page.selectOption('#mode', 'human');
  await typeMoves(page, ['e4', 'c5', 'Nf3', 'd6']);
  await page.click('#moves .san[data-ply="1"]');
  await typeMoves(page, ['e5']); // a variation in the move list
  await page.selectOption('#clock', '5+3');
  await page.waitForTimeout(200);
  const wide: string[] = await page.evaluate(() => {
    const out: string[] = [];
    for (const e of document.querySelectorAll('body *')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -1 || r.right > window.innerWidth + 1)
        out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className}: ${r.left}..${r.right}`);
    }
    return out;
  });
  assert.deepEqual(wide, [], 'elements outside the 390 px screen');
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
  const box = await page.locator('cg-board').boundingBox();
  assert.ok(box && box.width >= 330, `the board fills the width (${box?.width} px)`);
  // The panels come below the board.
  const side = await page.locator('.side').boundingBox();
  assert.ok(side && box && side.y >= box.y + box.height, 'the controls are below the board');
  await page.screenshot({ path: join(artifacts, 'web-players-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
