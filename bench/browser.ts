// What the browser-driven commands share: a vite preview of dist/ (with the cross-origin
// isolation headers) and a headless Chromium (Debian's where there is one).

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from '@playwright/test';
import { benchChromiumPath, chromiumArgs } from '../e2e/chromium.ts';

export interface Preview {
  readonly url: string;
  readonly server: ChildProcess;
}

/** Serves dist/ on `port`; resolves once it answers. */
export async function startPreview(port: number): Promise<Preview> {
  if (!existsSync('dist/index.html')) {
    throw new Error('dist/ is missing: run `npm run build` first');
  }
  const server = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'preview', '--port', String(port), '--strictPort'],
    { stdio: 'ignore' },
  );
  const url = `http://localhost:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) return { url, server };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill();
  throw new Error(`vite preview did not answer on ${url}`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: benchChromiumPath, args: chromiumArgs });
}

/**
 * Serves dist/ and opens one page in headless Chromium for `use`; closes the browser and stops
 * the server whatever happens: a browser left behind would keep its CPU workers racing.
 */
export async function withPage<T>(
  port: number,
  use: (page: Page, url: string) => Promise<T>,
): Promise<T> {
  const preview = await startPreview(port);
  try {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      return await use(page, preview.url);
    } finally {
      await browser.close();
    }
  } finally {
    preview.server.kill();
  }
}
