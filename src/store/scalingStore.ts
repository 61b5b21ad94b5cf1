// The Scaling-view store: the sweep the user plans, its progress while it runs (cancellable),
// and what it measured. The CPUs sit behind a runner the store is given (CpuBridge.scaling in
// src/workers/cpuBridge.ts; scalingStore.test.ts passes a fake one); Cancel aborts the run's
// AbortSignal.

import { createStore } from 'zustand/vanilla';
import type { ScalingPort, SweepReport, SweepResult } from '../live/scaling/measure.ts';
import {
  defaultPlan,
  parseCpuCounts,
  planProblem,
  planProblems,
  planSeconds,
  type SweepPlan,
  type SweepPoint,
} from '../live/scaling/plan.ts';
import type { ProbeResult } from '../live/probe.ts';
import { type LoadCheck, loadCheckOf, loadCheckPlan, loadCheckText } from '../live/scaling/fit.ts';
import { parseScalingLink } from './scalingLink.ts';
import { count } from '../machine/count.ts';
import { messageOf } from '../machine/errors.ts';

export type ScalingPhase = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

export interface SweepProgress {
  readonly done: number;
  readonly total: number;
  readonly point: SweepPoint | null;
  /** When the sweep started and when the last repetition finished (ms, the runner's clock). */
  readonly startedAt: number;
  readonly updatedAt: number;
  /** The plan's own estimate, before the first repetition has measured the real pace. */
  readonly estimateSeconds: number;
}

export interface ScalingState {
  readonly plan: SweepPlan;
  /** Every reason the set-up cannot run, joined; null when it can. */
  readonly planError: string | null;
  /** The same reasons one by one, in the form's order (a CPU count typed wrong first). */
  readonly planErrors: readonly string[];
  readonly phase: ScalingPhase;
  readonly message: string;
  readonly progress: SweepProgress | null;
  /** The combinations measured so far (the charts fill in as the sweep runs). */
  readonly results: readonly SweepResult[];
  readonly report: SweepReport | null;
  readonly probe: ProbeResult | null;
  /**
   * The last load check: a per-CPU counter alone and on every core at once (null before one ran,
   * or on one core). Every sweep runs one first; Check the load runs one alone.
   */
  readonly load: LoadCheck | null;
  /** A load check is running on its own (Check the load). */
  readonly checkingLoad: boolean;

  linkOpened(hash: string): void;
  planChanged(patch: Partial<SweepPlan>): void;
  /** The CPU counts field's text: its valid counts go to the plan; a bad entry blocks a run. */
  cpusTyped(text: string): void;
  runRequested(): Promise<void>;
  /** Runs the load check alone (about two seconds): how busy are the cores? */
  loadCheckRequested(): Promise<void>;
  cancelRequested(): void;
}

/** Seconds left: the pace so far, or the plan's estimate before the first repetition ends. */
export function secondsLeft(p: SweepProgress): number {
  if (p.done === 0) return p.estimateSeconds;
  const perRep = (p.updatedAt - p.startedAt) / 1000 / p.done;
  return Math.max(0, perRep * (p.total - p.done));
}

const READY = 'Ready: choose what to measure and press Run sweep.';
const NOT_READY = 'Cannot run yet: ';

/** Every problem of the set-up: the CPU counts as typed (`typed`), then the plan's others. */
function problemsOf(plan: SweepPlan, typed: string | null): string[] {
  const rest = planProblems(plan);
  if (typed === null) return rest;
  // The plan keeps only the valid counts: its own CPU-count problem is the typed one, said better.
  const cpu = parseCpuCounts(plan.cpus.join(',')).problem;
  return [typed, ...rest.filter((p) => p !== 'pick at least one CPU count' && p !== cpu)];
}

export function createScalingStore(runner: ScalingPort, now: () => number = () => Date.now()) {
  return createStore<ScalingState>()((set, get) => {
    // The sweep in progress stops when this aborts (Cancel); a new one per run.
    let abort = new AbortController();
    // What is wrong with the CPU counts as typed (the plan holds only the valid ones).
    let typedProblem: string | null = null;
    /** The load check on this machine's cores, or null where there is none (one core). */
    const checkLoad = async (signal: AbortSignal): Promise<LoadCheck | null> => {
      const plan = loadCheckPlan(runner.machine.cores);
      if (!plan) return null;
      const report = await runner.sweep(plan, { signal });
      return report.cancelled ? null : loadCheckOf(report, now());
    };
    /** The plan and every problem with it; the status says so while the set-up is wrong. */
    const judge = (plan: SweepPlan) => {
      const errors = problemsOf(plan, typedProblem);
      const { message } = get();
      const idle = message === READY || message.startsWith(NOT_READY);
      set({
        plan,
        planErrors: errors,
        planError: errors.length ? errors.join('; ') : null,
        ...(idle ? { message: errors.length ? `${NOT_READY}${errors.join('; ')}.` : READY } : {}),
      });
    };
    return {
      plan: defaultPlan(runner.machine.cores),
      planError: null,
      planErrors: [],
      phase: 'idle',
      message: READY,
      progress: null,
      results: [],
      report: null,
      probe: null,
      load: null,
      checkingLoad: false,

      linkOpened(hash) {
        const link = parseScalingLink(hash, runner.machine.cores);
        if (!link || get().phase === 'running') return;
        typedProblem = null;
        set({
          plan: link.plan,
          planError: null,
          planErrors: [],
          message: link.problems.length
            ? `Parts of the link were left out: ${link.problems.join('; ')}.`
            : READY,
        });
      },
      planChanged(patch) {
        if (get().phase === 'running') return;
        judge({ ...get().plan, ...patch });
      },
      cpusTyped(text) {
        if (get().phase === 'running') return;
        const { counts, problem } = parseCpuCounts(text);
        typedProblem = problem;
        judge({ ...get().plan, cpus: counts });
      },
      async runRequested() {
        const { plan, phase, planError, checkingLoad } = get();
        if (phase === 'running' || checkingLoad) return;
        // A CPU count typed wrong blocks the run even though the plan keeps the valid ones.
        const problem = planError ?? planProblem(plan);
        if (problem) {
          set({ planError: problem, message: `Cannot run: ${problem}.` });
          return;
        }
        abort = new AbortController();
        const startedAt = now();
        const estimateSeconds = planSeconds(plan);
        set({
          phase: 'running',
          results: [],
          report: null,
          probe: null,
          message: 'Checking that the CPUs see each other’s stores…',
          progress: {
            done: 0,
            total: 0,
            point: null,
            startedAt,
            updatedAt: startedAt,
            estimateSeconds,
          },
        });
        try {
          const probe = await runner.probe(plan.engines[0] ?? 'compiled', plan.tiers[0] ?? 'bare');
          set({ probe, message: 'Checking how busy the cores are…' });
          // How far CPUs that share nothing run side by side now: what the page judges the sweep by.
          const load = await checkLoad(abort.signal);
          if (load) set({ load });
          const report = await runner.sweep(plan, {
            signal: abort.signal,
            progress: (done, total, point) => {
              set({
                message: `Measuring ${point.scenario} on ${String(point.cpus)} CPU${point.cpus > 1 ? 's' : ''}…`,
                progress: { done, total, point, startedAt, updatedAt: now(), estimateSeconds },
              });
            },
            measured: (result) => {
              set({ results: [...get().results, result] });
            },
          });
          const n = report.results.length;
          set({
            phase: report.cancelled ? 'cancelled' : 'done',
            report,
            progress: null,
            message: report.cancelled
              ? `Cancelled: ${count(n, 'combination')} measured before the stop are shown.`
              : `Done: ${count(n, 'combination')} measured in ${((now() - startedAt) / 1000).toFixed(0)} s.`,
          });
        } catch (e) {
          set({
            phase: 'failed',
            progress: null,
            message: `The sweep failed: ${messageOf(e)}. Press Run sweep to try again.`,
          });
        }
      },
      async loadCheckRequested() {
        const { phase, checkingLoad } = get();
        if (phase === 'running' || checkingLoad) return;
        abort = new AbortController();
        set({ checkingLoad: true, message: 'Checking how busy the cores are…' });
        try {
          const load = await checkLoad(abort.signal);
          set({
            checkingLoad: false,
            load: load ?? get().load,
            message: load
              ? `Load checked: ${loadCheckText(load)}.`
              : 'The load check was cancelled; press Check the load to run it again.',
          });
        } catch (e) {
          set({
            checkingLoad: false,
            message: `The load check failed: ${messageOf(e)}. Press Check the load to try again.`,
          });
        }
      },
      cancelRequested() {
        if (get().phase !== 'running' && !get().checkingLoad) return;
        abort.abort();
        set({ message: 'Cancelling: the run in progress stops…' });
      },
    };
  });
}

export type ScalingStore = ReturnType<typeof createScalingStore>;
