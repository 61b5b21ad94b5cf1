// Every slide's moment is real: its schedule replays legally with its parameters, and what its
// text says about the counters is what the replay shows (`expect`, `breaks`). A teacher can put
// any slide on the projector and the stage will agree with it.

import { describe, expect, it } from 'vitest';
import { replay } from '../machine/replay.ts';
import { findScenario } from '../scenarios/index.ts';
import { axiomaticAnswer } from '../axiomatic/outcomes.ts';
import { jsonObservables, observablesLine, observe } from '../scenarios/outcome.ts';
import type { Observables, ParamValue, Scenario } from '../scenarios/types.ts';
import { lessons } from './catalogue/index.ts';
import { slideStage } from './slide.ts';
import type { Slide } from './types.ts';
import { runVerdict } from './verdict.ts';

const cases = lessons.flatMap((l) =>
  l.slides.map((slide, i) => ({ id: l.scenario, slide, name: `${l.scenario} #${i + 1}` })),
);

/** A slide the stage moves to (it has a schedule, parameters or figures to check). */
const staged = (s: Slide) =>
  s.at !== undefined ||
  s.params !== undefined ||
  s.expect !== undefined ||
  s.breaks !== undefined ||
  s.graph !== undefined;

/**
 * A slide on the kernel's memory model: the end state its `graph` names, among those the model
 * allows, with every value the model's end states show.
 */
function graphed(sc: Scenario, slide: Slide, line: string) {
  const { params: p } = slideStage(sc, slide);
  if (p.memory !== 'lkmm')
    throw new Error(`a graph slide is under memory lkmm, not ${String(p.memory)}`);
  if (slide.at !== undefined) throw new Error('a graph slide has no schedule (at)');
  const a = axiomaticAnswer(sc, p);
  const o = a.outcomes.find((x) => observablesLine(x.observables).includes(line));
  if (!o)
    throw new Error(
      `no end state of the model reads "${line}": ${a.outcomes.map((x) => observablesLine(x.observables)).join(' | ')}`,
    );
  const seen = a.outcomes.flatMap((x) => Object.values(x.observables));
  return {
    p,
    seen,
    verdict: { observables: o.observables, broken: o.violations.map((v) => v.id).sort() },
  };
}

function replayed(id: string, slide: Slide) {
  const sc = findScenario(id);
  if (!sc) throw new Error(`no scenario ${id}`);
  if (slide.graph !== undefined) return graphed(sc, slide, slide.graph);
  const { params: p, events } = slideStage(sc, slide);
  const { machine } = sc.build(p);
  const { states } = replay(machine, events);
  // Every observable value the stage showed on the way, for the figures check.
  const seen = states.flatMap((s) => Object.values(observe(sc, machine, s, p)));
  return { p, seen, verdict: runVerdict(sc, machine, states, p) };
}

/**
 * The numbers a slide's prose states, once names that merely contain digits (CPU0, s64,
 * atomic64, cmpxchg8b), versions, years, hexadecimal words and powers like 2^32 are set aside.
 */
function figures(text: string): number[] {
  const t = text
    .replace(/0x[0-9A-Fa-f:]+/g, ' ')
    .replace(/\d+\^\d+/g, ' ')
    .replace(/\bv?\d+\.\d+(\.\d+)?x?\b/g, ' ')
    .replace(/\b(19|20)\d\d\b/g, ' ')
    .replace(/\b\d+-(bit|way)\b/g, ' ')
    .replace(/x86[-_]\d+/g, ' ')
    .replace(/[A-Za-z_]\w*\d\w*/g, ' ');
  return [...t.matchAll(/\d+/g)].map((m) => Number(m[0]));
}

/**
 * The figures a slide may state: any value its replay went through (`seen`), and a parameter or
 * final value (`final`) or one sum, difference or product of two of them above 2 (124 = 31 × 4,
 * 93 = 125 − 32), and the small counts 0, 1 and 2.
 */
function allowedFigures(seen: readonly number[], final: readonly number[]): Set<number> {
  const out = new Set<number>([0, 1, 2, ...seen.map(Math.abs)]);
  const base = [...new Set(final.map(Math.abs))].filter((v) => v > 2);
  for (const a of base)
    for (const b of base) for (const v of [a, a + b, a - b, a * b]) out.add(Math.abs(v));
  return out;
}

const numbersIn = (v: ParamValue | number | null | undefined): number[] =>
  typeof v === 'number' ? [v] : Array.isArray(v) ? [...(v as readonly number[])] : [];

describe('slides', () => {
  it.each(cases.filter((c) => staged(c.slide)))(
    '$name replays to the values its text states',
    ({ id, slide }) => {
      const { verdict } = replayed(id, slide);
      if (slide.expect) {
        expect(jsonObservables(verdict.observables as Observables)).toMatchObject(slide.expect);
      }
      if (slide.breaks) expect(verdict.broken).toEqual([...slide.breaks].sort());
    },
  );

  it.each(cases.filter((c) => staged(c.slide)))(
    '$name states no figure that its replay or parameters do not give',
    ({ id, slide }) => {
      const { p, seen, verdict } = replayed(id, slide);
      const numbers = (vs: readonly unknown[]) =>
        vs.flatMap((v) =>
          typeof v === 'bigint' ? [Number(v)] : numbersIn(v as ParamValue | null),
        );
      const params = Object.values(p).flatMap(numbersIn);
      const allowed = allowedFigures(numbers(seen), [
        ...numbers(Object.values(verdict.observables)),
        ...params,
      ]);
      const text = [slide.text, slide.predict?.question ?? '', slide.predict?.answer ?? ''].join(
        ' ',
      );
      for (const n of figures(text)) expect(allowed, `${n} in "${text}"`).toContain(n);
    },
  );

  it('every slide the stage moves to checks what it shows (expect or breaks)', () => {
    for (const { slide, name } of cases) {
      if (staged(slide)) {
        expect(slide.expect ?? slide.breaks, name).toBeDefined();
      }
    }
  });
});
