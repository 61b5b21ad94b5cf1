// The challenge panel's store: which challenge of the Step scenario the student is attempting,
// the verdict on the schedule they have stepped so far, the hints they have revealed, and what
// Explore says about each challenge (computed in a worker through a runner passed in, so tests
// fake it). Created without React. It follows the Step store: every new session is judged at
// once, and a solution is recorded in the progress store as soon as it reaches the goal.

import { createStore } from 'zustand/vanilla';
import {
  type AttemptVerdict,
  type Challenge,
  type ChallengeStats,
  challengeKey,
  challengeParams,
  checkAttempt,
  findLesson,
} from '../lessons/index.ts';
import { formatSchedule } from '../machine/schedule.ts';
import { paramsText } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import type { ProgressStore } from './progressStore.ts';
import type { Session } from './session.ts';
import type { StepState, StepStore } from './stepStore.ts';
import { isAbortError, messageOf } from '../machine/errors.ts';

/** The challenge store's port: a challenge's statistics, off the main thread (an ExploreBridge). */
export interface StatsPort {
  /** Rejects with an AbortError (isAbortError) once `signal` aborts, its worker ended. */
  challengeStats(
    scenario: string,
    challengeId: string,
    signal: AbortSignal,
  ): Promise<ChallengeStats>;
}

export type StatsEntry =
  | { readonly kind: 'computing' }
  | { readonly kind: 'done'; readonly stats: ChallengeStats }
  | { readonly kind: 'failed'; readonly error: string };

/** The current schedule judged for the active challenge. */
export type ChallengeCheck =
  /** The stage's parameters are no longer the challenge's (the student changed one). */
  { readonly kind: 'params-differ' } | AttemptVerdict;

export interface ActiveChallenge {
  readonly scenario: string;
  readonly id: string;
}

/**
 * The challenge being attempted: the Step store's `challenge` (what the link names) in the Step
 * scenario, or null. The Step store holds the id, and nothing else does, so the two cannot
 * disagree.
 */
export function activeChallengeOf(
  s: Pick<StepState, 'challenge' | 'session'>,
): ActiveChallenge | null {
  return s.challenge === null ? null : { scenario: s.session.scenario.id, id: s.challenge };
}

export interface ChallengeState {
  /** The stage's schedule (up to the cursor) judged for the active challenge; null for none. */
  readonly check: ChallengeCheck | null;
  /** Hints revealed, by challenge key. */
  readonly hints: Readonly<Record<string, number>>;
  /** Explore's statistics, by challenge key (absent: never asked, or cancelled). */
  readonly stats: Readonly<Record<string, StatsEntry>>;
  /** Why the last action was refused, or null. */
  readonly notice: string | null;

  /** Starts a challenge of the Step scenario: the stage at the start, with its parameters. */
  challengeStarted(id: string): void;
  /**
   * Goes on with a challenge on the stage as it is (a link named it): judged from the moment
   * shown, without starting over.
   */
  challengeResumed(id: string): void;
  /** Stops attempting the active challenge (the stage stays as it is). */
  challengeLeft(): void;
  /** Reveals the next hint of a challenge. */
  hintRevealed(id: string): void;
  /** Loads hint `index`'s schedule at its start, as the redo tail, and makes it the attempt. */
  hintTried(id: string, index: number): void;
  /**
   * Asks Explore for a challenge's statistics (kept once known). For an 'impossible' challenge
   * this is the exhaustive check: it settles the challenge when no end state reaches the goal.
   */
  statsRequested(id: string): void;
  /** Stops a statistics computation in progress. */
  statsCancelled(): void;
  noticeDismissed(): void;
}

/** A challenge of a scenario's lesson, by id. */
export function findChallenge(scenario: string, id: string): Challenge | undefined {
  return findLesson(scenario)?.challenges.find((c) => c.id === id);
}

/** The challenge's parameters as text, as the Step store and links take them. */
export function challengeParamsText(sc: Scenario, ch: Challenge): Record<string, string> {
  return paramsText(challengeParams(sc, ch), sc);
}

/** Judges the session's schedule, up to its cursor, for the challenge. */
export function checkSession(session: Session, ch: Challenge): ChallengeCheck {
  const sc = session.scenario;
  const want = JSON.stringify(challengeParamsText(sc, ch));
  if (JSON.stringify(paramsText(session.params, sc)) !== want) return { kind: 'params-differ' };
  // Judged on the states the timeline already holds: a key press costs one step of machine work.
  return checkAttempt(sc, ch, {
    machine: session.instance.machine,
    events: session.events.slice(0, session.cursor),
    states: session.states.slice(0, session.cursor + 1),
  });
}

/** True when the stats of an 'impossible' challenge prove that no end state reaches its goal. */
export function provesImpossible(s: ChallengeStats): boolean {
  return s.complete && s.reachingEndStates === 0;
}

function without<T>(table: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const out = { ...table };
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a copy keyed by challenge
  delete out[key];
  return out;
}

export interface ChallengeDeps {
  readonly step: StepStore;
  readonly progress: ProgressStore;
  readonly runner: StatsPort;
}

export function createChallengeStore({ step, progress, runner }: ChallengeDeps) {
  const store = createStore<ChallengeState>()((set, get) => {
    // The key whose statistics the runner is computing (one call at a time), and the call's
    // AbortController: aborting it stops the call, and a late answer to it is dropped.
    let inflight: { key: string; abort: AbortController } | null = null;

    const dropInflight = () => {
      if (!inflight) return;
      const { key, abort } = inflight;
      inflight = null;
      abort.abort();
      set({ stats: without(get().stats, key) });
    };

    const requestStats = (scenario: string, ch: Challenge) => {
      const key = challengeKey(scenario, ch.id);
      const entry = get().stats[key];
      if (entry?.kind === 'done' || entry?.kind === 'computing') {
        if (entry.kind === 'done') settleIfProved(scenario, ch, entry.stats);
        return;
      }
      dropInflight();
      const call = { key, abort: new AbortController() };
      inflight = call;
      set({ stats: { ...get().stats, [key]: { kind: 'computing' } } });
      runner.challengeStats(scenario, ch.id, call.abort.signal).then(
        (stats) => {
          if (inflight !== call) return;
          inflight = null;
          set({ stats: { ...get().stats, [key]: { kind: 'done', stats } } });
          settleIfProved(scenario, ch, stats);
        },
        (e: unknown) => {
          if (inflight !== call) return;
          inflight = null;
          // Cancelled elsewhere (another call took the bridge): nothing known, as if never asked.
          if (isAbortError(e)) {
            set({ stats: without(get().stats, key) });
            return;
          }
          const error = messageOf(e);
          set({ stats: { ...get().stats, [key]: { kind: 'failed', error } } });
        },
      );
    };

    const settleIfProved = (scenario: string, ch: Challenge, stats: ChallengeStats) => {
      if (ch.mode === 'impossible' && provesImpossible(stats))
        progress.getState().challengeSettled(scenario, ch.id);
    };

    /** The challenge `id` of the Step scenario, or a notice saying there is none. */
    const current = (id: string): { sc: Scenario; ch: Challenge } | null => {
      const sc = step.getState().session.scenario;
      const ch = findChallenge(sc.id, id);
      if (!ch) {
        set({ notice: `${sc.id} has no challenge '${id}'` });
        return null;
      }
      return { sc, ch };
    };

    // Set while this store names a challenge in the Step store, whose subscription below then
    // has nothing to take up.
    let naming = false;
    const name = (id: string | null) => {
      naming = true;
      try {
        step.getState().challengeNamed(id);
      } finally {
        naming = false;
      }
    };

    /** Makes `ch` the active challenge, cancelling other statistics; the link names it. */
    const activate = (sc: Scenario, ch: Challenge) => {
      const key = challengeKey(sc.id, ch.id);
      if (inflight && inflight.key !== key) dropInflight();
      set({ notice: null });
      name(ch.id);
    };

    /** Makes `ch` the active challenge and loads the stage with its parameters and `schedule`. */
    const attempt = (sc: Scenario, ch: Challenge, schedule: string) => {
      activate(sc, ch);
      const before = step.getState().session;
      step.getState().scheduleLoaded(challengeParamsText(sc, ch), schedule);
      // A new session is judged by the subscription; a refused load leaves the old one to judge.
      if (step.getState().session === before) judge(before);
    };

    const judge = (session: Session) => {
      const active = activeChallengeOf({ challenge: step.getState().challenge, session });
      const ch = active ? findChallenge(active.scenario, active.id) : undefined;
      if (!active || !ch) {
        if (get().check !== null) set({ check: null });
        return;
      }
      const check = checkSession(session, ch);
      set({ check });
      if (check.kind === 'finished' && check.reached && ch.mode === 'reach') {
        const schedule = formatSchedule(session.events.slice(0, session.cursor));
        const hints = get().hints[challengeKey(active.scenario, ch.id)] ?? 0;
        progress.getState().challengeSolved(active.scenario, ch.id, schedule, check.score, hints);
        requestStats(active.scenario, ch);
      }
    };

    step.subscribe((s, prev) => {
      if (s.session === prev.session) return;
      // Another scenario: a computation for the one left (an attempt's count or an exhaustive
      // check) is no longer shown, so it stops.
      const left = prev.session.scenario.id;
      if (s.session.scenario.id !== left && inflight?.key.startsWith(`${left}/`)) dropInflight();
      judge(s.session);
    });
    // A link opened (or a scenario chosen) names another challenge, or none.
    step.subscribe((s, prev) => {
      if (naming || s.challenge === prev.challenge) return;
      if (s.challenge === null) set({ check: null });
      else resume(s.challenge);
    });

    const resume = (id: string) => {
      const found = current(id);
      if (!found) {
        name(null);
        return;
      }
      // A link with no schedule (written by hand: ?challenge=lose-one) starts it afresh, with
      // its parameters; one with a schedule goes on from the moment it shows.
      if (step.getState().session.events.length === 0) {
        attempt(found.sc, found.ch, '');
        return;
      }
      activate(found.sc, found.ch);
      judge(step.getState().session);
    };

    return {
      check: null,
      hints: {},
      stats: {},
      notice: null,

      challengeStarted: (id) => {
        const found = current(id);
        if (found) attempt(found.sc, found.ch, '');
      },
      challengeResumed: resume,
      challengeLeft: () => {
        const active = activeChallengeOf(step.getState());
        if (active && inflight?.key === challengeKey(active.scenario, active.id)) dropInflight();
        set({ check: null, notice: null });
        name(null);
      },
      hintRevealed: (id) => {
        const found = current(id);
        if (!found) return;
        const key = challengeKey(found.sc.id, id);
        const shown = get().hints[key] ?? 0;
        const total = found.ch.hints.length;
        if (shown >= total) {
          set({ notice: `All ${total} hints of this challenge are shown.` });
          return;
        }
        set({ hints: { ...get().hints, [key]: shown + 1 }, notice: null });
      },
      hintTried: (id, index) => {
        const found = current(id);
        if (!found) return;
        const shown = get().hints[challengeKey(found.sc.id, id)] ?? 0;
        const schedule = found.ch.hints[index]?.schedule;
        if (index >= shown || schedule === undefined) {
          set({ notice: `Hint ${index + 1} has no schedule to try, or is not shown yet.` });
          return;
        }
        attempt(found.sc, found.ch, schedule);
      },
      statsRequested: (id) => {
        const found = current(id);
        if (!found) return;
        set({ notice: null });
        requestStats(found.sc.id, found.ch);
      },
      statsCancelled: () => {
        dropInflight();
      },
      noticeDismissed: () => {
        set({ notice: null });
      },
    };
  });
  // The lessons load after the stage: a challenge the opening link named is taken up now.
  const named = step.getState().challenge;
  if (named) store.getState().challengeResumed(named);
  return store;
}

export type ChallengeStore = ReturnType<typeof createChallengeStore>;
