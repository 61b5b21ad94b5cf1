import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ev, makeEvent } from './events.ts';
import {
  formatSchedule,
  MAX_SCHEDULE_EVENTS,
  parseSchedule,
  parseScheduleWithOffsets,
  ScheduleSyntaxError,
} from './schedule.ts';

const anEvent = fc.oneof(
  fc
    .record({
      t: fc.constantFrom(Ev.Step, Ev.Irq, Ev.Nmi, Ev.Preempt),
      k: fc.integer({ min: 0, max: 255 }),
    })
    .map(({ t, k }) => makeEvent(t, k)),
  fc
    .record({ k: fc.integer({ min: 0, max: 255 }), j: fc.integer({ min: 0, max: 255 }) })
    .map(({ k, j }) => makeEvent(Ev.Migrate, k, j)),
);

function errorOf(text: string): ScheduleSyntaxError {
  try {
    parseSchedule(text);
  } catch (e) {
    if (e instanceof ScheduleSyntaxError) return e;
    throw e;
  }
  throw new Error(`'${text}' parsed`);
}

describe('schedule strings', () => {
  it('parse the example of docs/cli.md', () => {
    expect(formatSchedule(parseSchedule('0 0 1 irq0 0 0 mig0>1 1'))).toBe(
      '0 0 1 irq0 0 0 mig0>1 1',
    );
  });

  it('expand repeats and groups', () => {
    expect(formatSchedule(parseSchedule('0*3 (1 irq0)*2 pre1, nmi0'))).toBe(
      '0*3 1 irq0 1 irq0 pre1 nmi0',
    );
  });

  it('format folds runs of three or more', () => {
    const e = parseSchedule('0 0 1 1 1 1');
    expect(formatSchedule(e)).toBe('0 0 1*4');
  });

  it('property: parse(format(events)) gives the events back', () => {
    fc.assert(
      fc.property(fc.array(anEvent, { maxLength: 200 }), (events) => {
        expect(parseSchedule(formatSchedule(events))).toEqual(events);
      }),
      { seed: 11, numRuns: 1000 },
    );
  });

  it('property: format is canonical: format(parse(format(e))) = format(e)', () => {
    fc.assert(
      fc.property(fc.array(anEvent, { maxLength: 50 }), (events) => {
        const text = formatSchedule(events);
        expect(formatSchedule(parseSchedule(text))).toBe(text);
      }),
      { seed: 12, numRuns: 500 },
    );
  });

  it('offsets point at the token each event came from', () => {
    expect(parseScheduleWithOffsets('0 irq1*2 mig0>1').offsets).toEqual([0, 2, 2, 9]);
  });

  it.each([
    ['0 1 x', 4, "unknown event 'x': expected N, irqN, nmiN, preN, migN>M, flushN, offN or onN"],
    ['irq', 3, "expected a CPU number after 'irq', found the end"],
    ['mig0 1', 4, "expected '>' and a target CPU after 'mig0', found ' '"],
    ['mig0>', 5, 'expected a target CPU number, found the end'],
    ['0 (1 0', 2, "this '(' is never closed"],
    ['0 1)', 3, "')' without a matching '('"],
    ['(0 1) 1', 5, "a group '( … )' must be followed by '*count'"],
    ['0*0', 2, 'a repeat count must be at least 1'],
    ['0x1', 1, "unexpected 'x' after an event: separate events with spaces"],
    ['256', 0, 'a CPU number must be at most 255, got 256'],
    [
      `0*${MAX_SCHEDULE_EVENTS} 1`,
      10,
      `the schedule expands to more than ${MAX_SCHEDULE_EVENTS} events`,
    ],
  ])('rejects %j at offset %i: %s', (text, position, reason) => {
    const e = errorOf(text);
    expect(e.position).toBe(position);
    expect(e.reason).toBe(reason);
    expect(e.message).toBe(`schedule, column ${position + 1}: ${reason}`);
  });

  it('the empty schedule is empty', () => {
    expect(parseSchedule('  ')).toEqual([]);
    expect(formatSchedule([])).toBe('');
  });
});
