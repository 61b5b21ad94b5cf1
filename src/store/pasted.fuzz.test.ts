// Everything a user can paste, fuzzed: links to every screen, schedules and parameters. Each
// must come back as a value or a clear message, never as a crash, and the Step store must keep a
// working session afterwards. A fixed seed keeps the run repeatable; each property runs a
// thousand cases.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScheduleWithOffsets, ScheduleSyntaxError } from '../machine/schedule.ts';
import { catalogue } from '../scenarios/index.ts';
import { ParamError, resolveParams } from '../scenarios/params.ts';
import { decodeLink } from './link.ts';
import { parseLiveLink } from './liveLink.ts';
import { parseScalingLink } from './scalingLink.ts';
import { currentState } from './session.ts';
import { createStepStore } from './stepStore.ts';

const options = { seed: 2011, numRuns: 1000 };

// Pieces links are made of, and the characters that break naive parsers.
const piece = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '%',
    '%E0',
    '%%',
    '&',
    '=',
    '?',
    '#',
    '/',
    '+',
    ',',
    '*',
    '(',
    ')',
    '>',
    '-1',
    '1e9',
    'NaN',
  ),
  fc.integer({ min: -5, max: 70 }).map(String),
);
const word = fc.array(piece, { maxLength: 4 }).map((xs) => xs.join(''));
const ids = fc.constantFrom(...catalogue.map((s) => s.id), 'nope', '');
const names = fc.constantFrom(
  'cpus',
  'iterations',
  'variant',
  'batch',
  'slots',
  'adds',
  'summer',
  'x',
);
const query = fc
  .array(fc.tuple(fc.oneof(names, word), word), { maxLength: 5 })
  .map((kv) => kv.map(([k, v]) => `${k}=${v}`).join('&'));
const schedule = fc
  .array(
    fc.oneof(
      fc.constantFrom('0', '1', '2', 'irq0', 'nmi1', 'pre0', 'mig0>1', '0*3', '(0 1)*2', '9', 'x'),
      word,
    ),
    {
      maxLength: 8,
    },
  )
  .map((xs) => xs.join(' '));
const hash = (screen: string) =>
  fc.oneof(
    fc
      .tuple(ids, query, schedule, word)
      .map(([id, q, s, at]) => `#/${screen}/${id}?${q}&sched=${encodeURIComponent(s)}&at=${at}`),
    fc.tuple(ids, query).map(([id, q]) => `#/${screen}/${id}?${q}`),
    word.map((w) => `#/${screen}${w}`),
    fc.string({ maxLength: 60 }),
  );

describe('what a user can paste', () => {
  it('Step links: opened or refused with a message, and the page keeps working', () => {
    const store = createStepStore();
    fc.assert(
      fc.property(hash('step'), (h) => {
        store.getState().linkOpened(h);
        const { session, notice } = store.getState();
        if (notice !== null)
          expect(notice).toMatch(/^This link could not be opened: .+\. Showing /);
        // Whatever happened, the session is whole: its current state can be read and stepped.
        expect(currentState(session).length).toBe(session.instance.machine.size);
        expect(decodeLink(h).ok || notice !== null).toBe(true);
      }),
      options,
    );
  });

  it('Live and Scaling links: a plan or nothing, never an exception', () => {
    fc.assert(
      fc.property(hash('live'), (h) => {
        const link = parseLiveLink(h);
        if (link !== null) expect(typeof link.scenario).toBe('string');
      }),
      options,
    );
    fc.assert(
      fc.property(hash('scaling'), fc.integer({ min: 1, max: 64 }), (h, cores) => {
        parseScalingLink(h, cores);
      }),
      options,
    );
  });

  it('schedules: events with their offsets, or a syntax error with a position', () => {
    fc.assert(
      fc.property(fc.oneof(schedule, fc.string({ maxLength: 40 })), (s) => {
        try {
          const { events, offsets } = parseScheduleWithOffsets(s);
          expect(offsets.length).toBe(events.length);
        } catch (e) {
          expect(e).toBeInstanceOf(ScheduleSyntaxError);
          expect((e as Error).message).toMatch(/column \d+/);
        }
      }),
      options,
    );
  });

  it('parameters: resolved, or refused naming what is wrong', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...catalogue),
        fc.dictionary(fc.oneof(names, word), fc.oneof(word, fc.integer().map(String)), {
          maxKeys: 4,
        }),
        (sc, set) => {
          try {
            resolveParams(sc, set);
          } catch (e) {
            expect(e).toBeInstanceOf(ParamError);
            expect((e as Error).message.length).toBeGreaterThan(10);
          }
        },
      ),
      options,
    );
  });

  it('a broken percent-encoding is named, not thrown (fuzzing found it)', () => {
    expect(decodeLink('#/step/%E0')).toEqual({
      ok: false,
      message: "the scenario's name in this link is not valid percent-encoding",
    });
    expect(parseLiveLink('#/live/%')?.problems).toEqual([
      "the scenario's name in this link is not valid percent-encoding",
    ]);
  });
});
