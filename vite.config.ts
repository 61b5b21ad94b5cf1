import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

// Live and Bench share memory between workers (SharedArrayBuffer), which browsers only allow on a
// cross-origin isolated page. These two headers make the dev and preview servers isolate it; any
// other host must send them too.
const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [react()],
  server: { headers: crossOriginIsolation },
  preview: { headers: crossOriginIsolation },
  // Module workers, so worker entries can import the pure core like any other module.
  worker: { format: 'es' },
  test: {
    // Unit tests cover the pure layers and plain functions; the browser is Playwright's job.
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'e2e/**'],
  },
});
