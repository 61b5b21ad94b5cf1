import { describe, expect, it } from 'vitest';
import { exploreApi } from './exploreApi.ts';

describe('the explore worker API (run in Node, as the worker runs it)', () => {
  it('returns JSON-able outcomes with witness schedules and reports progress', async () => {
    const seen: number[] = [];
    const r = await exploreApi.run(
      {
        scenario: 'percpu-seq-multi',
        params: {},
        bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 1, switches: null },
        maxStates: 50_000,
      },
      (p) => seen.push(p.states),
    );
    expect(r.complete).toBe(false);
    expect(seen.length).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    // Node has no cross-origin isolation to speak of: one worker.
    expect(r.workers).toBe(1);
  });

  it('answers global-plain with nr ∈ {2, 3, 4}', async () => {
    const r = await exploreApi.run({
      scenario: 'global-plain',
      params: { iterations: '2' },
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: null },
      maxStates: 10_000,
    });
    expect(r.outcomes.map((o) => o.observables.nr).sort()).toEqual([2, 3, 4]);
    expect(r.outcomes.every((o) => typeof o.witness === 'string')).toBe(true);
  });

  it('refuses an unknown scenario or a bad parameter with a message', async () => {
    const req = {
      params: {},
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: null },
      maxStates: 10,
    };
    await expect(exploreApi.run({ ...req, scenario: 'nope' })).rejects.toThrow(
      "unknown scenario 'nope'",
    );
    await expect(
      exploreApi.run({ ...req, scenario: 'global-plain', params: { cpus: '0' } }),
    ).rejects.toThrow('cpus must be from 1 to 64, got 0');
  });
});

describe('challenge statistics in the explore worker API', () => {
  it('counts the end states of global-plain/lose-one that lose an update, and the simplest', () => {
    const s = exploreApi.challengeStats('global-plain', 'lose-one');
    expect(s.complete).toBe(true);
    expect(s.reachingEndStates).toBeGreaterThan(0);
    expect(s.reachingEndStates).toBeLessThanOrEqual(s.endStates);
    expect(s.simplest?.score.interventions).toBe(0);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it('refuses an unknown scenario or challenge with a message', () => {
    expect(() => exploreApi.challengeStats('nope', 'lose-one')).toThrow("unknown scenario 'nope'");
    expect(() => exploreApi.challengeStats('global-plain', 'nope')).toThrow(
      "global-plain has no challenge 'nope'",
    );
  });
});
