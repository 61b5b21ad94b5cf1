// Every scenario has its lesson and every witness its question: the classroom never opens a
// scenario without slides, or a witness without something to ask.

import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import globalPlainFile from '../scenarios/catalogue/global-plain.json' with { type: 'json' };
import { lessons, resolveLesson } from './catalogue/index.ts';

describe('lesson catalogue', () => {
  it('has exactly one lesson per scenario of the catalogue', () => {
    expect(lessons.map((l) => l.scenario).sort()).toEqual(catalogue.map((s) => s.id).sort());
  });

  it.each(catalogue)('$id asks one question per witness, keyed by its name', (sc) => {
    const lesson = lessons.find((l) => l.scenario === sc.id);
    expect(Object.keys(lesson?.witnessQuestions ?? {}).sort()).toEqual(
      sc.witnesses.map((w) => w.name).sort(),
    );
  });

  it.each(lessons)('$scenario has 3 to 6 slides and 0 to 3 challenges', (l) => {
    expect(l.slides.length).toBeGreaterThanOrEqual(3);
    expect(l.slides.length).toBeLessThanOrEqual(6);
    expect(l.challenges.length).toBeLessThanOrEqual(3);
  });

  it.each(catalogue)(
    '$id has a challenge to reach if any of its witnesses breaks something',
    (sc) => {
      const lesson = lessons.find((l) => l.scenario === sc.id);
      const breaks = sc.witnesses.some((w) => w.violates.length > 0);
      const reach = lesson?.challenges.filter((c) => c.mode === 'reach') ?? [];
      if (breaks) expect(reach.length).toBeGreaterThan(0);
      else expect(lesson?.challenges.length).toBeGreaterThan(0);
    },
  );

  it.each(lessons)('$scenario cites its sources and says every text in full', (l) => {
    expect(l.sources.length).toBeGreaterThan(0);
    const texts = [
      ...l.sources.flatMap((s) => [s.title, s.ref]),
      ...l.slides.flatMap((s) => [
        s.title,
        s.text,
        ...(s.predict ? [s.predict.question, s.predict.answer] : []),
      ]),
      ...Object.values(l.witnessQuestions).flatMap((q) => [q.question, q.answer]),
      ...l.challenges.flatMap((c) => [c.title, c.task, ...c.hints.map((h) => h.text)]),
    ];
    for (const t of texts) {
      expect(t.trim()).not.toBe('');
      // No placeholder, double space or unbalanced template left in the prose.
      expect(t).not.toMatch(/\{|\}|TODO|\s{2}/);
    }
  });

  it.each(lessons)('$scenario has unique challenge ids that can key progress', (l) => {
    const ids = l.challenges.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('cites mail by Message-ID in angle brackets, or by a subject when none is at hand', () => {
    for (const s of lessons.flatMap((l) => l.sources)) {
      if (s.kind === 'mail')
        expect(s.ref).toMatch(/<[^<>\s]+@[^<>\s]+>|^https:\/\/|subject|thread/);
    }
  });
});

// A teacher edits the lesson files as JSON: a mistake must say which file and where, not crash
// a screen later or be ignored.
describe('lesson files', () => {
  const file = globalPlainFile;
  const broken = (change: (f: typeof file) => void) => {
    const f = JSON.parse(JSON.stringify(file)) as typeof file;
    change(f);
    return () => resolveLesson(f, 'global-plain.json');
  };

  it('reads a file as it is', () => {
    expect(resolveLesson(file, 'global-plain.json')).toEqual(
      lessons.find((l) => l.scenario === 'global-plain'),
    );
  });

  it('names the file and the place of a misspelt key', () => {
    expect(broken((f) => Object.assign(f.slides[0] as object, { titel: 'x' }))).toThrow(
      /^global-plain\.json: slides\.0\.titel: /,
    );
  });

  it('names a goal of an unknown kind', () => {
    expect(
      broken((f) => Object.assign(f.challenges[0] as object, { goal: { kind: 'loses' } })),
    ).toThrow(/^global-plain\.json: challenges\.0\.goal\.kind: /);
  });

  it('names a lesson without its place in the course', () => {
    expect(broken((f) => Object.assign(f, { course: undefined }))).toThrow(
      /^global-plain\.json: course: /,
    );
  });

  it('names a setup or a source that does not exist', () => {
    expect(broken((f) => Object.assign(f.slides[0] as object, { params: 'six-z' }))).toThrow(
      'global-plain.json: no setup is named "six-z"',
    );
    expect(broken((f) => f.sources.push('nobody-2099'))).toThrow(
      'global-plain.json: sources.json has no source "nobody-2099"',
    );
  });
});
