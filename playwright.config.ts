import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './e2e/chromium.ts';
import { PLAIN_FOLDER, PLAIN_PORT } from './e2e/plainHost.ts';

// E2E_PORT lets a second checkout run its end-to-end tests beside this one (the plain host takes
// the next port).
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: './e2e',
  // Screenshots are named for what they show and the OS that drew them (fonts are rasterised
  // differently on each), not for the project that ran them.
  snapshotPathTemplate: '{testDir}/{testFileDir}/{testFileName}-snapshots/{arg}-{platform}{ext}',
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two cores: one worker in CI keeps timings steady; locally Playwright picks.
  ...(process.env.CI ? { workers: 1 } : {}),
  reporter: 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          ...(chromiumPath ? { executablePath: chromiumPath } : {}),
          args: chromiumArgs,
        },
      },
    },
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
