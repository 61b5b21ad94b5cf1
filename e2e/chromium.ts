// How the end-to-end tests and the browser benchmarks start Chromium: Debian's /usr/bin/chromium
// where there is one (Playwright cannot download its own browser everywhere), with the switches
// this machine's closed network and missing GPU need.

import { existsSync } from 'node:fs';

const systemChromium = '/usr/bin/chromium';

/** Debian's Chromium if installed, else undefined (Playwright's own browser). */
export const chromiumPath = existsSync(systemChromium) ? systemChromium : undefined;

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
