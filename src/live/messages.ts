// Live mode's sentences: how a stop went, what a lockstep replay found, and what the run both
// sides agree on ended with. In the core, so the page's Live store and `lab live` tell a stuck
// stop or a replay that stopped short in the same words.

import { replay } from '../machine/replay.ts';
import { judgeRun, violationMoment } from '../scenarios/judge.ts';
import { jsonObservables, observableText } from '../scenarios/outcome.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import type { Load } from './load.ts';
import type { LockstepReport, LockstepResult } from './lockstep.ts';
import { STOP_TIMEOUT_MS, type StopOutcome } from './run.ts';

/**
 * A reason with its whole numbers' digits grouped ("nr_files = 35,579,297, but the exact total is
 * 42,729,630: 7,150,333 lost"), as Live writes every other count: the invariants' reasons come
 * from the language, which Step and Explore share and which writes them raw. A number inside a
 * name (CPU1, 0x10), a decimal and one of three digits or fewer are left as they are.
 */
export function groupDigits(text: string): string {
  return text.replace(/(?<![\w.])\d{4,}(?!\w|\.\d)/g, (d) => BigInt(d).toLocaleString('en-US'));
}

/** CPUs by name: "CPU1 and CPU3". */
export function cpuNames(cpus: readonly number[]): string {
  return cpus.map((k) => `CPU${String(k)}`).join(' and ');
}

/** A stop that timed out: "2 CPU(s) did not stop within 3 s". */
export function didNotStop(running: number): string {
  return `${String(running)} CPU(s) did not stop within ${String(STOP_TIMEOUT_MS / 1000)} s`;
}

/**
 * A stop's outcome, for people; `silent`: CPUs the watchdog saw go quiet while stopping; `load`:
 * how hard the run pressed on the cores (a starved worker is not a hung one).
 */
export function stopMessage(outcome: StopOutcome, silent: readonly number[], load: Load): string {
  switch (outcome.kind) {
    case 'stopped':
      return 'Stopped: every task finished its operation.';
    case 'stuck': {
      const why = silent.length
        ? `: ${cpuNames(silent)} showed no sign of life (a worker that hung or was terminated), and a stopping CPU waits for every other to stop`
        : ' (a CPU spinning on a lock nobody will release?)';
      return `${didNotStop(outcome.running)}${why}. The workers were terminated; the snapshot below is not at rest. Press Run to start again.`;
    }
    case 'failed':
      return `${outcome.message}. Press Run to start again.`;
    case 'unresponsive': {
      const one = outcome.cpus.length === 1;
      const names = cpuNames(outcome.cpus);
      const quiet = `no sign of life for ${String(Math.round(load.silenceMs / 1000))} s`;
      const why = load.starved
        ? `${quiet}; ${one ? 'it was' : 'they were'} most likely starved rather than hung: ${load.warning ?? ''} Fewer CPUs or lower rates avoid it`
        : `${quiet}: ${one ? 'its worker hung or was' : 'their workers hung or were'} terminated`;
      return `${names} stopped responding (${why}), so the run was stopped and every worker terminated; the snapshot below is not at rest. Press Run to start again.`;
    }
  }
}

/** A lockstep replay that stopped before its last event. */
export type StoppedShort = Exclude<LockstepResult, { readonly kind: 'done' }>;

/**
 * Why a lockstep replay stopped before its last event: "event 3 (…) is not possible there: …"
 * or "CPU1 failed at event 3".
 */
export function stoppedShort(r: StoppedShort): string {
  return r.kind === 'illegal'
    ? `event ${String(r.index + 1)} (${r.event}) is not possible there: ${r.reason}`
    : `CPU${String(r.cpu)} failed at event ${String(r.index + 1)}`;
}

/** A schedule the model replays: the scenario, its parameters and the events. */
export interface ModelRun {
  readonly sc: Scenario;
  readonly params: Params;
  readonly events: readonly number[];
}

/**
 * What the run both sides agree on ended with, judged as Step and Explore judge it: "Both end
 * with c = 11, exact = 16; no-lost-update broken." (the model's replay; the words matched it).
 */
export function endedWith({ sc, params, events }: ModelRun): string {
  const { machine } = sc.build(params);
  const { states } = replay(machine, events);
  const j = judgeRun(sc, machine, states, params);
  const values = Object.entries(jsonObservables(j.observables))
    .map(([k, v]) => `${k} = ${observableText(v)}`)
    .join(', ');
  const broken = j.violations.map(violationMoment);
  return `Both end with ${values}${j.terminal ? '' : ' (not finished)'}; ${
    broken.length ? `broken: ${broken.join('; ')}` : 'every invariant holds'
  }.`;
}

/**
 * A lockstep replay's verdict as Live mode tells it, under the schedule's `label`: where it
 * stopped short, the first word that differs, or the agreement with what both ended with.
 */
export function lockstepVerdict(
  label: string,
  rep: LockstepReport,
  run: ModelRun,
): { verdict: string; agreed: boolean } {
  const r = rep.result;
  if (r.kind !== 'done') return { verdict: `${label}: ${stoppedShort(r)}.`, agreed: false };
  if (rep.difference) {
    return {
      verdict: `${label}: model and hardware differ. First difference: ${rep.difference}.`,
      agreed: false,
    };
  }
  return {
    verdict: `${label}: model and hardware agree. ${String(r.events)} events, each run by its CPU's worker; all ${String(rep.words)} words of the final state match the model's. ${endedWith(run)}`,
    agreed: true,
  };
}
