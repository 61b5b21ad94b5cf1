// How a bridge call is cancelled: the caller (a store, a screen) hands it an AbortSignal and
// aborts it; the call rejects with an AbortError (src/machine/errors.ts) and the bridge ends the
// worker doing it, since a busy worker cannot answer a message. The shape is Squoosh's
// worker bridge (its `abortable` and `assertSignal`), so every bridge cancels one way and every
// store asks `isAbortError` whatever the worker.

import { AbortError } from '../machine/errors.ts';

/** Throws an AbortError saying `what` if `signal` has already aborted. */
export function assertSignal(signal: AbortSignal, what: string): void {
  if (signal.aborted) throw new AbortError(what);
}

/**
 * `promise`, or an AbortError saying `what` as soon as `signal` aborts, whichever comes first.
 * The work behind `promise` goes on: the caller ends it (a bridge terminates its worker once
 * this settles).
 */
export function abortable<T>(signal: AbortSignal, promise: Promise<T>, what: string): Promise<T> {
  if (signal.aborted) {
    // The call's own outcome is no one's now: its failure is not an unhandled rejection.
    promise.catch(() => undefined);
    return Promise.reject(new AbortError(what));
  }
  let stop: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => {
      reject(new AbortError(what));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    stop = () => {
      signal.removeEventListener('abort', onAbort);
    };
  });
  // The listener goes with the call: a signal that outlives it (a store's) holds nothing of it.
  return Promise.race([promise, aborted]).finally(stop);
}

/** Waits `ms`, or less: the wait ends (resolves) as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, signal?.aborted === true ? 0 : ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
