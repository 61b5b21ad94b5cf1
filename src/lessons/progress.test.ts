// Progress comes back from localStorage, where anything can be: the parser must turn every bad
// record into a clear error, never throw, and give every good record back unchanged.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  emptyProgress,
  parseProgress,
  type Progress,
  PROGRESS_LIMITS,
  serializeProgress,
  validateProgress,
  withSettled,
  withSlide,
  withSolution,
} from './progress.ts';

const SEED = 20240611;

const id = fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}$/);
const count = (max: number) => fc.integer({ min: 0, max });
const score = fc.record({
  interventions: count(PROGRESS_LIMITS.score),
  switches: count(PROGRESS_LIMITS.score),
  steps: count(PROGRESS_LIMITS.score),
});
const schedule = fc
  .array(fc.constantFrom('0', '1', '2', 'irq0', 'nmi1', 'pre0', 'mig0>1', '0*3', '(0 1)*2'), {
    maxLength: 12,
  })
  .map((t) => t.join(' '));
const challengeProgress = fc.oneof(
  fc.record({ kind: fc.constant('solved' as const), schedule, score }),
  fc.constant({ kind: 'settled' as const }),
);
const progress: fc.Arbitrary<Progress> = fc.record({
  version: fc.constant(1 as const),
  lessons: fc.dictionary(
    id,
    fc.record({ slide: count(PROGRESS_LIMITS.slide), done: fc.boolean() }),
  ),
  challenges: fc.dictionary(
    fc.tuple(id, id).map(([a, b]) => `${a}/${b}`),
    challengeProgress,
  ),
});

describe('parseProgress', () => {
  it('gives every valid record back unchanged after a round trip', () => {
    fc.assert(
      fc.property(progress, (p) => {
        const r = parseProgress(serializeProgress(p));
        expect(r).toEqual({ ok: true, progress: p });
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('never throws on any JSON value, and explains every refusal', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = validateProgress(v);
        if (!r.ok) expect(r.error).toMatch(/^progress/);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('never throws on any value at all, bigints and undefined included', () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withNullPrototype: true }),
        (v) => {
          const r = validateProgress(v);
          if (!r.ok) expect(r.error).toMatch(/^progress/);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
    const odd = { version: 1, lessons: { a: { slide: 10n, done: true } }, challenges: {} };
    expect(validateProgress(odd)).toEqual({
      ok: false,
      error: 'progress.lessons["a"].slide must be an integer from 0 to 99, got 10n',
    });
    expect(validateProgress(undefined)).toEqual({ ok: false, error: 'progress must be an object' });
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const r = parseProgress(text);
        if (!r.ok) expect(r.error.length).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('rejects a valid record with one field spoilt, and names the field', () => {
    const spoil = fc.constantFrom<[string, (p: Record<string, unknown>) => unknown]>(
      ['version', (p) => ({ ...p, version: 0 })],
      ['version', (p) => ({ ...p, version: '1' })],
      ['lessons', (p) => ({ ...p, lessons: [] })],
      ['challenges', (p) => ({ ...p, challenges: null })],
      ['unknown field', (p) => ({ ...p, extra: true })],
      [
        'lacks',
        (p) => {
          const rest = { ...p };
          delete rest.lessons;
          return rest;
        },
      ],
      ['slide', (p) => ({ ...p, lessons: { 'global-plain': { slide: -1, done: false } } })],
      ['slide', (p) => ({ ...p, lessons: { 'global-plain': { slide: 1.5, done: false } } })],
      ['done', (p) => ({ ...p, lessons: { 'global-plain': { slide: 0, done: 'yes' } } })],
      ['scenario id', (p) => ({ ...p, lessons: { __proto__x: { slide: 0, done: true } } })],
      ['"scenario/challenge" key', (p) => ({ ...p, challenges: { nokey: { kind: 'settled' } } })],
      ['kind', (p) => ({ ...p, challenges: { 'a/b': { kind: 'won' } } })],
      [
        'schedule',
        (p) => ({
          ...p,
          challenges: {
            'a/b': {
              kind: 'solved',
              schedule: '0 zap',
              score: { interventions: 0, switches: 0, steps: 1 },
            },
          },
        }),
      ],
      [
        'score.steps',
        (p) => ({
          ...p,
          challenges: {
            'a/b': {
              kind: 'solved',
              schedule: '0',
              score: { interventions: 0, switches: 0, steps: -3 },
            },
          },
        }),
      ],
    );
    fc.assert(
      fc.property(progress, spoil, (p, [what, f]) => {
        const r = validateProgress(f(JSON.parse(serializeProgress(p)) as Record<string, unknown>));
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error).toContain(what);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('says when the record comes from a newer version of the lab', () => {
    expect(parseProgress('{"version":2,"lessons":{},"challenges":{}}')).toEqual({
      ok: false,
      error: 'progress was saved by a newer version (2) of the lab',
    });
  });

  it('says plainly when the text is not JSON', () => {
    expect(parseProgress('{"version":1,')).toEqual({
      ok: false,
      error: 'the saved progress is not valid JSON',
    });
  });

  it('refuses records too large to be ours', () => {
    const lessons = Object.fromEntries(
      Array.from({ length: PROGRESS_LIMITS.entries + 1 }, (_, i) => [
        `s${i}`,
        { slide: 0, done: false },
      ]),
    );
    const r = validateProgress({ version: 1, lessons, challenges: {} });
    expect(r.ok).toBe(false);
  });
});

describe('progress updates', () => {
  it('withSlide keeps the furthest slide reached and never undoes done', () => {
    let p = withSlide(emptyProgress(), 'global-plain', 3);
    p = withSlide(p, 'global-plain', 1, true);
    p = withSlide(p, 'global-plain', 2);
    expect(p.lessons['global-plain']).toEqual({ slide: 3, done: true });
  });

  it('withSolution keeps the simpler solution', () => {
    const best = { interventions: 0, switches: 1, steps: 8 };
    const worse = { interventions: 1, switches: 0, steps: 3 };
    let p = withSolution(emptyProgress(), 'global-plain/lose-one', '0 1 0 1 0 0 1 1', best);
    p = withSolution(p, 'global-plain/lose-one', 'irq0', worse);
    expect(p.challenges['global-plain/lose-one']).toEqual({
      kind: 'solved',
      schedule: '0 1 0 1 0 0 1 1',
      score: best,
    });
  });

  it('withSolution records the hints shown, and prefers a solution as simple found with fewer', () => {
    const score = { interventions: 0, switches: 1, steps: 8 };
    const key = 'global-plain/lose-one';
    let p = withSolution(emptyProgress(), key, '0 1 0 1 0 0 1 1', score, 3);
    expect(p.challenges[key]).toMatchObject({ kind: 'solved', hints: 3 });
    p = withSolution(p, key, '1 0 1 0 1 1 0 0', score, 0);
    expect(p.challenges[key]).toEqual({ kind: 'solved', schedule: '1 0 1 0 1 1 0 0', score });
    const hinted = withSolution(emptyProgress(), key, '0 1 0 1 0 0 1 1', score, 2);
    expect(parseProgress(serializeProgress(hinted))).toEqual({ ok: true, progress: hinted });
  });

  it('every update gives a record the parser accepts', () => {
    const p = withSettled(
      withSolution(
        withSlide(emptyProgress(), 'percpu-seq', 4),
        'percpu-seq/make-it-retry',
        '0*3 1*9',
        {
          interventions: 0,
          switches: 1,
          steps: 12,
        },
      ),
      'percpu-seq/no-livelock',
    );
    expect(parseProgress(serializeProgress(p))).toEqual({ ok: true, progress: p });
  });
});
