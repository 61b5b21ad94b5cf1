import { defineConfig, devices, type Project } from '@playwright/test';
import { chromiumArgs, testChromiumPath } from './e2e/chromium.ts';
import { PLAIN_FOLDER, PLAIN_PORT } from './e2e/plainHost.ts';

// E2E_PORT lets a second checkout run its end-to-end tests beside this one (the plain host takes
// the next port).
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://localhost:${port}`;

// A test tagged @timing depends on how much of the machine it gets: it races CPU workers on real
// cores (a free run's lost updates, retries and adds per second), runs Live's watchdog or stop
// timeout, measures a Scaling sweep or the store-buffering test, or counts a tween's frames. Such
// tests are the project `timing`, on one worker; every other test is the project `chromium`, on
// all workers (two in CI, on two cores). `npm run test:e2e` runs `chromium`, then `timing`, so
// nothing else loads the cores while a timing test runs. (Not a project dependency: with one,
// `npx playwright test e2e/live.spec.ts` would run every other project's test first.)
const TIMING = /@timing/;

// Every test runs as a user who asked for reduced motion, so a step's charts take their final
// geometry at once and no tween draws frames on the two cores the tests share (about a fifth of
// a Step test's time). The motion itself is tested where it is the subject: e2e/animations.spec.ts
// runs with motion, and checks that steps faster than the tweens come to rest where a page
// without motion is at once.
const chromium: Project['use'] = {
  ...devices['Desktop Chrome'],
  contextOptions: { reducedMotion: 'reduce' },
  launchOptions: {
    ...(testChromiumPath ? { executablePath: testChromiumPath } : {}),
    args: chromiumArgs,
  },
};

export default defineConfig({
  testDir: './e2e',
  // Screenshots are named for what they show and the OS that drew them (fonts are rasterised
  // differently on each), not for the project that ran them.
  snapshotPathTemplate: '{testDir}/{testFileDir}/{testFileName}-snapshots/{arg}-{platform}{ext}',
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two workers on two cores give each test half the machine a lone worker had: the limits are
  // twice Playwright's defaults. They only stop a test that hangs; no test asserts a duration.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  ...(process.env.CI ? { workers: 2 } : {}),
  reporter: 'list',
  use: {
    baseURL,
    // A trace records the page after every action of every test and is thrown away when the
    // test passes: it doubled the suite's time on two cores (one Step test: 16.3 s with it,
    // 7.2 s without). A CI run is read from its log, not its artefacts, so it records none;
    // a run on a developer's machine keeps the trace of each failing test.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
  projects: [
    { name: 'chromium', use: chromium, grepInvert: TIMING, fullyParallel: true },
    { name: 'timing', use: chromium, grep: TIMING, workers: 1 },
  ],
  // Test the built app as users get it: `npm run build` first, then vite preview serves dist/ with
  // the cross-origin isolation headers (see vite.config.ts). A second server serves the same
  // dist/ with no headers at all, as GitHub Pages would (e2e/isolation-fallback.spec.ts).
  webServer: [
    {
      command: `node node_modules/vite/bin/vite.js preview --port ${port} --strictPort`,
      url: baseURL,
      reuseExistingServer: !process.env.CI,
    },
    {
      command: 'node node_modules/tsx/dist/cli.mjs e2e/plainHost.ts',
      url: `http://localhost:${PLAIN_PORT}${PLAIN_FOLDER}`,
      reuseExistingServer: !process.env.CI,
    },
  ],
});
