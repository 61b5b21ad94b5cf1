import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { ISOLATION, securityHeaders } from './deploy/headers.ts';
import { catalogueCardsModule } from './deploy/catalogueCards.ts';
import { eagerCatalogue } from './deploy/eagerCatalogue.ts';
import { isolationServiceWorker } from './deploy/isolationWorker.ts';

// Unit tests whose outcome depends on the cores they get: live CPUs racing on real threads (lost
// updates, retries, the store-buffering test), and the CLI's `live` and `bench` on threads.
const RACES = ['test/live/**/*.test.ts', 'src/cli/cli.live.test.ts'];

// Unit test files share each worker's modules (isolate: false): most import the catalogue and
// the language, and importing them again for every file cost about half of the unit tests' CPU
// time. These files need modules of their own: two replace a module with vi.mock, one starts
// before the catalogue has loaded, and one compiles a sum as deep as a fresh worker's stack
// allows (code the JIT has already run through other files' tests takes bigger frames).
const OWN_MODULES = [
  'src/cli/checkCompiles.test.ts',
  'src/store/challengeWork.test.ts',
  'src/store/stepStore.load.test.ts',
  'src/lang/length.test.ts',
];

// Vitest's default leaves a core free (one worker on two cores); the unit test files do not
// depend on each other, so they take every core.
const CORES = Math.max(2, availableParallelism() - 1);

// Live and Bench share memory between workers (SharedArrayBuffer), which browsers only allow on a
// cross-origin isolated page: both servers send the isolation headers. The preview server
// (`npm run serve`, the e2e tests) also sends the Content-Security-Policy a host should send
// (deploy/headers.ts).
export default defineConfig({
  // Relative URLs, so dist/ works from any folder: a project site on GitHub Pages is served from
  // /<repository>/, not from the root. Routes live in the hash, so index.html is the only page.
  base: './',
  plugins: [
    react(),
    securityHeaders(),
    isolationServiceWorker(),
    catalogueCardsModule(),
    eagerCatalogue(),
  ],
  server: { headers: { ...ISOLATION } },
  preview: { headers: { ...ISOLATION } },
  // Module workers, so worker entries can import the pure core like any other module.
  worker: { format: 'es', plugins: () => [eagerCatalogue()] },
  // No module-preload polyfill: every browser the lab runs in with its workers' shared memory
  // preloads modules itself, and where one does not the chunks still load, only one after the
  // other. The polyfill's bytes were on every first page (about 260 B of a Step link's gzipped
  // JavaScript, which has a budget: e2e/first-page.spec.ts).
  build: { modulePreload: { polyfill: false } },
  test: {
    // Unit tests cover the pure layers and plain functions; the browser is Playwright's job.
    environment: 'node',
    exclude: [...configDefaults.exclude, 'e2e/**'],
    // The bundled fonts' metrics and the charts' text styles, for the chart layout tests.
    globalSetup: ['test/chartFonts.setup.ts'],
    // Some tests explore every interleaving of a scenario (hundreds of thousands of states) three
    // or four times over; on a busy shared CI machine one took over vitest's 5 s default. The
    // timeout only guards against a hang: no test asserts a duration.
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'e2e/**', ...RACES, ...OWN_MODULES],
          maxWorkers: CORES,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'own-modules', include: OWN_MODULES, maxWorkers: CORES },
      },
      {
        extends: true,
        // One file at a time, after the others: nothing else loads the cores while they race.
        test: { name: 'races', include: RACES, maxWorkers: 1 },
      },
    ],
  },
});
