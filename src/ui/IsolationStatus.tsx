import { useEffect, useState } from 'react';
import {
  type FallbackState,
  fallbackState,
  turnOffFallback,
  turnOnFallback,
} from '../workers/isolationBridge.ts';
import { messageOf } from '../machine/errors.ts';

/**
 * Says whether Live mode (which needs SharedArrayBuffer) can run on this page, and if not, why
 * and what fixes it: the host's headers, or the opt-in service-worker fallback.
 */
export function IsolationStatus({ isolated }: { isolated: boolean }) {
  const [fallback, setFallback] = useState<FallbackState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void fallbackState()
      .catch((): FallbackState => 'unsupported')
      .then((s) => {
        if (live) setFallback(s);
      });
    return () => {
      live = false;
    };
  }, []);

  // Both end in a reload; until then the button stays disabled so one click is one install.
  const act = (f: () => Promise<void>) => () => {
    setBusy(true);
    setError(null);
    f().catch((e: unknown) => {
      setBusy(false);
      setError(messageOf(e));
    });
  };
  const problem = error && (
    <p role="alert" className="notice">
      {error}
    </p>
  );

  if (isolated) {
    return (
      <div role="status" aria-label="Cross-origin isolation" className="status status-on">
        <p>
          Cross-origin isolation is on: Live mode can use SharedArrayBuffer.
          {fallback === 'on' && ' The service-worker fallback provides it on this host.'}
        </p>
        {fallback === 'on' && (
          <button type="button" disabled={busy} onClick={act(turnOffFallback)}>
            Turn off the service worker
          </button>
        )}
        {problem}
      </div>
    );
  }
  return (
    <div role="status" aria-label="Cross-origin isolation" className="status status-off">
      <p>
        Cross-origin isolation is off, so Live mode cannot run here. Its workers share memory
        through SharedArrayBuffer, which browsers only allow on a page served with these headers:
      </p>
      <ul>
        <li>
          <code>Cross-Origin-Opener-Policy: same-origin</code>
        </li>
        <li>
          <code>Cross-Origin-Embedder-Policy: require-corp</code>
        </li>
      </ul>
      <p>
        <code>npm run dev</code> and <code>npm run serve</code> send them; docs/serving.md gives the
        settings for Netlify, Cloudflare Pages, Vercel and nginx. Step and Explore work without
        them.
      </p>
      {fallback === 'off' && (
        <p>
          A host that cannot send headers (GitHub Pages) can still run Live mode: a service worker
          from this site adds the headers to every response it serves. The page reloads once.{' '}
          <button type="button" disabled={busy} onClick={act(turnOnFallback)}>
            Turn on isolation with a service worker
          </button>
        </p>
      )}
      {fallback === 'bypassed' && (
        <p>
          The isolation service worker is installed, but this load bypassed it (a hard reload does).{' '}
          <button
            type="button"
            onClick={() => {
              location.reload();
            }}
          >
            Reload through the service worker
          </button>{' '}
          <button type="button" disabled={busy} onClick={act(turnOffFallback)}>
            Turn off the service worker
          </button>
        </p>
      )}
      {fallback === 'unsupported' && (
        <p>
          The service-worker fallback cannot run here either: it needs https (or localhost) and a
          browser with service workers enabled.
        </p>
      )}
      {problem}
    </div>
  );
}
