// The classroom server serves the built app as the static hosts do: the isolation pair on every
// response and each path's Content-Security-Policy, from deploy/headers.ts.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CPU_WORKER_CSP, EXPLORE_WORKER_CSP, PAGE_CSP } from '../../deploy/headers.ts';
import { startServer } from './app.ts';
import { pgliteDir, tempDir } from './testing.ts';

describe('the classroom server serving the app', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const f of cleanups.splice(0).reverse()) await f();
  });

  it("sends each path the static hosts' headers", async () => {
    const data = await pgliteDir();
    const app = tempDir();
    cleanups.push(data.remove, app.remove);
    mkdirSync(join(app.dir, 'assets'));
    writeFileSync(join(app.dir, 'index.html'), '<!doctype html><title>percpu-lab</title>');
    for (const f of ['cpu.worker-abc123.js', 'explore.worker-def456.js', 'index-789.js'])
      writeFileSync(join(app.dir, 'assets', f), '// a built script\n');
    const s = await startServer({ dataDir: data.dir, appDir: app.dir });
    cleanups.push(() => s.close());
    const url = `http://127.0.0.1:${s.port}`;

    const expected: [string, string | null][] = [
      ['/', PAGE_CSP],
      ['/index.html', PAGE_CSP],
      ['/assets/cpu.worker-abc123.js', CPU_WORKER_CSP],
      ['/assets/explore.worker-def456.js', EXPLORE_WORKER_CSP],
      ['/assets/index-789.js', null],
      ['/api/health', null],
    ];
    for (const [path, csp] of expected) {
      const r = await fetch(url + path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
      expect(r.headers.get('cross-origin-embedder-policy'), path).toBe('require-corp');
      expect(r.headers.get('content-security-policy'), path).toBe(csp);
    }
    expect(await (await fetch(`${url}/`)).text()).toContain('<title>percpu-lab</title>');
    const missing = await fetch(`${url}/nothing-here.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  });
});
