import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIOS, scalingScenarios } from '../live/scaling/plan.ts';
import { algorithmColour, algorithmDash } from './algorithmStyle.ts';
import { ALGORITHM_COLOURS } from './palette.ts';

describe("the Scaling lines' colours and dashes", () => {
  it('give every algorithm a sweep can take a colour of its own', () => {
    const colours = scalingScenarios().map(algorithmColour);
    expect(new Set(colours).size).toBe(colours.length);
    expect(colours.every((c) => ALGORITHM_COLOURS.includes(c))).toBe(true);
  });

  it('keep the colours the lab has always drawn them in', () => {
    expect(algorithmColour('global-atomic')).toBe('#d62728');
    expect(algorithmColour('percpu-classic')).toBe('#1f5fa8');
    expect(algorithmColour('percpu-tree')).toBe('#303030');
  });

  it('dash every line of the default sweep differently, the first solid', () => {
    const dashes = DEFAULT_SCENARIOS.map((id) => algorithmDash(id));
    expect(new Set(dashes).size).toBe(dashes.length);
    expect(dashes[0]).toBe('');
  });

  it("keep an interpreted twin's colour with the next dash", () => {
    expect(algorithmColour('percpu-seq (interpreted)')).toBe(algorithmColour('percpu-seq'));
    expect(algorithmDash('percpu-seq (interpreted)')).not.toBe(algorithmDash('percpu-seq'));
  });

  it('draw what no sweep offers in grey', () => {
    expect(algorithmColour('irq-local-rmw')).toBe('#444444');
  });
});
