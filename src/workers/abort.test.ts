import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortError, isAbortError } from '../machine/errors.ts';
import { abortable, assertSignal, sleep } from './abort.ts';

/** A promise's state once pending callbacks have run: 'pending', or what it settled with. */
async function stateOf(p: Promise<unknown>): Promise<unknown> {
  // Every callback already queued runs first (a settled race takes a few turns to pass on).
  for (let i = 0; i < 10; i++) await Promise.resolve();
  const pending = Symbol('pending');
  return Promise.race([p, Promise.resolve(pending)]).then(
    (v) => (v === pending ? 'pending' : { value: v }),
    (e: unknown) => ({ error: e }),
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('abortable', () => {
  it('settles as the call does while the signal stays unaborted, and aborting later changes nothing', async () => {
    const abort = new AbortController();
    const call = abortable(abort.signal, Promise.resolve(42), 'the call was cancelled');
    await expect(call).resolves.toBe(42);
    abort.abort();
    await expect(call).resolves.toBe(42);
    const failing = abortable(
      new AbortController().signal,
      Promise.reject(new Error('crashed')),
      'x',
    );
    await expect(failing).rejects.toThrow('crashed');
  });

  it('rejects with an AbortError saying what was cancelled as soon as the signal aborts', async () => {
    const abort = new AbortController();
    const call = abortable(abort.signal, new Promise(() => undefined), 'the answer was cancelled');
    expect(await stateOf(call)).toBe('pending');
    abort.abort();
    const settled = await stateOf(call);
    expect(settled).toEqual({ error: new AbortError('the answer was cancelled') });
    const e = (settled as { error: unknown }).error;
    expect([e instanceof AbortError, isAbortError(e)]).toEqual([true, true]);
  });

  it("rejects at once on a signal already aborted, and the call failing after is no one's", async () => {
    const call = abortable(AbortSignal.abort(), Promise.resolve(1), 'too late');
    await expect(call).rejects.toMatchObject({ name: 'AbortError', message: 'too late' });
    // Vitest fails the file on an unhandled rejection: this one is handled by abortable.
    let fail: (e: Error) => void = () => undefined;
    const late = new Promise((_, reject) => {
      fail = reject;
    });
    await expect(abortable(AbortSignal.abort(), late, 'gone')).rejects.toThrow('gone');
    fail(new Error('the worker crashed after the call was given up'));
    await new Promise((r) => setTimeout(r, 0));
  });
});

describe('assertSignal', () => {
  it('throws an AbortError once the signal has aborted, and nothing before', () => {
    const abort = new AbortController();
    expect(() => {
      assertSignal(abort.signal, 'stopped');
    }).not.toThrow();
    abort.abort();
    expect(() => {
      assertSignal(abort.signal, 'stopped');
    }).toThrow(new AbortError('stopped'));
  });
});

describe('isAbortError on the platform', () => {
  it("takes an AbortSignal's own reason, a DOMException named AbortError", () => {
    const reason: unknown = AbortSignal.abort().reason;
    expect(reason).toBeInstanceOf(DOMException);
    expect(isAbortError(reason)).toBe(true);
    expect(isAbortError(new DOMException('x', 'TimeoutError'))).toBe(false);
  });
});

describe('sleep', () => {
  it('waits its time, or ends as soon as the signal aborts', async () => {
    vi.useFakeTimers();
    const plain = sleep(1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await stateOf(plain)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(await stateOf(plain)).toEqual({ value: undefined });

    const abort = new AbortController();
    const cut = sleep(1000, abort.signal);
    expect(await stateOf(cut)).toBe('pending');
    abort.abort();
    expect(await stateOf(cut)).toEqual({ value: undefined });
    expect(vi.getTimerCount()).toBe(0);
    // An aborted signal: no wait at all past the current turn.
    const none = sleep(1000, abort.signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(await stateOf(none)).toEqual({ value: undefined });
  });
});
