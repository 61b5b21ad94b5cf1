// The room's questions are the engine's: their choices are the outcomes Explore reaches, their
// answer the schedule's own end, and what the engine cannot settle in a click is refused.

import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../machine/schedule.ts';
import { examples } from '../scenarios/examples.ts';
import { scenarioNamed } from '../scenarios/index.ts';
import { TWO_OPENS_FROM_100 } from '../scenarios/nrFiles.ts';
import { resolveParams } from '../scenarios/params.ts';
import { programScenario } from '../scenarios/program.ts';
import type { Params } from '../scenarios/types.ts';
import { boundsText, NONE_LOST, roomQuestions, type StepMoment } from './questions.ts';

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
    expect(refused.map((r) => r.kind)).toEqual(['outcome', 'value', 'lost', 'breaks']);
  });

  it("asks whose add global-plain's lost update loses: CPU0's, at CPU1's store", () => {
    const { questions } = roomQuestions(moment('global-plain', TWO_OPENS_FROM_100, '0 1 0 1', 2));
    expect(questions.find((q) => q.id === 'lost')).toEqual({
      kind: 'lost',
      id: 'lost',
      prompt: "Which CPU's add does the rest of this schedule lose first? (2 more steps)",
      choices: ['CPU0', 'CPU1', NONE_LOST],
      answer: 0,
      reveal: { schedule: '0 1 0 1', cursor: 4 },
    });
  });

  it("irq-local-rmw none: the IRQ handler's add is lost, revealed at the task's store", () => {
    const { questions } = roomQuestions(
      moment('irq-local-rmw', { variant: 'none' }, '0 0 irq0 0*4 0 0', 1),
    );
    const lost = questions.find((q) => q.id === 'lost');
    expect(lost?.prompt).toBe(
      'Whose add does the rest of this schedule lose first? (8 more steps)',
    );
    expect(lost?.choices).toEqual(['CPU0', "CPU0's IRQ handler", NONE_LOST]);
    expect(lost?.answer).toBe(1);
    // The store that overwrites it is event 8 of 9: the reveal stops just after it.
    expect(lost?.reveal).toEqual({ schedule: '0 0 irq0 0*6', cursor: 8 });
  });

  it('"none is lost" when the rest of the schedule loses no add, revealed at its end', () => {
    const serial = roomQuestions(moment('global-plain', TWO_OPENS_FROM_100, '0 0 1 1', 1));
    const lost = serial.questions.find((q) => q.id === 'lost');
    expect(lost?.choices).toEqual(['CPU0', 'CPU1', NONE_LOST]);
    expect(lost?.answer).toBe(2);
    expect(lost?.reveal).toEqual({ schedule: '0 0 1 1', cursor: 4 });
    // irqsave holds the IRQ pending: the handler's add comes after the task's store.
    const held = roomQuestions(moment('irq-local-rmw', { variant: 'irqsave' }, '0 0 irq0 0*6', 1));
    expect(held.questions.find((q) => q.id === 'lost')?.answer).toBe(2);
  });

  it('offers at most MAX_CHOICES choices, the right one and "none is lost" among them', () => {
    // Eight CPUs: CPU7's store overwrites CPU0's add; seven contexts and "none" fit.
    const { questions } = roomQuestions(
      moment('global-plain', { cpus: 8, iterations: 1, initial: 100 }, '0 7 0 7', 0),
    );
    const lost = questions.find((q) => q.id === 'lost');
    expect(lost?.choices).toEqual([
      'CPU0',
      'CPU1',
      'CPU2',
      'CPU3',
      'CPU4',
      'CPU5',
      'CPU6',
      NONE_LOST,
    ]);
    expect(lost?.answer).toBe(0);
    expect(lost?.reveal).toEqual({ schedule: '0 7 0 7', cursor: 4 });
  });

  it('refuses when one store wipes out the adds of two contexts: not one answer', () => {
    const { refused } = roomQuestions(
      moment('global-plain', { cpus: 3, iterations: 1, initial: 100 }, '0 2 2 1 1 0', 1),
    );
    expect(refused).toContainEqual({
      kind: 'lost',
      why: 'the store at step 6 overwrites the adds of CPU2 and CPU1: not one answer',
    });
  });

  it('refuses whose add is lost with no counter word, under tso, and at or short of the end', () => {
    const sb = programScenario(examples.find((e) => e.id === 'SB')?.text() ?? '');
    if (!sb.ok) throw new Error('SB does not compile');
    const litmus = roomQuestions({
      scenario: sb.scenario,
      params: resolveParams(sb.scenario, { memory: 'sc' }),
      events: parseSchedule('0 1 0 1'),
      cursor: 1,
    });
    expect(litmus.refused.find((r) => r.kind === 'lost')?.why).toBe(
      'this program has no counter word its contexts race on, so no add to lose (a per-CPU counter with a global count, or a program with no counter)',
    );
    const whyLost = (o: Params, schedule: string, cursor: number) =>
      roomQuestions(moment('global-plain', o, schedule, cursor)).refused.find(
        (r) => r.kind === 'lost',
      )?.why;
    expect(whyLost({ ...TWO_OPENS_FROM_100, memory: 'tso' }, '0 1 0 1', 1)).toMatch(
      /^under memory tso an add is lost at a store buffer flush/,
    );
    expect(whyLost(TWO_OPENS_FROM_100, '0 1 0 1', 4)).toBe(
      'the stage already shows where the schedule ends: step back first',
    );
    expect(whyLost(TWO_OPENS_FROM_100, '0 1', 1)).toMatch(
      /^the schedule stops before the run finishes, and loses no add before then/,
    );
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
