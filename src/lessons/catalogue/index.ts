// Every scenario's lesson, by scenario id. The lessons are JSON files beside their scenarios
// (src/scenarios/catalogue/<id>.json), checked against schema.ts as they load; tests hold the
// list to the scenario catalogue (one lesson per scenario, one question per witness) and replay
// every figure, question and hint.

import { allLessonFiles } from '../../scenarios/allLessonFiles.ts';
import type { Params } from '../../scenarios/types.ts';
import type { ScenarioLesson } from '../types.ts';
import { type LessonFile, lessonFileSchema, parseFile, sourcesFileSchema } from './schema.ts';
import { sharedSetups } from './setups.ts';
import sourcesFile from './sources.json' with { type: 'json' };

const sources = parseFile(sourcesFileSchema, sourcesFile, 'sources.json');

/** A checked lesson file with its setup names and source keys resolved. */
export function resolveLesson(value: unknown, file: string): ScenarioLesson {
  const l: LessonFile = parseFile(lessonFileSchema, value, file);
  const setup = (p: Params | string): Params => {
    if (typeof p !== 'string') return p;
    const named = l.setups?.[p] ?? sharedSetups[p];
    if (!named) throw new Error(`${file}: no setup is named "${p}"`);
    return named;
  };
  return {
    scenario: l.scenario,
    course: l.course,
    sources: l.sources.map((key) => {
      const s = sources[key];
      if (!s) throw new Error(`${file}: sources.json has no source "${key}"`);
      return s;
    }),
    slides: l.slides.map(({ params, ...slide }) =>
      params === undefined ? slide : { ...slide, params: setup(params) },
    ),
    witnessQuestions: l.witnessQuestions,
    challenges: l.challenges.map((c) => ({ ...c, params: setup(c.params) })),
  };
}

/**
 * Every lesson, in the scenario catalogue's order (courseOrder gives the teaching order): each
 * entry's lesson file beside its scenario (src/scenarios/entries.ts), checked as it loads.
 */
export const lessons: readonly ScenarioLesson[] = allLessonFiles.map(({ id, file }) => {
  const name = `${id}.json`;
  const lesson = resolveLesson(file, name);
  if (lesson.scenario !== id) throw new Error(`${name}: its scenario is "${lesson.scenario}"`);
  return lesson;
});

/** The lesson of scenario `id`, or undefined. */
export function findLesson(id: string): ScenarioLesson | undefined {
  return lessons.find((l) => l.scenario === id);
}
