// The service-worker isolation fallback, for static hosts that cannot send headers (GitHub
// Pages): installed only when the user asks for it (isolationBridge.ts), it stands between the
// page and the host and adds to every same-origin response the headers the host would have sent
// (deploy/headers.ts): the isolation pair, and the page's and each worker's
// Content-Security-Policy. A page it controls is cross-origin isolated, so Live mode runs.
//
// It is built to the root of dist/ as isolation-sw.js (a service worker controls only the
// paths under its own URL), as one classic script with no imports.
import { cspFor, ISOLATION } from '../../deploy/headers.ts';

declare const self: ServiceWorkerGlobalScope;

// Take over at once: the page reloads right after installing it and must be controlled then.
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (e) => {
  e.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  // Other origins are left alone (the site requests none). A Chrome quirk: an only-if-cached
  // request outside same-origin mode cannot be fetched again from here.
  if (url.origin !== self.location.origin) return;
  if (req.cache === 'only-if-cached' && req.mode !== 'same-origin') return;
  e.respondWith(withHeaders(req, url));
});

async function withHeaders(req: Request, url: URL): Promise<Response> {
  const res = await fetch(req);
  // Opaque responses cannot be rewritten (and same-origin requests do not produce them).
  if (res.type === 'opaque' || res.type === 'opaqueredirect') return res;
  const headers = new Headers(res.headers);
  for (const [k, v] of Object.entries(ISOLATION)) headers.set(k, v);
  // The policies are written for paths from the site's root; on a project site the root is
  // the service worker's scope (https://user.github.io/percpu-lab/).
  const scope = new URL(self.registration.scope).pathname;
  const csp = url.pathname.startsWith(scope)
    ? cspFor(`/${url.pathname.slice(scope.length)}`)
    : null;
  if (csp) headers.set('Content-Security-Policy', csp);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
