// The Live-mode store: what the user chose (scenario, CPUs, parameters, rates), the run's phase,
// and the verdict once stopped; its lockstep replays are a slice of their own (lockstep.ts). The
// workers sit behind a bridge the store is given (tests pass a fake one); the per-frame readings
// do not go through the store (a hook samples shared memory).

import { defaultCpus } from '../live/specs.ts';
import { createStore } from 'zustand/vanilla';
import {
  applySettings,
  dutyFor,
  type LiveSettings,
  raise,
  type RaiseWhat,
  DEFAULT_HOTPLUG_RATE,
} from '../live/control.ts';
import type { EngineKind } from '../live/engine/engine.ts';
import type { LiveReading } from '../live/readout.ts';
import { cpuNames, stopMessage } from '../live/messages.ts';
import { type LiveRun, readRun, type RunSetup, type StopOutcome } from '../live/run.ts';
import { liveParams } from '../live/liveParams.ts';
import { liveSpecOf, liveSpecs, MAX_LIVE_CPUS } from '../live/specs.ts';
import { heartbeats, Watchdog } from '../live/watchdog.ts';
import { loadOf } from '../live/load.ts';
import { lostSentence } from '../live/verdict.ts';
import { findScenario, openProgram } from '../scenarios/index.ts';
import type { Violation } from '../scenarios/outcome.ts';
import { ParamError } from '../scenarios/params.ts';
import { parseLiveLink } from './liveLink.ts';
import type { Params } from '../scenarios/types.ts';
import { messageOf } from '../machine/errors.ts';
import {
  createLockstepSlice,
  type LockstepPort,
  type LockstepSlice,
  NO_LOCKSTEP,
} from './lockstep.ts';

/**
 * The Live store's port: its CPU workers (CpuBridge, src/workers/cpuBridge.ts; tests fake it),
 * for runs and, through the lockstep slice, replays.
 */
export interface LivePort extends LockstepPort {
  start(setup: RunSetup, failed: (message: string) => void): Promise<LiveRun>;
  /** `unresponsive`: CPUs the watchdog found silent, not to be waited for. */
  stop(run: LiveRun, unresponsive?: readonly number[]): Promise<StopOutcome>;
  terminate(): void;
}

/** How the store watches a running run's CPUs (tests drive it by hand). */
export interface WatchTimer {
  /** Calls `f` every `ms` milliseconds until the returned function is called. */
  every(ms: number, f: () => void): () => void;
  /** Milliseconds, monotonic. */
  now(): number;
}

const realTimer: WatchTimer = {
  every(ms, f) {
    const id = setInterval(f, ms);
    return () => {
      clearInterval(id);
    };
  },
  now: () => performance.now(),
};

/** How often the watchdog looks at the CPUs' heartbeats (ms). */
const WATCH_EVERY_MS = 250;

export type LivePhase = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

/** CPUs are starting, running or stopping: the set-up cannot change and no other run can start. */
export function runBusy(phase: LivePhase): boolean {
  return phase === 'starting' || phase === 'running' || phase === 'stopping';
}

export interface FinalReport {
  readonly reading: LiveReading;
  /** Invariants broken by the state the CPUs stopped in (final and always ones). */
  readonly violations: readonly Violation[];
  /** Every task finished its operation and no handler is active. */
  readonly terminal: boolean;
  readonly seconds: number;
}

export interface LiveState extends LockstepSlice {
  readonly scenario: string;
  readonly cpus: number;
  /** Parameter text the user typed, by name (batch, amounts, variant, threshold). */
  readonly choices: Readonly<Record<string, string>>;
  readonly settings: LiveSettings;
  /** What runs the CPUs' programs: compiled to WebAssembly (the default) or interpreted. */
  readonly engine: EngineKind;
  readonly phase: LivePhase;
  /** What is happening or went wrong, for people (also announced). */
  readonly message: string;
  /** Why the parameters cannot run, or null. */
  readonly paramError: string | null;
  readonly run: LiveRun | null;
  readonly final: FinalReport | null;
  /** A schedule a link brought (Step mode's "replay on workers"), offered for lockstep. */
  readonly offered: {
    readonly schedule: string;
    readonly params: Readonly<Record<string, string>>;
  } | null;

  /** Opens a #/live/… link; bad parts are reported and left out. */
  linkOpened(hash: string): void;
  scenarioChosen(id: string): void;
  cpusChanged(n: number): void;
  choiceChanged(name: string, text: string): void;
  /** Drops the choices the Machine fields do not show (a Step link's extra parameters). */
  extraChoicesCleared(): void;
  settingChanged(name: keyof LiveSettings, value: number): void;
  engineChanged(engine: EngineKind): void;
  runRequested(): Promise<void>;
  stopRequested(): Promise<void>;
  resetRequested(): void;
  raiseRequested(cpu: number, what: RaiseWhat): void;
}

export const defaultSettings: LiveSettings = {
  irqRate: 0,
  nmiRate: 0,
  migrationRate: 0,
  periodUs: 1000,
  // Acts only on CPUs with dead callbacks (a program with CPU hotplug): a few offlines a second.
  hotplugRate: DEFAULT_HOTPLUG_RATE,
};

/** The parameters a run would use, or the reason they cannot. */
export function paramsOf(
  scenario: string,
  cpus: number,
  choices: Readonly<Record<string, string>>,
): { params: Params } | { error: string } {
  if (!liveSpecOf(scenario)) return { error: `${scenario} does not run free on the workers` };
  try {
    return { params: liveParams(scenario, cpus, choices) };
  } catch (e) {
    if (e instanceof ParamError) return { error: e.message };
    throw e;
  }
}

const READY = 'Ready: press Run to start the CPUs.';
export function createLiveStore(
  bridge: LivePort,
  cores: number,
  scenario = 'global-plain',
  timer: WatchTimer = realTimer,
) {
  const firstLive = liveSpecs[0]?.id ?? 'global-plain';
  return createStore<LiveState>()((set, get, api) => {
    let silentWhileStopping: readonly number[] = [];

    /** Stops the running run's CPUs; `unresponsive` ones are not waited for. */
    const stop = async (unresponsive: readonly number[] = []) => {
      const { run, phase } = get();
      if (!run || phase !== 'running') return;
      set({
        phase: 'stopping',
        message: unresponsive.length
          ? `${cpuNames(unresponsive)} stopped responding: stopping the others…`
          : 'Stopping: every task finishes its current operation…',
      });
      const outcome = await bridge.stop(run, unresponsive);
      if (get().run !== run) return; // reset (or replaced) meanwhile
      try {
        judge(run, outcome);
      } catch (e) {
        set({ phase: 'failed', message: `The stopped run could not be read: ${messageOf(e)}` });
      }
    };

    /**
     * While `run` runs, a watchdog looks at its CPUs' heartbeats: a worker that hangs outside
     * the machine or is terminated says nothing, and would otherwise look like a quiet CPU
     * until the user pressed Stop.
     */
    const watch = (run: LiveRun) => {
      const dog = new Watchdog();
      silentWhileStopping = [];
      const cancel = timer.every(WATCH_EVERY_MS, () => {
        const { phase } = get();
        if (get().run !== run || (phase !== 'running' && phase !== 'stopping')) {
          cancel();
          return;
        }
        const silent = dog.check(
          heartbeats(run.mem),
          timer.now(),
          loadOf(run.mem.cpus, cores, get().settings).silenceMs,
        );
        if (silent.length === 0) return;
        // While stopping, a CPU that went quiet is why the stop hangs: the message says so.
        if (phase === 'stopping') silentWhileStopping = silent;
        else {
          cancel();
          void stop(silent);
        }
      });
    };

    /** Re-checks the parameters after a change; a bad value leaves the last good run alone. */
    const recheck = (patch: Partial<LiveState>) => {
      const next = { ...get(), ...patch };
      const r = paramsOf(next.scenario, next.cpus, next.choices);
      set({ ...patch, paramError: 'error' in r ? r.error : null });
    };

    /** Nothing runs and nothing replays: the set-up may change, a run or replay may start. */
    const free = () => !runBusy(get().phase) && !get().lockstep.busy;

    /** Judges the state the CPUs stopped in and reports how the stop went. */
    const judge = (run: LiveRun, outcome: StopOutcome) => {
      const { reading, verdict } = readRun(run);
      const final: FinalReport = {
        reading,
        terminal: verdict.terminal,
        violations: verdict.violations,
        seconds: reading.ms / 1000,
      };
      const how = stopMessage(
        outcome,
        silentWhileStopping,
        loadOf(run.mem.cpus, cores, get().settings),
      );
      // The verdict where the eye lands after Stop, not only in the report below the set-up.
      const at = verdict.terminal && outcome.kind === 'stopped' ? ` ${lostSentence(reading)}` : '';
      set({
        phase: outcome.kind === 'stopped' ? 'stopped' : 'failed',
        final,
        message: `${how}${at}`,
      });
    };

    return {
      scenario: findScenario(scenario) ? scenario : firstLive,
      cpus: defaultCpus(cores),
      choices: {},
      settings: defaultSettings,
      engine: 'compiled',
      phase: 'idle',
      message: READY,
      paramError: null,
      run: null,
      final: null,
      offered: null,
      ...createLockstepSlice(bridge, free)(set, get, api),

      linkOpened(hash) {
        const link = parseLiveLink(hash);
        if (!link || !free()) return;
        const st = get();
        const problems = [...link.problems];
        let scenario = st.scenario;
        // A typed program travels in its link: open it before looking it up.
        if (link.program !== null && !openProgram(link.program).ok)
          problems.push('the program in this link does not compile');
        if (link.scenario !== '') {
          if (findScenario(link.scenario)) scenario = link.scenario;
          else problems.push(`there is no scenario '${link.scenario}'`);
        }
        const sc = findScenario(scenario);
        const choices = Object.fromEntries(
          Object.entries(link.choices).filter(([name]) => {
            const known = sc?.params.some((q) => q.name === name) ?? false;
            if (!known) problems.push(`${scenario} has no parameter '${name}'`);
            return known;
          }),
        );
        bridge.terminate();
        recheck({
          scenario,
          run: null,
          phase: 'idle',
          cpus: link.cpus ?? st.cpus,
          choices,
          settings: { ...st.settings, ...link.settings },
          engine: link.engine ?? st.engine,
          offered: link.replay,
          final: null,
          lockstep: NO_LOCKSTEP,
          message: problems.length
            ? `Parts of the link were left out: ${problems.join('; ')}.`
            : READY,
        });
      },

      scenarioChosen(id) {
        if (!findScenario(id)) {
          set({ message: `There is no scenario '${id}'.` });
          return;
        }
        if (!free()) return;
        bridge.terminate();
        recheck({
          scenario: id,
          choices: {},
          run: null,
          phase: 'idle',
          message: READY,
          final: null,
          offered: null,
          lockstep: NO_LOCKSTEP,
        });
      },
      cpusChanged(n) {
        if (!Number.isInteger(n) || n < 1 || n > MAX_LIVE_CPUS) {
          set({
            paramError: `CPUs must be a whole number from 1 to ${String(MAX_LIVE_CPUS)}, not ${String(n)}`,
          });
          return;
        }
        recheck({ cpus: n });
      },
      extraChoicesCleared() {
        const st = get();
        if (!free()) return;
        const shown = liveSpecOf(st.scenario)?.controls ?? [];
        recheck({
          choices: Object.fromEntries(
            Object.entries(st.choices).filter(([k]) => shown.includes(k)),
          ),
        });
      },

      choiceChanged(name, text) {
        recheck({ choices: { ...get().choices, [name]: text } });
      },
      settingChanged(name, value) {
        if (!Number.isFinite(value) || value < 0) {
          set({ message: `${name} must be a number of at least 0` });
          return;
        }
        const settings = { ...get().settings, [name]: value };
        set({ settings });
        const run = get().run;
        // Rates and the period change while the CPUs run.
        if (run && get().phase === 'running') {
          applySettings(run.mem, settings);
        }
      },
      engineChanged(engine) {
        if (!free()) return;
        set({ engine });
      },
      async runRequested() {
        if (!free()) return;
        const st = get();
        const r = paramsOf(st.scenario, st.cpus, st.choices);
        if ('error' in r) {
          set({ paramError: r.error, message: `Cannot run: ${r.error}` });
          return;
        }
        set({
          phase: 'starting',
          final: null,
          message: `Starting ${String(liveSpecOf(st.scenario)?.fixedCpus ?? st.cpus)} CPU workers…`,
        });
        try {
          const n = liveSpecOf(st.scenario)?.fixedCpus ?? st.cpus;
          const run = await bridge.start(
            {
              scenario: st.scenario,
              params: r.params,
              settings: st.settings,
              seed: Date.now() | 0,
              engine: st.engine,
              dutyPercent: dutyFor(n, cores),
            },
            () => {
              // A worker threw: the others are already stopping. Stopping collects them and
              // reports the failure; a stop already under way will report it too.
              if (get().phase === 'running') void get().stopRequested();
            },
          );
          set({
            run,
            phase: 'running',
            message: `Running on ${String(run.mem.cpus)} CPU workers.`,
          });
          watch(run);
        } catch (e) {
          bridge.terminate();
          set({ phase: 'failed', run: null, message: `The CPUs did not start: ${messageOf(e)}` });
        }
      },
      stopRequested() {
        return stop();
      },
      resetRequested() {
        bridge.terminate();
        set({
          phase: 'idle',
          run: null,
          final: null,
          message: 'Reset: press Run to start the CPUs.',
          lockstep: NO_LOCKSTEP,
        });
      },
      raiseRequested(cpu, what) {
        const { run, phase } = get();
        if (!run || phase !== 'running') return;
        if (cpu < 0 || cpu >= run.mem.cpus) return;
        raise(run.mem, cpu, what);
      },
    };
  });
}

export type LiveStore = ReturnType<typeof createLiveStore>;
