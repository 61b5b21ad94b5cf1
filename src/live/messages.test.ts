// Live mode's sentences, word for word: the page's status line and lockstep verdict and `lab
// live`'s lines are built from them.

import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../machine/schedule.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { loadOf } from './load.ts';
import {
  cpuNames,
  didNotStop,
  endedWith,
  groupDigits,
  lockstepVerdict,
  type ModelRun,
  stopMessage,
  stoppedShort,
} from './messages.ts';

const quiet = { irqRate: 0, nmiRate: 0, migrationRate: 0, periodUs: 1000, hotplugRate: 0 };

/** global-plain's lost update: two CPUs read 100, each writes 101. */
function lostUpdate(): ModelRun {
  const sc = findScenario('global-plain') as Scenario;
  return {
    sc,
    params: resolveParams(sc, { iterations: '1', initial: '100' }),
    events: parseSchedule('0 1 0 1'),
  };
}

describe('stop sentences', () => {
  it('names CPUs', () => {
    expect(cpuNames([1])).toBe('CPU1');
    expect(cpuNames([0, 3])).toBe('CPU0 and CPU3');
  });

  it('says how many CPUs a stop left running, and for how long it waited', () => {
    expect(didNotStop(2)).toBe('2 CPU(s) did not stop within 3 s');
  });

  it('tells each way a stop ends', () => {
    const load = loadOf(2, 2, quiet);
    expect(load).toMatchObject({ starved: false, silenceMs: 2000 });
    expect(stopMessage({ kind: 'stopped' }, [], load)).toBe(
      'Stopped: every task finished its operation.',
    );
    expect(stopMessage({ kind: 'stuck', running: 2 }, [], load)).toBe(
      '2 CPU(s) did not stop within 3 s (a CPU spinning on a lock nobody will release?). The workers were terminated; the snapshot below is not at rest. Press Run to start again.',
    );
    expect(stopMessage({ kind: 'stuck', running: 2 }, [1], load)).toBe(
      '2 CPU(s) did not stop within 3 s: CPU1 showed no sign of life (a worker that hung or was terminated), and a stopping CPU waits for every other to stop. The workers were terminated; the snapshot below is not at rest. Press Run to start again.',
    );
    expect(stopMessage({ kind: 'failed', message: 'CPU1 stopped the run: boom' }, [], load)).toBe(
      'CPU1 stopped the run: boom. Press Run to start again.',
    );
    expect(stopMessage({ kind: 'unresponsive', cpus: [0] }, [], load)).toBe(
      'CPU0 stopped responding (no sign of life for 2 s: its worker hung or was terminated), so the run was stopped and every worker terminated; the snapshot below is not at rest. Press Run to start again.',
    );
    expect(stopMessage({ kind: 'unresponsive', cpus: [0, 1] }, [], load)).toMatch(
      /^CPU0 and CPU1 stopped responding \(no sign of life for 2 s: their workers hung or were terminated\)/,
    );
  });

  it('calls an unresponsive CPU on crowded cores starved rather than hung', () => {
    const load = loadOf(8, 2, { ...quiet, migrationRate: 1_000_000 });
    expect(load.starved).toBe(true);
    expect(stopMessage({ kind: 'unresponsive', cpus: [1] }, [], load)).toBe(
      `CPU1 stopped responding (no sign of life for ${String(Math.round(load.silenceMs / 1000))} s; it was most likely starved rather than hung: ${load.warning ?? ''} Fewer CPUs or lower rates avoid it), so the run was stopped and every worker terminated; the snapshot below is not at rest. Press Run to start again.`,
    );
  });
});

describe('lockstep sentences', () => {
  it('says where a replay stopped short', () => {
    expect(
      stoppedShort({ kind: 'illegal', index: 2, event: 'CPU1 steps', reason: 'it has finished' }),
    ).toBe('event 3 (CPU1 steps) is not possible there: it has finished');
    expect(stoppedShort({ kind: 'fault', index: 0, cpu: 1 })).toBe('CPU1 failed at event 1');
  });

  it('tells what the run both sides agree on ended with, as Step judges it', () => {
    expect(endedWith(lostUpdate())).toBe(
      'Both end with nr = 101, exact = 102; broken: no-lost-update (at the end).',
    );
  });

  it("gives the page's verdict on a replay", () => {
    const run = lostUpdate();
    const agree = { result: { kind: 'done', events: 4 }, difference: null, words: 90 } as const;
    expect(lockstepVerdict('Witness lost-update', agree, run)).toEqual({
      verdict:
        "Witness lost-update: model and hardware agree. 4 events, each run by its CPU's worker; all 90 words of the final state match the model's. Both end with nr = 101, exact = 102; broken: no-lost-update (at the end).",
      agreed: true,
    });
    expect(
      lockstepVerdict('X', { ...agree, difference: 'nr: the model has 1, the workers 2' }, run),
    ).toEqual({
      verdict:
        'X: model and hardware differ. First difference: nr: the model has 1, the workers 2.',
      agreed: false,
    });
    expect(
      lockstepVerdict(
        'X',
        { result: { kind: 'fault', index: 1, cpu: 0 }, difference: null, words: 90 },
        run,
      ),
    ).toEqual({ verdict: 'X: CPU0 failed at event 2.', agreed: false });
  });
});

describe('numbers in a reason', () => {
  it('groups the digits of every whole number, as the totals beside it are written', () => {
    expect(groupDigits('nr_files = 35579297, but the exact total is 42729630: 7150333 lost')).toBe(
      'nr_files = 35,579,297, but the exact total is 42,729,630: 7,150,333 lost',
    );
    expect(groupDigits('read() is -12345, 4096 from the exact 12345678901234567890')).toBe(
      'read() is -12,345, 4,096 from the exact 12,345,678,901,234,567,890',
    );
  });

  it('leaves names, decimals and short numbers as they are', () => {
    const text = 'CPU12345 at 25.5555 % (0x12345), 999 of 2^53, v2 1.23456';
    expect(groupDigits(text)).toBe(text);
  });
});
