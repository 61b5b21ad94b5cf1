// Live mode's lockstep replays, a slice of the Live store (zustand's slices pattern): a schedule,
// or every witness of the scenario, replayed on fresh workers one event at a time and compared
// word by word with the model. Apart from the run's life cycle (liveStore.ts), which it shares
// the store's port with: one bridge owns the page's CPU workers, and a replay and a run never
// overlap (the store's `free`).

import type { StateCreator } from 'zustand/vanilla';
import type { LockstepReport } from '../live/lockstep.ts';
import { lockstepVerdict } from '../live/messages.ts';
import { messageOf } from '../machine/errors.ts';
import { parseSchedule, ScheduleSyntaxError } from '../machine/schedule.ts';
import { findScenario } from '../scenarios/index.ts';
import { ParamError, paramsText, resolveParams } from '../scenarios/params.ts';
import type { Params } from '../scenarios/types.ts';

/** What the replays need of the Live store's port (LivePort extends it). */
export interface LockstepPort {
  lockstep(scenario: string, params: Params, events: readonly number[]): Promise<LockstepReport>;
}

export interface LockstepView {
  readonly busy: boolean;
  /** What the last replay found, for people, or null before the first one. */
  readonly verdict: string | null;
  readonly agreed: boolean | null;
}

/** No replay yet (or the set-up changed since the last one). */
export const NO_LOCKSTEP: LockstepView = { busy: false, verdict: null, agreed: null };

export interface LockstepSlice {
  readonly lockstep: LockstepView;
  /** Replays a schedule (a witness or Step mode's) on the workers with these parameter overrides. */
  lockstepRequested(
    overrides: Readonly<Record<string, string>>,
    schedule: string,
    label: string,
  ): Promise<void>;
  /** Replays every witness of the scenario in lockstep, one after the other. */
  allWitnessesRequested(): Promise<void>;
}

/** What the slice reads of the store it is part of: the scenario open. */
export interface LockstepHost {
  readonly scenario: string;
}

/**
 * The slice, over the store's `port`; `free` says whether a replay may start now (nothing runs
 * and nothing replays: the store's own rule, which its runs obey too).
 */
export function createLockstepSlice(
  port: LockstepPort,
  free: () => boolean,
): StateCreator<LockstepHost & LockstepSlice, [], [], LockstepSlice> {
  return (set, get) => ({
    lockstep: NO_LOCKSTEP,

    async lockstepRequested(overrides, schedule, label) {
      if (!free()) return;
      set({
        lockstep: { busy: true, verdict: `Replaying ${label} on the workers…`, agreed: null },
      });
      const r = await replayOne(port, get().scenario, overrides, schedule, label);
      set({ lockstep: { busy: false, ...r } });
    },

    async allWitnessesRequested() {
      const sc = findScenario(get().scenario);
      if (!sc || !free()) return;
      const failures: string[] = [];
      for (const [i, w] of sc.witnesses.entries()) {
        set({
          lockstep: {
            busy: true,
            verdict: `Replaying witness ${String(i + 1)} of ${String(sc.witnesses.length)} (${w.name}) on the workers…`,
            agreed: null,
          },
        });
        const r = await replayOne(
          port,
          sc.id,
          paramsText(w.params),
          w.schedule,
          `Witness ${w.name}`,
        );
        if (!r.agreed) failures.push(r.verdict);
      }
      const n = sc.witnesses.length;
      set({
        lockstep: {
          busy: false,
          agreed: failures.length === 0,
          verdict:
            failures.length === 0
              ? `All ${String(n)} witnesses of ${sc.id}: model and hardware agree on every word of every final state.`
              : `${String(n - failures.length)} of ${String(n)} witnesses agree. ${failures.join(' ')}`,
        },
      });
    },
  });
}

/** Replays one schedule on fresh workers; the verdict in words. */
async function replayOne(
  port: LockstepPort,
  scenario: string,
  overrides: Readonly<Record<string, string>>,
  schedule: string,
  label: string,
): Promise<{ verdict: string; agreed: boolean }> {
  const sc = findScenario(scenario);
  if (!sc) return { verdict: `There is no scenario '${scenario}'.`, agreed: false };
  let params: Params;
  let events: number[];
  try {
    params = resolveParams(sc, overrides);
    events = parseSchedule(schedule);
  } catch (e) {
    if (e instanceof ParamError || e instanceof ScheduleSyntaxError) {
      return { verdict: `Cannot replay ${label}: ${e.message}`, agreed: false };
    }
    throw e;
  }
  try {
    const rep = await port.lockstep(scenario, params, events);
    return lockstepVerdict(label, rep, { sc, params, events });
  } catch (e) {
    return { verdict: `${label}: the replay failed: ${messageOf(e)}`, agreed: false };
  }
}
