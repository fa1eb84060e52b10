/**
 * Debian's Chromium, headless, driven by playwright-core: the one browser setup of the browser
 * tests (web-app, uci-web-worker). Without /usr/bin/chromium the tests fail and say so.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

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
