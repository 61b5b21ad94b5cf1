// `lab live` and `lab bench` as a user runs them: real processes racing CPU threads on the
// machine's cores, their reports and exit status. These tests depend on the cores they get (a
// race needs two running at once), so this file is in the unit tests' project `races`, run one
// file at a time after the others (vite.config.ts). The first test runs `lab` as `npm run lab`
// does, through tsx, CPU threads included.

import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { labCli, MY_COUNTER } from '../../test/labCli.ts';
import { DEFAULT_HOTPLUG_RATE } from '../live/control.ts';
import { defaultCpus } from '../live/specs.ts';

const { lab, labJson, tsx, file } = await labCli();

describe('lab through tsx, as npm run lab starts it', () => {
  it('lists the catalogue as the bundle does, and races CPU threads started through tsx', () => {
    const list = tsx('list', '--json');
    expect(list.status, list.err).toBe(0);
    expect(list.out).toBe(lab('list', '--json').out);
    const live = tsx('live', 'global-atomic', '--cpus', '2', '--seconds', '0.2', '--json');
    expect(live.status, live.err).toBe(0);
    expect(JSON.parse(live.out)).toMatchObject({
      cpus: 2,
      engine: 'compiled',
      stopped: true,
      terminal: true,
      lost: 0,
      violations: [],
    });
  });
});

describe('lab live and bench on threads', () => {
  it('live races real threads: global-atomic stays exact at rest, with a JSON report', () => {
    const doc = labJson('live', 'global-atomic', '--cpus', '2', '--seconds', '0.3', '--json') as {
      cpus: number;
      engine: string;
      stopped: boolean;
      terminal: boolean;
      lost: number;
      perCpu: { adds: number }[];
      violations: unknown[];
    };
    expect(doc.cpus).toBe(2);
    expect(doc.engine).toBe('compiled');
    expect(doc.stopped && doc.terminal).toBe(true);
    expect(doc.lost).toBe(0);
    expect(doc.perCpu.reduce((a, c) => a + c.adds, 0)).toBeGreaterThan(1000);
    expect(doc.violations).toEqual([]);
  });

  it('live says which always-invariants it judged only on the state the CPUs stopped in', () => {
    const args = ['live', 'percpu-modern', '--set', 'variant=preempt-only', '--cpus', '2'];
    const r = lab(...args, '--seconds', '0.2');
    expect(r.status, r.err).toBe(0);
    expect(r.out).toMatch(
      /note: slot-below-batch is judged at every state by the model, but here only on the state the CPUs stopped in/,
    );
    const doc = labJson(...args, '--seconds', '0.2', '--json') as { judgedOnlyAtRest: string[] };
    expect(doc.judgedOnlyAtRest).toEqual(['slot-below-batch']);
  });

  it('live runs CPU hotplug free: CPU1 goes offline at the default rate, and the report counts it', () => {
    const args = ['live', 'percpu-hotplug-sum', '--set', 'variant=online-or-dying'];
    const doc = labJson(...args, '--seconds', '0.3', '--period-us', '0', '--json') as {
      cpus: number;
      settings: { hotplugRate: number };
      hotplugs: number;
      terminal: boolean;
      violations: unknown[];
    };
    expect(doc.cpus).toBe(3);
    expect(doc.settings.hotplugRate).toBe(DEFAULT_HOTPLUG_RATE);
    expect(doc.hotplugs).toBeGreaterThan(0);
    expect(doc.terminal).toBe(true);
    expect(doc.violations).toEqual([]);
    // With the rate at 0 no CPU goes offline, and the report says so.
    const none = lab(...args, '--seconds', '0.2', '--hotplug-rate', '0');
    expect(none.status, none.err).toBe(0);
    expect(none.out).toMatch(/No CPU hotplug event was taken/);
  });

  it('live without --cpus runs as many CPUs as the page would: at least two, so a race can happen', () => {
    const doc = labJson('live', 'global-plain', '--seconds', '0.2', '--json') as { cpus: number };
    expect(doc.cpus).toBe(defaultCpus(availableParallelism()));
    expect(doc.cpus).toBeGreaterThanOrEqual(2);
  });

  it('live replays a witness in lockstep on threads and says whether model and hardware agree', () => {
    const doc = labJson('live', 'this-cpu-migrate', '--witness', 'migrate-between', '--json') as {
      lockstep: { agreed: boolean; name: string }[];
    };
    expect(doc.lockstep).toEqual([
      expect.objectContaining({ name: 'migrate-between', agreed: true }),
    ]);
  });

  it("live --engine interpreted runs the model's interpreter and says so", () => {
    const args = ['live', 'global-atomic', '--cpus', '1', '--seconds', '0.2'];
    const doc = labJson(...args, '--engine', 'interpreted', '--json') as { engine: string };
    expect(doc.engine).toBe('interpreted');
    const bad = lab('live', 'global-atomic', '--engine', 'jit');
    expect(bad.status).toBe(2);
    expect(bad.err).toMatch(/--engine takes compiled or interpreted/);
  });

  it('bench sweeps algorithms and CPUs on threads and reports the Scaling JSON', () => {
    const doc = labJson(
      'bench',
      '--scenarios',
      'global-plain,percpu-classic',
      '--cpus',
      '1,2',
      '--seconds',
      '0.1',
      '--warmup',
      '0',
      '--repeat',
      '2',
      '--json',
    ) as {
      machine: { cores: number; runtime: string };
      settings: { seconds: number; warmupSeconds: number; repeat: number };
      results: {
        scenario: string;
        cpus: number;
        layout: string;
        summer: string;
        engine: string;
        opsPerSecond: { median: number; min: number; max: number };
        perCpuOpsPerSecond: number[];
        instructionsPerSecondPerCpu: number[];
        sumsPerSecond: number | null;
        lost: number;
        exact: boolean;
        violations: string[];
      }[];
      headline: string;
      probe: { seen: number | null };
    };
    expect(doc.machine.runtime).toMatch(/^Node v/);
    expect(doc.settings).toMatchObject({ seconds: 0.1, warmupSeconds: 0, repeat: 2 });
    expect(doc.results.map((x) => `${x.scenario}@${String(x.cpus)}`)).toEqual([
      'global-plain@1',
      'global-plain@2',
      'percpu-classic@1',
      'percpu-classic@2',
    ]);
    for (const x of doc.results) {
      expect(x).toMatchObject({
        layout: 'padded',
        summer: 'none',
        engine: 'compiled',
        sumsPerSecond: null,
      });
      expect(x.opsPerSecond.min).toBeLessThanOrEqual(x.opsPerSecond.median);
      expect(x.opsPerSecond.median).toBeLessThanOrEqual(x.opsPerSecond.max);
      expect(x.perCpuOpsPerSecond).toHaveLength(x.cpus);
      expect(x.instructionsPerSecondPerCpu).toHaveLength(x.cpus);
    }
    // Judged as well as timed: the racy counter loses updates with two CPUs, the correct one not.
    const plain2 = doc.results[1];
    expect(plain2?.exact).toBe(false);
    expect(plain2?.violations).toContain('no-lost-update');
    expect(doc.results[3]).toMatchObject({ exact: true, lost: 0, violations: [] });
    expect(doc.headline).toMatch(/^With 2 CPUs, .* ran [\d.]+× the adds per second of /);
    expect(doc.probe.seen).toBe(100_000);
  }, 60_000);

  it('runs a file live on worker threads, which are handed its text', () => {
    const doc = labJson('live', file('counter.c', MY_COUNTER), '--seconds', '0.3', '--json') as {
      cpus: number;
      terminal: boolean;
      perCpu: { adds: number }[];
    };
    expect(doc.cpus).toBe(2);
    expect(doc.terminal).toBe(true);
    expect(doc.perCpu.reduce((a, c) => a + c.adds, 0)).toBeGreaterThan(1000);
  });
});
