// Debian's chromium through playwright-core, headless, with nothing that reaches the network.
// Its temporary files (e.g. the shared-memory `.org.chromium.Chromium.*` it can leave behind) go to
// a folder of its own, removed when the browser closes: a test run leaves nothing in /tmp.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export async function launchBrowser(): Promise<Browser> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-chromium-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    env: { ...process.env, TMPDIR: tmp },
  });
  browser.on('disconnected', () => fs.rmSync(tmp, { recursive: true, force: true }));
  return browser;
}
