// The room's questions are the engine's: their choices are the outcomes Explore reaches, their
// answer the schedule's own end, and what the engine cannot settle in a click is refused.

import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../machine/schedule.ts';
import { scenarioNamed } from '../scenarios/index.ts';
import { TWO_OPENS_FROM_100 } from '../scenarios/nrFiles.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Params } from '../scenarios/types.ts';
import { boundsText, roomQuestions, type StepMoment } from './questions.ts';

function moment(id: string, overrides: Params, schedule: string, cursor: number): StepMoment {
  const scenario = scenarioNamed(id);
  return {
    scenario,
    params: resolveParams(scenario, overrides),
    events: parseSchedule(schedule),
    cursor,
  };
}

describe('roomQuestions', () => {
  it("global-plain's lost update, two steps in: the end, nr's value and whether it breaks", () => {
    const { questions, refused } = roomQuestions(
      moment('global-plain', TWO_OPENS_FROM_100, '0 1 0 1', 2),
    );
    expect(refused).toEqual([]);
    const outcome = questions.find((q) => q.id === 'outcome');
    expect(outcome?.prompt).toBe('Where does this schedule end? (2 more steps)');
    expect(outcome?.choices).toEqual([
      'nr=101 exact=102 (breaks no-lost-update)',
      'nr=102 exact=102',
    ]);
    expect(outcome?.answer).toBe(0);
    expect(outcome?.reveal).toEqual({ schedule: '0 1 0 1', cursor: 4 });

    const nr = questions.find((q) => q.id === 'value:nr');
    expect(nr?.choices).toEqual(['101', '102']);
    expect(nr?.answer).toBe(0);
    // exact is 102 whatever the schedule: nothing to ask.
    expect(questions.some((q) => q.id === 'value:exact')).toBe(false);

    const breaks = questions.find((q) => q.id === 'breaks');
    expect(breaks?.choices).toEqual(['Yes', 'No']);
    expect(breaks?.answer).toBe(0);
    // The reveal is Explore's simplest witness: both loads before either store.
    expect(breaks?.reveal.cursor).toBe(4);
    expect(breaks?.reveal.schedule).toMatch(/^(0 1 0 1|0 1 1 0|1 0 0 1|1 0 1 0)$/);
  });

  it('one after the other: the right end is the one nothing is lost in', () => {
    const { questions } = roomQuestions(moment('global-plain', TWO_OPENS_FROM_100, '0 0 1 1', 1));
    const outcome = questions.find((q) => q.id === 'outcome');
    expect(outcome?.choices[outcome.answer]).toBe('nr=102 exact=102');
    expect(questions.find((q) => q.id === 'value:nr')?.answer).toBe(1);
  });

  it('global-atomic cannot lose an add: "No", and the reveal stays where the stage is', () => {
    const { questions } = roomQuestions(moment('global-atomic', TWO_OPENS_FROM_100, '0 1', 1));
    const breaks = questions.find((q) => q.id === 'breaks');
    expect(breaks?.answer).toBe(1);
    expect(breaks?.reveal).toEqual({ schedule: '0 1', cursor: 1 });
    // Every schedule ends alike: no value to ask about.
    expect(questions.filter((q) => q.kind === 'value')).toEqual([]);
  });

  it('refuses the end of a schedule that does not finish, or whose end is on the stage', () => {
    const unfinished = roomQuestions(moment('global-plain', TWO_OPENS_FROM_100, '0 1', 1));
    expect(unfinished.refused).toContainEqual({
      kind: 'outcome',
      why: 'the schedule stops before the run finishes: load a witness, or step to the end and back',
    });
    expect(unfinished.questions.map((q) => q.id)).toEqual(['breaks']);
    const atEnd = roomQuestions(moment('global-plain', TWO_OPENS_FROM_100, '0 1 0 1', 4));
    expect(atEnd.refused[0]?.why).toBe(
      'the stage already shows where the schedule ends: step back first',
    );
  });

  it('refuses what Explore cannot settle within its click-sized limit', () => {
    const { questions, refused } = roomQuestions(
      moment('global-plain', { cpus: 4, iterations: 6 }, '', 0),
    );
    expect(questions).toEqual([]);
    expect(refused.find((r) => r.kind === 'breaks')?.why).toMatch(
      /^Explore stopped after \d+ states \(max-states\): too big to settle in a click/,
    );
  });

  it('refuses under memory lkmm, where the stage does not step', () => {
    const { questions, refused } = roomQuestions(
      moment('global-plain', { ...TWO_OPENS_FROM_100, memory: 'lkmm' }, '', 0),
    );
    expect(questions).toEqual([]);
    expect(refused.map((r) => r.kind)).toEqual(['outcome', 'value', 'breaks']);
  });

  it('says the bounds in words', () => {
    expect(boundsText({ irqs: 0, nmis: 0, preemptions: 0, migrations: 0 })).toBe(
      'with no interventions',
    );
    expect(boundsText({ irqs: 1, nmis: 0, preemptions: 2, migrations: 1 })).toBe(
      'with at most 1 IRQ, 2 preemptions and 1 migration',
    );
  });
});
