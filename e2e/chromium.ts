// How the end-to-end tests and the browser benchmarks start Chromium: Debian's Chromium where it
// is installed (Playwright cannot download its own browser everywhere), with the switches this
// machine's closed network and missing GPU need.

import { existsSync } from 'node:fs';

// Debian's `chromium-headless-shell` is the same Chromium build without the browser's windows,
// tabs and profile: what Playwright's own Chromium runs for a headless test. It ran the Step tests
// in 53 s against 89 s for `chromium --headless` (half the renderer's CPU, a third of the
// browser process's), so the tests use it when it is there and the full browser otherwise.
// It draws text with other anti-aliasing than `chromium`: e2e/visual.spec.ts's pictures are
// the headless shell's. CHROMIUM_PATH picks another binary, e.g. /usr/bin/chromium for --headed.
const headlessShell = '/usr/lib/chromium/chromium-headless-shell';
const browser = '/usr/bin/chromium';
const installed = (p: string) => (existsSync(p) ? p : undefined);

/** The Chromium the tests launch, or undefined for Playwright's own browser. */
export const testChromiumPath =
  process.env.CHROMIUM_PATH ?? installed(headlessShell) ?? installed(browser);

/** The Chromium the benchmarks launch: the browser a user runs, its figures comparable. */
export const benchChromiumPath = installed(browser);

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
