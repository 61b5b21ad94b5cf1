// Live CPUs on real threads (Node worker_threads over one SharedArrayBuffer): races happen for
// real, the correct variants stay exact, stop leaves a terminal state, and lockstep replays end
// with exactly the model's state. The threads run the bundled CLI's (test/labBundle.ts says why).

import { afterAll, describe, expect, it } from 'vitest';
import { type LiveSettings, noInterference, requestStop } from '../../src/live/control.ts';
import { liveParams } from '../../src/live/liveParams.ts';
import { parseSchedule } from '../../src/machine/schedule.ts';
import { findScenario } from '../../src/scenarios/index.ts';
import { resolveParams } from '../../src/scenarios/params.ts';
import type { ParamValue } from '../../src/scenarios/types.ts';
import type * as Threads from '../../src/cli/live/threads.ts';
import type { EngineKind, Tier } from '../../src/live/engine/engine.ts';

import { type Platform, readRun, RunningCpus, visibilityProbe } from '../../src/live/run.ts';
import { probeText } from '../../src/live/probe.ts';
import { runSweep } from '../../src/live/scaling/measure.ts';
import { defaultPlan, type SweepPlan } from '../../src/live/scaling/plan.ts';
import { liveSpecs } from '../../src/live/specs.ts';
import { BARE_CHUNK } from '../../src/live/wasm/codegen.ts';
import { labBundle } from '../labBundle.ts';

const bundle = await labBundle();
afterAll(() => {
  bundle.remove();
});
const { lockstepOnThreads, nodePlatform, runLive } = (await import(
  bundle.threads
)) as typeof Threads;

async function runFor(
  id: string,
  cpus: number,
  ms: number,
  settings: Partial<LiveSettings> = {},
  choices: Record<string, ParamValue> = {},
  engine: EngineKind = 'compiled',
  tier: Tier = 'bare',
  seed = 1,
) {
  const p = liveParams(id, cpus, choices);
  const {
    reading: r,
    verdict,
    outcome,
  } = await runLive(id, p, { ...noInterference, ...settings }, ms, seed, engine, tier);
  expect(outcome).toEqual({ kind: 'stopped' });
  expect(r.engine).toBe(engine);
  return {
    tier: r.tier,
    terminal: verdict.terminal,
    adds: r.total.adds,
    calls: r.total.calls,
    folds: r.total.folds,
    retries: r.retries,
    broken: verdict.violations.map((v) => v.id),
    hotplugs: r.hotplugs,
    lost: BigInt(r.lost),
    read: r.read,
    o: r.observables,
  };
}

/** Races are probabilistic: a few tries before a missing race counts as a failure. */
async function eventually<T>(tries: number, run: () => Promise<T>, ok: (r: T) => boolean) {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    last = await run();
    if (ok(last)) return last;
  }
  return last as T;
}

describe('live CPUs on threads', () => {
  it('global-plain: two CPUs started together lose updates, counted exactly at rest', async () => {
    const r = await eventually(
      3,
      () => runFor('global-plain', 2, 400),
      (x) => x.lost > 0n,
    );
    expect(r.terminal).toBe(true);
    expect(r.adds).toBeGreaterThan(10_000);
    expect(r.lost).toBeGreaterThan(0n);
    expect(r.broken).toContain('no-lost-update');
  });

  it('global-atomic: exact once stopped', async () => {
    const r = await runFor('global-atomic', 2, 300);
    expect(r.terminal).toBe(true);
    expect(r.adds).toBeGreaterThan(10_000);
    expect(r.lost).toBe(0n);
    expect(r.broken).toEqual([]);
  });

  it('percpu-classic: folds, exact at rest, read() within the band', async () => {
    const r = await runFor('percpu-classic', 3, 300, {}, { batch: 8 });
    expect(r.terminal).toBe(true);
    expect(r.folds).toBeGreaterThan(100);
    expect(r.calls).toBeGreaterThan(0);
    expect(r.lost).toBe(0n);
    expect(r.broken).toEqual([]);
  });

  it('percpu-seq: a busy summer retries', async () => {
    // A retry needs a fold while a sum is in flight on another core: a compiled sum takes tens of
    // nanoseconds, so when other tests load the cores the overlap takes a few tries.
    const r = await eventually(
      5,
      () => runFor('percpu-seq', 3, 500, { periodUs: 0 }, { batch: 2 }),
      (x) => x.retries > 0,
    );
    expect(r.retries).toBeGreaterThan(0);
    expect(r.lost).toBe(0n);
    // Every invariant holds, retries-bounded judged per call: at most once per CPU.
    expect(r.broken).toEqual([]);
    expect(r.read && Math.abs(r.read.error)).toBeLessThanOrEqual(r.read?.bound ?? 0);
  });

  it('irq-local-rmw: IRQs in the middle of the plain add lose updates; irqsave does not', async () => {
    const none = await eventually(
      3,
      () => runFor('irq-local-rmw', 1, 300, { irqRate: 20_000 }, { variant: 'none' }),
      (x) => x.lost !== 0n,
    );
    expect(none.lost).not.toBe(0n);
    expect(Number(none.o.irqs)).toBeGreaterThan(100);
    const safe = await runFor('irq-local-rmw', 1, 300, { irqRate: 20_000 }, { variant: 'irqsave' });
    expect(Number(safe.o.irqs)).toBeGreaterThan(100);
    expect(safe.lost).toBe(0n);
    expect(safe.terminal).toBe(true);
  });

  it('this-cpu-ops: migrations between address and access lose updates; x86 does not', async () => {
    const generic = await eventually(
      3,
      () => runFor('this-cpu-ops', 2, 300, { migrationRate: 20_000 }, { variant: 'generic' }),
      (x) => x.lost !== 0n,
    );
    expect(generic.lost).not.toBe(0n);
    expect(generic.terminal).toBe(true);
    const x86 = await runFor('this-cpu-ops', 2, 300, { migrationRate: 20_000 }, { variant: 'x86' });
    expect(x86.lost).toBe(0n);
    expect(x86.terminal).toBe(true);
  });
});

describe('compiled CPUs on threads', () => {
  it.each(['bare', 'exact'] as const)(
    "a plain load in a compiled loop sees another thread's stores (%s tier; no load kept in a register)",
    async (tier) => {
      // The probe waits as long as the ping-pong moves (a loaded machine is slow, not wrong), so
      // it fails only if the echo stands still: what a load kept in a register does.
      const r = await visibilityProbe(nodePlatform, 'compiled', undefined, undefined, tier);
      expect(r.tier).toBe(tier);
      expect(r.unfinished, probeText(r)).toBeUndefined();
      expect(r.seen).toBe(r.writes);
    },
    // A guard against a hang only: the probe gives up on its own after 5 minutes of progress.
    330_000,
  );

  // Every live scenario and variant, compiled, with what makes its race possible: the scenario's
  // own guarantees are the oracle. Nothing it guarantees may break on real threads, and the
  // variants that do not guarantee every update lose some.
  // A program with CPU hotplug adds nothing: its own test is below ('CPU hotplug in a free run').
  const cases = liveSpecs.flatMap((spec) => {
    const sc = findScenario(spec.id);
    if (!sc || spec.hotplug === true) return [];
    return Object.entries(sc.guarantees).length === 0
      ? [{ id: spec.id, variant: '*', guaranteed: [] as readonly string[] }]
      : Object.entries(sc.guarantees).map(([variant, guaranteed]) => ({
          id: spec.id,
          variant,
          guaranteed,
        }));
  });
  // Each in both tiers: the exact one, and the bare one wherever no event can fall due (a run
  // with IRQs or migrations stays exact, and says so). Both must end in the same verdict class,
  // exact or losing updates, over runs with different seeds, and neither may break what the
  // variant guarantees. Which other invariants a run breaks depends on how the threads meet:
  // percpu-sum-fuzzy's retries-bounded broke in one tier's run and not in the other's on a
  // loaded machine, so those are not compared.
  // percpu-upgrade's no-retry loses only in the one window its upgrade opens at the start of a
  // run: real threads rarely meet it in 300 ms (the explorer's witness shows it), so a run of it
  // is held to its guarantees only. Either tier may or may not meet the window in a run, so
  // their classes may differ by that one loss (CI saw the exact tier meet it and five bare runs
  // miss it).
  const ONCE = new Set(['percpu-upgrade']);
  it.each(cases)('$id ($variant) keeps what it guarantees, bare as exact', async (c) => {
    const { id, variant, guaranteed } = c;
    const sc = findScenario(id);
    const irq = sc?.handlers.some((h) => h.startsWith('IRQ')) ? 20_000 : 0;
    const mig = id === 'this-cpu-ops' ? 20_000 : 0;
    const choices: Record<string, ParamValue> = variant === '*' ? {} : { variant };
    const settings = { irqRate: irq, migrationRate: mig, periodUs: 0 };
    const exact = guaranteed.includes('no-lost-update');
    const classOf = (x: { lost: bigint }) => (x.lost === 0n ? 'exact' : 'lost');
    let seed = 1;
    const run = (tier: Tier) => () =>
      runFor(id, 2, 300, settings, choices, 'compiled', tier, seed++);
    const inExact = await eventually(
      3,
      run('exact'),
      (x) => exact || ONCE.has(id) || x.lost !== 0n,
    );
    const inBare = await eventually(
      5,
      run('bare'),
      (x) => ONCE.has(id) || classOf(x) === classOf(inExact),
    );
    for (const r of [inExact, inBare]) {
      expect(r.terminal).toBe(true);
      expect(r.adds).toBeGreaterThan(1000);
      expect(r.broken.filter((v) => guaranteed.includes(v))).toEqual([]);
      if (exact) expect(r.lost).toBe(0n);
      else if (!ONCE.has(id)) expect(r.lost).not.toBe(0n);
    }
    if (!ONCE.has(id)) expect(classOf(inBare)).toBe(classOf(inExact));
    expect(inExact.tier).toBe('exact');
    expect(inBare.tier).toBe(irq + mig > 0 ? 'exact' : 'bare');
  });

  it('a stop is seen within a chunk: adds after the stop word is set stay few', async () => {
    // global-atomic's word is the exact count of adds at every moment: read just after the stop
    // word is set, and again at rest, the difference is what the CPUs added after it. A bare CPU
    // reads the stop word once a chunk of BARE_CHUNK operations (its whole loop runs the rest);
    // at tens of millions of adds a second, 1 ms is tens of thousands of adds, so a bound of a
    // chunk and a few per CPU is far inside it.
    const p = liveParams('global-atomic', 2, {});
    const cpus = await RunningCpus.start(nodePlatform, {
      scenario: 'global-atomic',
      params: p,
      settings: noInterference,
      seed: 7,
      engine: 'compiled',
    });
    try {
      const { mem, machine } = cpus.run;
      const cell = machine.layout.cells.find((x) => x.name === 'nr_files');
      if (!cell || cell.perCpu) throw new Error('global-atomic has no nr_files word');
      await new Promise((r) => setTimeout(r, 200));
      requestStop(mem);
      const atStop = Atomics.load(mem.state, cell.addr);
      expect(await cpus.stop(nodePlatform)).toEqual({ kind: 'stopped' });
      const atRest = Atomics.load(mem.state, cell.addr);
      expect(atStop).toBeGreaterThan(10_000);
      expect(atRest - atStop).toBeGreaterThanOrEqual(0);
      expect(atRest - atStop).toBeLessThanOrEqual((BARE_CHUNK + 4) * machine.cpus);
      expect(readRun(cpus.run).reading.tier).toBe('bare');
    } finally {
      cpus.terminate();
    }
  });

  it('the interpreter still runs live, for comparison', async () => {
    const r = await runFor('percpu-classic', 2, 200, {}, { batch: 8 }, 'interpreted');
    expect(r.terminal).toBe(true);
    expect(r.lost).toBe(0n);
    expect(r.folds).toBeGreaterThan(10);
  });
});

describe('CPU hotplug in a free run', () => {
  // CPU1 goes offline and online at the hotplug rate while CPU2 sums without pause; CPU1's dead
  // callbacks fold its +3 on CPU0. Only the first offline finds the slot unfolded (later ones
  // fold 0), so a run meets the window at most once: several seeds before a miss counts.
  const hotplugRun = (variant: string, seed: number) =>
    runFor(
      'percpu-hotplug-sum',
      3,
      300,
      { periodUs: 0, hotplugRate: 200 },
      { variant },
      'compiled',
      'bare',
      seed,
    );

  it('online-or-dying (6.3) keeps both invariants across offlines, whatever the order', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await hotplugRun('online-or-dying', seed);
      expect(r.terminal).toBe(true);
      expect(r.hotplugs).toBeGreaterThan(0);
      expect(r.calls).toBeGreaterThan(100);
      expect(r.broken).toEqual([]);
    }
  });

  it('online-only (6.2) returns the false negative sum between an offline and its fold', async () => {
    let seed = 1;
    // On a loaded machine about one run in three meets it (CPU2 must be on a core then).
    const r = await eventually(
      16,
      () => hotplugRun('online-only', seed++),
      (x) => x.broken.includes('sum-within-window'),
    );
    expect(r.terminal).toBe(true);
    expect(r.hotplugs).toBeGreaterThan(0);
    expect(r.broken).toContain('sum-within-window');
  });
});

describe('lockstep replay on threads', () => {
  const witnesses: [string, string][] = [
    ['global-plain', 'lost-update'],
    ['percpu-classic', 'read-error-124'],
    ['percpu-seq', 'retry-once'],
    ['irq-local-rmw', 'irq-between-load-and-store'],
    ['this-cpu-migrate', 'migrate-between'],
  ];
  it.each(witnesses)('%s / %s ends with exactly the model state', async (id, name) => {
    const sc = findScenario(id);
    const w = sc?.witnesses.find((x) => x.name === name);
    if (!sc || !w) throw new Error(`${id}/${name} not found`);
    const p = resolveParams(sc, w.params);
    const events = parseSchedule(w.schedule);
    const r = await lockstepOnThreads(id, p, events);
    expect(r.result).toEqual({ kind: 'done', events: events.length });
    expect(r.difference).toBeNull();
    expect(r.words).toBeGreaterThan(0);
  });
});

describe('every live sum() is judged as it returns', () => {
  it('percpu-atomic64: a lockless sum racing the folds misses or double-counts a batch', async () => {
    const r = await eventually(
      4,
      () => runFor('percpu-atomic64', 3, 500, { periodUs: 0 }),
      (x) => x.broken.includes('sum-within-window'),
    );
    expect(r.broken).toContain('sum-within-window');
    expect(r.lost).toBe(0n); // nothing is lost: only the sum is wrong
  });
});

describe('a Scaling sweep on threads', () => {
  it('ends a repetition as soon as one of its CPU workers dies, with the reason', async () => {
    // A platform whose CPU1 thread reports a crash once running; the sweep's waits never end
    // by themselves, so only the failure can end the repetition.
    const dying: Platform = {
      wait: nodePlatform.wait,
      spawn(job, failed) {
        const w = nodePlatform.spawn(job, failed);
        if (job.cpu === 1)
          setTimeout(() => {
            failed("CPU1's thread crashed: test");
          }, 20);
        return w;
      },
    };
    const plan: SweepPlan = {
      ...defaultPlan(2),
      scenarios: ['global-atomic'],
      cpus: [2],
      repeat: 1,
      seconds: 3600,
      warmupSeconds: 0,
    };
    const sweep = runSweep(
      dying,
      plan,
      { cores: 2, runtime: 'test' },
      {
        sleep: () => new Promise(() => undefined),
      },
    );
    await expect(sweep).rejects.toThrow("CPU1's thread crashed: test");
  });
});
