import { messageOf } from '../machine/errors.ts';
// The page's side of the service-worker isolation fallback (isolation.worker.ts): whether it
// can help here, and turning it on and off. Both end in a reload, because isolation is decided
// when a page loads: the reload is fetched through the service worker, which adds the headers.

/** The service worker's URL, beside index.html (its scope is the folder the site is served from). */
const SCRIPT = 'isolation-sw.js';

export type FallbackState =
  /** The page is isolated by the host's own headers (or the dev server's). */
  | 'not-needed'
  /** The page is isolated by the fallback. */
  | 'on'
  /** The fallback is installed but this load bypassed it (a hard reload does): reload. */
  | 'bypassed'
  /** Not installed; it can be. */
  | 'off'
  /** The browser cannot run it here: no service workers, or not a secure context (https, localhost). */
  | 'unsupported';

async function ours(): Promise<ServiceWorkerRegistration | undefined> {
  const reg = await navigator.serviceWorker.getRegistration();
  const url = reg?.active?.scriptURL ?? reg?.installing?.scriptURL ?? reg?.waiting?.scriptURL;
  return url?.endsWith(`/${SCRIPT}`) ? reg : undefined;
}

export async function fallbackState(): Promise<FallbackState> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) {
    return window.crossOriginIsolated ? 'not-needed' : 'unsupported';
  }
  const controller = navigator.serviceWorker.controller;
  const byUs = controller?.scriptURL.endsWith(`/${SCRIPT}`) ?? false;
  if (window.crossOriginIsolated) return byUs ? 'on' : 'not-needed';
  return (await ours()) ? 'bypassed' : 'off';
}

/** Installs the fallback and reloads under it; rejects with a reason a person can act on. */
export async function turnOnFallback(): Promise<void> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) {
    throw new Error(
      'This browser cannot install a service worker here: it needs https (or localhost) and service workers enabled (a private window may disable them).',
    );
  }
  try {
    await navigator.serviceWorker.register(SCRIPT, { scope: './' });
  } catch (e) {
    throw new Error(
      `The service worker could not be installed (${messageOf(e)}). Is ${SCRIPT} served beside index.html? \`npm run build\` puts it there.`,
      { cause: e },
    );
  }
  await navigator.serviceWorker.ready;
  location.reload();
}

/** Removes the fallback and reloads without it. */
export async function turnOffFallback(): Promise<void> {
  await (await ours())?.unregister();
  location.reload();
}
