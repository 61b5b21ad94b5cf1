// Step mode loads a catalogue entry the first time it is asked for (scenarios/load.ts). This file
// does not import scenarios/index.ts, so only the first entry is at hand when it starts, as on a
// page opened by a Step link.

import { describe, expect, it } from 'vitest';
import { loadedScenario, needsLoading } from '../scenarios/load.ts';
import { encodeLink } from './link.ts';
import { createStepStore, linkedEntryLoaded } from './stepStore.ts';

/** Until `f` holds (an entry loads in a few ticks), at most a second. */
async function until(f: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !f(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('Step mode, before the whole catalogue has loaded', () => {
  it('opens a link to an entry once it has loaded, showing what it showed until then', async () => {
    expect(needsLoading('percpu-seq')).toBe(true);
    const store = createStepStore();
    store.getState().linkOpened('#/step/percpu-seq?at=2&sched=0%201');
    expect(store.getState().session.scenario.id).toBe('global-plain');
    expect(store.getState().notice).toBeNull();
    await until(() => store.getState().session.scenario.id === 'percpu-seq');
    expect(store.getState().session.scenario).toBe(loadedScenario('percpu-seq'));
    expect(store.getState().session.cursor).toBe(2);
    expect(store.getState().notice).toBeNull();
  });

  it('a scenario chosen while another loads wins, whichever loads last', async () => {
    const store = createStepStore();
    store.getState().scenarioChosen('torn-read-32');
    store.getState().scenarioChosen('percpu-lglock');
    await until(() => store.getState().session.scenario.id === 'percpu-lglock');
    await linkedEntryLoaded('#/step/torn-read-32');
    await new Promise((r) => setTimeout(r, 20));
    expect(store.getState().session.scenario.id).toBe('percpu-lglock');
  });

  it('an entry loaded before the link is handed over opens at once', async () => {
    expect(needsLoading('this-cpu-ops')).toBe(true);
    await linkedEntryLoaded('#/step/this-cpu-ops');
    const store = createStepStore();
    store.getState().linkOpened('#/step/this-cpu-ops');
    expect(store.getState().session.scenario.id).toBe('this-cpu-ops');
  });

  it('opens a compressed link once its reader has loaded, not before', async () => {
    const schedule = Array.from({ length: 120 }, (_, i) => String(i % 2)).join(' ');
    const params = { iterations: '50' };
    const hash = encodeLink({ scenario: 'global-plain', params, schedule, cursor: 5 });
    expect(hash).toMatch(/\?z=/);
    const store = createStepStore();
    store.getState().linkOpened(hash);
    // The reader is not at hand: the stage stays as it was, without a word.
    expect(store.getState().session.cursor).toBe(0);
    expect(store.getState().notice).toBeNull();
    await until(() => store.getState().session.cursor === 5);
    expect(store.getState().session.events).toHaveLength(120);
    expect(store.getState().notice).toBeNull();
  });

  it('a link to no entry says so at once', () => {
    const store = createStepStore();
    store.getState().linkOpened('#/step/nope');
    expect(store.getState().notice).toMatch(/there is no scenario 'nope'/);
    store.getState().scenarioChosen('nope');
    expect(store.getState().notice).toBe("unknown scenario 'nope'");
  });
});
