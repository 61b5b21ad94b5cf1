import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Hello, StudentMessage, TeacherMessage } from './protocol.ts';

describe('the classroom protocol', () => {
  it('tells a teacher hello from a student hello, and refuses either without its proof', () => {
    const base = { t: 'hello', v: 1, code: 'ABC234', since: 0 };
    expect(v.is(Hello, { ...base, role: 'teacher', secret: 'x'.repeat(32) })).toBe(true);
    expect(v.is(Hello, { ...base, role: 'teacher' })).toBe(false);
    expect(v.is(Hello, { ...base, role: 'student', nickname: 'Ada', token: 't'.repeat(16) })).toBe(
      true,
    );
    expect(v.is(Hello, { ...base, role: 'student', nickname: ' ', token: 't'.repeat(16) })).toBe(
      false,
    );
    expect(v.is(Hello, { ...base, code: 'abc234', role: 'teacher', secret: 'x'.repeat(32) })).toBe(
      false,
    );
  });

  it('keeps teacher moves and student messages apart', () => {
    const moment = { t: 'moment', hash: '#/step/global-plain?at=3' };
    expect(v.is(TeacherMessage, moment)).toBe(true);
    expect(v.is(StudentMessage, moment)).toBe(false);
    expect(v.is(StudentMessage, { t: 'answer', question: 4, choice: 1 })).toBe(true);
    expect(v.is(TeacherMessage, { t: 'moment', hash: 'javascript:alert(1)' })).toBe(false);
  });
});
