import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * Vite plugin: builds the service-worker isolation fallback (src/workers/isolation.worker.ts)
 * to dist/isolation-sw.js. A service worker controls only the paths under its own URL, so it
 * must sit beside index.html, not under a hashed name in assets/. The dev server needs none: it
 * sends the isolation headers itself.
 */
export function isolationServiceWorker(): Plugin {
  const entry = fileURLToPath(new URL('../src/workers/isolation.worker.ts', import.meta.url));
  return {
    name: 'percpu-lab-isolation-service-worker',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: entry, fileName: 'isolation-sw.js' });
    },
  };
}
