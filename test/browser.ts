/**
 * Debian's Chromium, headless, driven by playwright-core: the one browser setup of the browser
 * tests (web-app, web-players, uci-web-worker, client-engine-web), and the web app served to it. Without /usr/bin/chromium the tests fail and say so.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { buildWeb } from '../scripts/build-web.js';
import { serveDir } from '../scripts/serve-web.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A fresh headless browser with its own profile directory (the caller removes `profile`). */
export async function launchChromium(): Promise<{ browser: BrowserContext; profile: string }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the web tests need Debian's Chromium (apt-get install chromium; .ci/run does this)`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'matrix-chess-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  return { browser, profile };
}

/** The web app built into a temporary folder, served on a free loopback port, and a browser to open it. */
export interface WebAppSession {
  base: string;
  browser: BrowserContext;
  close(): Promise<void>;
}

/** Builds the web app (`weightsFile`: the BNN weights to ship), serves it and starts Chromium; `close` undoes all three. */
export async function openWebApp(prefix: string, options: { weightsFile?: string } = {}): Promise<WebAppSession> {
  const outDir = mkdtempSync(join(tmpdir(), prefix));
  const build = await buildWeb({ quiet: true, outDir: join(outDir, 'web'), ...options });
  const server = await serveDir(build.outDir, 0);
  const addr = server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`;
  const { browser, profile } = await launchChromium();
  return {
    base,
    browser,
    async close() {
      await browser.close();
      await new Promise<void>((ok) => server.close(() => ok()));
      rmSync(profile, { recursive: true, force: true });
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

// Code inside page.waitForFunction runs in the page; this file is compiled without the DOM library.
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Plays both sides by hand, pastes `pgn` into the page's PGN box, loads it and waits until the move list shows `plies` moves. */
export async function pastePgn(page: Page, pgn: string, plies: number): Promise<void> {
  await page.selectOption('#mode', 'human');
  await page.fill('[data-testid=pgn]', pgn);
  await page.click('#load-pgn');
  await page.waitForFunction((n) => document.querySelectorAll('#moves .san').length === n, plies);
}
