import { describe, expect, it } from 'vitest';
import { AbortError, failureOf, isAbortError, messageOf } from './errors.ts';

describe('cancelling, as errors say it', () => {
  it('an AbortError is an Error named AbortError, with the sentence it was given', () => {
    const e = new AbortError('the exploration was cancelled');
    expect(e).toBeInstanceOf(Error);
    expect([e.name, e.message, messageOf(e)]).toEqual([
      'AbortError',
      'the exploration was cancelled',
      'the exploration was cancelled',
    ]);
    expect(new AbortError().message).toBe('the call was cancelled');
  });

  it('is told apart by its name, so a copy made on the other side of a thread counts', () => {
    expect(isAbortError(new AbortError())).toBe(true);
    // What comlink rebuilds from a thrown error: a plain Error with the name copied on.
    expect(isAbortError(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe(true);
    // What structured cloning of a failure keeps: its name.
    expect(failureOf(new AbortError('gone'))).toEqual({
      ok: false,
      message: 'gone',
      name: 'AbortError',
    });
  });

  it('nothing else is an abort: other errors, other names, values that are not errors', () => {
    expect(isAbortError(new Error('the explore worker crashed'))).toBe(false);
    expect(isAbortError(Object.assign(new Error('x'), { name: 'Cancelled' }))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
    expect(isAbortError(null)).toBe(false);
    expect(isAbortError(undefined)).toBe(false);
  });
});
