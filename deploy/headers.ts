// What the site must send, written once: the cross-origin isolation headers every response needs
// (SharedArrayBuffer), and the Content-Security-Policy of the page and of each worker. The
// preview server (`npm run serve`, the e2e tests) applies them through `securityHeaders()`;
// public/_headers (Netlify, Cloudflare Pages) and vercel.json are written from them by
// `npm run deploy:headers`, and a test fails when those files drift.
//
// The page may run only its own scripts: no inline script, no eval, no WebAssembly compilation.
// The compiled CPUs turn each program into WebAssembly at run time, inside the CPU workers, so
// only the CPU worker script's response allows 'wasm-unsafe-eval' (a dedicated worker is
// governed by the policy sent with its script). 'wasm-unsafe-eval' lets a worker compile
// WebAssembly and nothing else: generated JavaScript still cannot run anywhere. Styles: React
// sets style properties through the CSSOM, which a policy does not restrict, so no
// 'unsafe-inline' either. Fonts are the app's own files (src/ui/fonts/), so font-src is
// default-src 'self': no font service, and no data: URL.

export const ISOLATION: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const common = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

/** The page's policy (the one HTML document). */
export const PAGE_CSP = [
  ...common,
  "script-src 'self'",
  "style-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
].join('; ');

/** The CPU workers' policy: the page's, plus compiling WebAssembly. */
export const CPU_WORKER_CSP = [
  ...common,
  "script-src 'self' 'wasm-unsafe-eval'",
  "connect-src 'self'",
].join('; ');

/** The explore worker's policy: its own scripts only. */
export const EXPLORE_WORKER_CSP = [...common, "script-src 'self'", "connect-src 'self'"].join('; ');

/** Which policy a path gets; workers are built as /assets/<name>.worker-<hash>.js. */
export const CSP_RULES: readonly { readonly path: string; readonly csp: string }[] = [
  { path: '/', csp: PAGE_CSP },
  { path: '/index.html', csp: PAGE_CSP },
  { path: '/assets/cpu.worker-*', csp: CPU_WORKER_CSP },
  // Live's store-buffering test on the real cores compiles its WebAssembly too.
  { path: '/assets/sb.worker-*', csp: CPU_WORKER_CSP },
  { path: '/assets/explore.worker-*', csp: EXPLORE_WORKER_CSP },
];

/** The policy for a request path, or null (scripts, styles and images need none of their own). */
export function cspFor(pathname: string): string | null {
  for (const r of CSP_RULES) {
    const hit = r.path.endsWith('*')
      ? pathname.startsWith(r.path.slice(0, -1))
      : pathname === r.path;
    if (hit) return r.csp;
  }
  return null;
}

/** public/_headers for Netlify and Cloudflare Pages (rules do not overlap, so none combine). */
export function netlifyHeaders(): string {
  const lines = [
    '# Written by `npm run deploy:headers` from deploy/headers.ts: edit that, not this.',
  ];
  lines.push('/*', ...Object.entries(ISOLATION).map(([k, v]) => `  ${k}: ${v}`));
  for (const r of CSP_RULES) lines.push(r.path, `  Content-Security-Policy: ${r.csp}`);
  return `${lines.join('\n')}\n`;
}

/** vercel.json's headers. */
export function vercelConfig(): unknown {
  const entries = (h: Readonly<Record<string, string>>) =>
    Object.entries(h).map(([key, value]) => ({ key, value }));
  return {
    headers: [
      { source: '/(.*)', headers: entries(ISOLATION) },
      ...CSP_RULES.map((r) => ({
        source: r.path.replace(/\*$/, '(.*)'),
        headers: entries({ 'Content-Security-Policy': r.csp }),
      })),
    ],
  };
}

/**
 * An nginx server block's locations. nginx drops a parent's add_header in a location that has
 * its own, so each location repeats the isolation pair; "/" reaches /index.html through `index`.
 */
export function nginxLocations(): string {
  const iso = Object.entries(ISOLATION).map(([k, v]) => `    add_header ${k} "${v}" always;`);
  const block = (head: string, csp: string | null) =>
    [
      `location ${head} {`,
      ...iso,
      ...(csp ? [`    add_header Content-Security-Policy "${csp}" always;`] : []),
      '}',
    ].join('\n');
  return [
    block('/', null),
    ...CSP_RULES.filter((r) => r.path !== '/').map((r) =>
      block(r.path.endsWith('*') ? `^~ ${r.path.slice(0, -1)}` : `= ${r.path}`, r.csp),
    ),
  ].join('\n');
}

/** Vite plugin: the preview server sends the policies (the dev server does not: HMR injects inline code). */
export function securityHeaders() {
  return {
    name: 'percpu-lab-security-headers',
    configurePreviewServer(server: {
      middlewares: {
        use: (
          f: (
            req: { url?: string },
            res: { setHeader: (k: string, v: string) => void },
            next: () => void,
          ) => void,
        ) => void;
      };
    }) {
      server.middlewares.use((req, res, next) => {
        const csp = cspFor(new URL(req.url ?? '/', 'http://localhost').pathname);
        if (csp) res.setHeader('Content-Security-Policy', csp);
        next();
      });
    },
  };
}
