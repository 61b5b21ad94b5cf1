// The headers a host must send are written once (deploy/headers.ts); the files for static hosts
// are generated from them, so they must not drift, and the policies must keep their promises:
// nothing inline, nothing evaluated, WebAssembly compiled only in the CPU workers.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CPU_WORKER_CSP,
  cspFor,
  EXPLORE_WORKER_CSP,
  netlifyHeaders,
  nginxLocations,
  PAGE_CSP,
  vercelConfig,
} from '../deploy/headers.ts';

describe('deployment headers', () => {
  it('public/_headers and vercel.json are what deploy/headers.ts says (npm run deploy:headers)', () => {
    expect(readFileSync('public/_headers', 'utf8')).toBe(netlifyHeaders());
    expect(JSON.parse(readFileSync('vercel.json', 'utf8'))).toEqual(vercelConfig());
    expect(readFileSync('docs/serving.md', 'utf8')).toContain(nginxLocations());
  });

  it('the page runs only its own code; only the CPU workers may compile WebAssembly', () => {
    for (const csp of [PAGE_CSP, CPU_WORKER_CSP, EXPLORE_WORKER_CSP]) {
      expect(csp).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*|https?:/);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("object-src 'none'");
    }
    expect(PAGE_CSP).not.toContain('wasm-unsafe-eval');
    expect(EXPLORE_WORKER_CSP).not.toContain('wasm-unsafe-eval');
    expect(CPU_WORKER_CSP).toContain("script-src 'self' 'wasm-unsafe-eval'");
  });

  it('each built file gets its policy by path', () => {
    expect(cspFor('/')).toBe(PAGE_CSP);
    expect(cspFor('/index.html')).toBe(PAGE_CSP);
    expect(cspFor('/assets/cpu.worker-CSI6CexQ.js')).toBe(CPU_WORKER_CSP);
    expect(cspFor('/assets/explore.worker-CcoLbBcP.js')).toBe(EXPLORE_WORKER_CSP);
    expect(cspFor('/assets/index-DXiaWrlq.js')).toBeNull();
  });
});
