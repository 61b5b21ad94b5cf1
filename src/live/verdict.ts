// The verdict on the state live CPUs stopped in. The scenario's invariants judge it as they judge
// a terminal state of the model, except those that count over a run where a live run repeats
// its calls: "each sum retries at most once per CPU" becomes a bound on the worst single call.

import { isTerminal } from '../machine/events.ts';
import type { Machine } from '../machine/machine.ts';
import { alwaysViolations, finalViolations, type Violation } from '../scenarios/outcome.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import type { LiveReading } from './readout.ts';

/** Invariants judged per call on live CPUs, with the check that replaces them. */
const PER_CALL: Readonly<Record<string, (r: LiveReading, m: Machine) => string | null>> = {
  'retries-bounded': (r, m) => {
    const limit = m.cpus;
    return r.maxRetriesPerCall <= limit
      ? null
      : `one sum() retried ${String(r.maxRetriesPerCall)} times, more than once per CPU (${String(limit)})`;
  },
};

/** The always-invariant a live run judges at every call, as each sum() returns (calls.ts). */
const JUDGED_PER_CALL = 'sum-within-window';

export interface LiveVerdict {
  /** Every task finished its operation, no handler active, no IRQ pending. */
  readonly terminal: boolean;
  /** Broken invariants (none judged when the CPUs did not come to rest). */
  readonly violations: readonly Violation[];
}

export function liveVerdict(
  sc: Scenario,
  m: Machine,
  state: Int32Array,
  p: Params,
  reading: LiveReading,
): LiveVerdict {
  if (!isTerminal(m, state)) return { terminal: false, violations: [] };
  const violations: Violation[] = [];
  for (const v of finalViolations(sc, reading.observables, p, m, state)) {
    if (!(v.id in PER_CALL)) violations.push(v);
  }
  for (const [id, check] of Object.entries(PER_CALL)) {
    if (!sc.invariants.some((i) => i.id === id)) continue;
    const reason = check(reading, m);
    if (reason) violations.push({ id, reason });
  }
  for (const v of alwaysViolations(sc, m, state, p)) {
    // Every sum() was judged as it returned (calls.ts), with the slack of the adds in flight.
    if (v.id === JUDGED_PER_CALL) continue;
    violations.push(v);
  }
  if (sc.invariants.some((i) => i.id === JUDGED_PER_CALL) && reading.badSums > 0) {
    violations.push({
      id: JUDGED_PER_CALL,
      reason: `${reading.badSums.toLocaleString('en-US')} of ${reading.total.calls.toLocaleString('en-US')} sum() calls returned a value outside the exact totals while they ran`,
    });
  }
  return { terminal: true, violations };
}

const count = (v: number | bigint) => v.toLocaleString('en-US');

/**
 * The always-invariants Live can judge only on the state the CPUs stopped in: the model judges
 * them at every state, but a live run passes through millions no one sees (every sum() is the
 * exception: the CPU that returns it judges it at once, calls.ts).
 */
export function judgedOnlyAtRest(sc: Pick<Scenario, 'invariants'>): readonly string[] {
  return sc.invariants
    .filter((i) => i.when === 'always' && i.id !== JUDGED_PER_CALL)
    .map((i) => i.id);
}

/** The sentence that says so, or null when there is none; the page and the CLI say the same. */
export function atRestSentence(sc: Pick<Scenario, 'invariants'>): string | null {
  const ids = judgedOnlyAtRest(sc);
  if (ids.length === 0) return null;
  const list = ids.join(', ');
  return `${list} ${ids.length === 1 ? 'is' : 'are'} judged at every state by the model, but here only on the state the CPUs stopped in: a breach in between goes unseen (Step or Explore finds it)${sc.invariants.some((i) => i.id === JUDGED_PER_CALL) ? '; every sum() is judged as it returns' : ''}.`;
}

/** The value the counter started at: the exact total minus every add. */
function startValue(reading: Pick<LiveReading, 'added' | 'exact'>): bigint {
  return BigInt(reading.exact) - BigInt(reading.added);
}

/**
 * The exact total, and what it is made of where the counter did not start at 0 or nothing was
 * added (`lab live` writes it beside the value in memory): "exact total 12,090,045 (the 100 it
 * started at + 12,089,945 added)".
 */
export function exactWords(reading: Pick<LiveReading, 'added' | 'exact'>): string {
  const start = startValue(reading);
  const made =
    BigInt(reading.added) === 0n
      ? ' (nothing added)'
      : start === 0n
        ? ''
        : ` (the ${count(start)} it started at + ${count(reading.added)} added)`;
  return `exact total ${count(reading.exact)}${made}`;
}

/**
 * What the counter holds at rest, in one sentence (the page, the CLI and the README say it the
 * same way): "No update lost: the counter holds all 12,345 added." or "2,694,841 updates lost
 * out of 10,532,726 added (25.59 %)." A counter that started at a value other than 0 says so,
 * so the exact total and what was added are not two unexplained numbers.
 */
export function lostSentence(reading: Pick<LiveReading, 'lost' | 'added' | 'exact'>): string {
  const { lost, added, exact } = reading;
  const start = startValue(reading);
  const from = `the ${count(start)} it started at`;
  if (lost === 0 || lost === 0n) {
    if (BigInt(added) === 0n)
      return `No update lost: nothing was added, and the counter holds ${from}.`;
    return start === 0n
      ? `No update lost: the counter holds all ${count(added)} added.`
      : `No update lost: the counter holds its exact total, ${count(exact)}: ${from} plus all ${count(added)} added.`;
  }
  const whole = Number(added);
  const share = whole === 0 ? '' : ` (${((Number(lost) / whole) * 100).toFixed(2)} %)`;
  const noun = lost === 1 || lost === 1n ? 'update' : 'updates';
  if (Number(lost) > 0) {
    const held =
      start === 0n
        ? ''
        : `: the counter holds ${count(BigInt(exact) - BigInt(lost))}, not its exact total ${count(exact)} (${from} plus every add)`;
    return `${count(lost)} ${noun} lost out of ${count(added)} added${share}${held}.`;
  }
  return start === 0n
    ? `The counter holds ${count(-Number(lost))} more than the ${count(added)} added: updates counted twice.`
    : `The counter holds ${count(-Number(lost))} more than its exact total ${count(exact)} (${from} plus the ${count(added)} added): updates counted twice.`;
}

/**
 * Each CPU's operations per second over the whole run (adds and calls over the run's length): the
 * Per CPU table's figures, which the rate bars show once the CPUs have stopped.
 */
export function runRates(reading: Pick<LiveReading, 'cpus' | 'ms'>): number[] {
  const s = Math.max(reading.ms / 1000, 1e-9);
  return reading.cpus.map((c) => (c.adds + c.calls) / s);
}

/**
 * Each CPU's instructions per second over the whole run, or null where none were counted: the
 * bare tier counts operations, not instructions (the page's Per CPU table and `lab live` say "not
 * counted", never a rate of 0).
 */
export function instructionRates(
  reading: Pick<LiveReading, 'cpus' | 'ms' | 'tier'>,
): (number | null)[] {
  const s = Math.max(reading.ms / 1000, 1e-9);
  return reading.cpus.map((c) => (reading.tier === 'bare' ? null : c.steps / s));
}

/** What the Per CPU table and `lab live` write where no instruction was counted. */
export const NOT_COUNTED = 'not counted (bare tier)';

/**
 * Where a CPU spent most of its instructions spinning on a held lock, why, in words; null when
 * no CPU spun for at least a fifth of its instructions.
 */
export function spinSentence(reading: Pick<LiveReading, 'cpus'>): string | null {
  let worst = -1;
  let share = 0;
  reading.cpus.forEach((c, k) => {
    const s = c.steps > 0 ? c.spins / c.steps : 0;
    if (s > share) {
      share = s;
      worst = k;
    }
  });
  if (worst < 0 || share < 0.2) return null;
  return `CPU${String(worst)} spent ${String(Math.round(share * 100))} % of its instructions spinning on a held lock: each spin_lock step that finds the lock taken repeats until the holder lets go, doing no work. A lock the CPUs share serialises them: while one holds it, the others wait.`;
}

/**
 * Which tier ran, in a few words (the page, the CLI and the Scaling export say the same): bare
 * (the algorithm's own instructions, no event could fall due), exact (every event may land at
 * any instruction), or bare until the first event was asked for.
 */
export function tierWords(tier: LiveReading['tier']): string {
  switch (tier) {
    case 'bare':
      return 'bare tier';
    case 'exact':
      return 'exact tier';
    case 'mixed':
      return 'bare tier, then exact from the first event asked for';
    default:
      return 'no tier yet';
  }
}

/**
 * What CPU hotplug did in a free run, in words (the page and the CLI say the same): how many
 * events, which CPUs are offline, and what a run that breaks nothing does not show.
 */
export function hotplugSentence(events: number, offline: readonly number[]): string {
  if (events === 0)
    return 'No CPU hotplug event was taken (the hotplug rate is 0, or no CPU with dead callbacks was ever idle): no offline window opened.';
  const now =
    offline.length === 0
      ? 'every CPU is online now'
      : `${offline.map((k) => `CPU${String(k)}`).join(', ')} offline now`;
  return `${count(events)} CPU hotplug ${events === 1 ? 'event' : 'events'} (offlines and onlines), ${now}. A sum() breaks only if it runs between an offline and the fold in its dead callbacks: a run that breaks nothing has not shown that nothing can (Explore checks every order).`;
}
