// Errors as people read them, and as a thread hands them back. Anything can be thrown, so the
// one sentence for "what went wrong" is here; and an Error does not cross to another thread as
// itself (structured cloning keeps its message, not its class), so every worker and worker
// thread that is called by hand (explorer shards, live CPUs on Node threads, the SB test's
// threads) answers with a Reply and its caller rebuilds the error from it.
//
// Cancelling has one form everywhere, the web platform's: the caller aborts an AbortSignal it
// handed the call, and the call rejects with an error named 'AbortError'. The core has no DOM
// library (and so no DOMException), so it builds an Error subclass of that name; and since a
// class does not survive a thread (see above) nor a DOMException a realm, an abort is told apart
// by its name alone, which comlink and `failureOf` both carry across.

/** What went wrong, as a sentence: an Error's message (its name when it has none), else the value. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message || e.name : String(e);
}

/**
 * A call stopped because its caller aborted it (AbortSignal), as the platform's own aborts are
 * named: a page's `isAbortError` takes this and a DOMException named 'AbortError' alike.
 */
export class AbortError extends Error {
  override readonly name = 'AbortError';
  constructor(message = 'the call was cancelled') {
    super(message);
  }
}

/**
 * True when `e` says a call was cancelled: an AbortError of this file, a DOMException named
 * 'AbortError' (an AbortSignal's reason, a fetch aborted), or either rebuilt on this side of a
 * thread with its name kept. By name, not class: neither class crosses a thread as itself.
 */
export function isAbortError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
}

/** A call that failed, as it crosses a thread: the error's message and its name. */
export interface Failure {
  readonly ok: false;
  readonly message: string;
  /** The error's `name` (Error, RangeError, or a class's own), to rebuild it on the other side. */
  readonly name: string;
}

/** What a thread hands back for a call: its result, or how it failed. */
export type Reply<T> = { readonly ok: true; readonly result: T } | Failure;

/** The failure of `e`, to post back. */
export function failureOf(e: unknown): Failure {
  return { ok: false, message: messageOf(e), name: e instanceof Error ? e.name : 'Error' };
}

/** Runs `f` and says how it went: its result, or what it threw. */
export function replyOf<T>(f: () => T): Reply<T> {
  try {
    return { ok: true, result: f() };
  } catch (e) {
    return failureOf(e);
  }
}

/**
 * The result a reply carries; or throws its failure again, as `revive` rebuilds it (a class the
 * caller tells apart by `instanceof`), else as a plain Error with the message.
 */
export function resultOf<T>(reply: Reply<T>, revive?: (failure: Failure) => Error | null): T {
  if (reply.ok) return reply.result;
  throw revive?.(reply) ?? new Error(reply.message);
}
