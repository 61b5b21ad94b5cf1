// Everything a user can paste, fuzzed: links to every screen, schedules and parameters. Each
// must come back as a value or a clear message, never as a crash, and the Step store must keep a
// working session afterwards. A fixed seed keeps the run repeatable; each property runs a
// thousand cases.

import fc from 'fast-check';
import { compressToEncodedURIComponent } from 'lz-string';
import { describe, expect, it } from 'vitest';
import { parseScheduleWithOffsets, ScheduleSyntaxError } from '../machine/schedule.ts';
import { catalogue } from '../scenarios/index.ts';
import { ParamError, resolveParams } from '../scenarios/params.ts';
import { decodeLink, encodeLink } from './link.ts';
import { readPacked } from './packedLink.ts';
import { MAX_LINK_CHARS, MAX_PACKED_CHARS } from './linkLimits.ts';
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
        // Refused (the named scenario, or the first, at its start), or opened without the parts
        // it could not use.
        if (notice !== null)
          expect(notice).toMatch(
            /^(This link could not be opened: .+\. Showing |Part of this link was ignored: .+\. The rest is open\.$)/,
          );
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

  it('compressed Step links: any JSON inside opens only with the shape the app writes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            p: fc.oneof(fc.dictionary(names, word), fc.jsonValue()),
            s: fc.oneof(schedule, fc.jsonValue()),
            c: fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.jsonValue()),
          }),
        ),
        (doc) => {
          const d = decodeLink(
            `#/step/global-plain?z=${compressToEncodedURIComponent(JSON.stringify(doc))}`,
            readPacked,
          );
          if (!d.ok) expect(d.message).toBe('the compressed part of this link is damaged');
          else {
            expect(typeof d.link.schedule).toBe('string');
            expect(Number.isSafeInteger(d.link.cursor) && d.link.cursor >= 0).toBe(true);
            for (const v of Object.values(d.link.params)) expect(typeof v).toBe('string');
          }
        },
      ),
      options,
    );
    // And what the app writes reads back unchanged.
    const link = {
      scenario: 'percpu-classic',
      params: { cpus: '3', slots: '1,2,3' },
      schedule: '0 1 2 '.repeat(40).trim(),
      cursor: 17,
    };
    expect(decodeLink(encodeLink(link), readPacked)).toEqual({ ok: true, link });
  });

  it('links too long to be ours are refused by their length, on every screen', () => {
    const huge = `#/step/global-plain?sched=${'0 '.repeat(MAX_LINK_CHARS)}`;
    const step = decodeLink(huge);
    expect(step.ok).toBe(false);
    if (!step.ok) expect(step.message).toMatch(/characters long, more than the 16,384/);
    expect(parseLiveLink(`#/live/global-plain?sched=${'0 '.repeat(MAX_LINK_CHARS)}`)).toMatchObject(
      { scenario: '', problems: [expect.stringMatching(/characters long/)] },
    );
    expect(
      parseScalingLink(`#/scaling?scenarios=${'a,'.repeat(MAX_LINK_CHARS)}`, 2)?.problems,
    ).toEqual([expect.stringMatching(/characters long/)]);
    // A compressed part longer than the app ever writes is not decompressed at all.
    const z = decodeLink(`#/step/global-plain?z=${'A'.repeat(MAX_PACKED_CHARS + 1)}`);
    expect(z).toEqual({
      ok: false,
      message: 'the compressed part of this link is too long to be ours',
    });
    // The Step store keeps the refused link in its notice, cut to a readable length.
    const store = createStepStore();
    store.getState().linkOpened(huge);
    expect(store.getState().notice).toMatch(/characters long/);
    expect(store.getState().notice?.length).toBeLessThan(600);
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
