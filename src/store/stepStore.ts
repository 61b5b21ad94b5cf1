// The Step-mode store: a zustand store created without React (the hook is a thin layer in
// src/ui). Actions are named as events; every user-facing failure becomes `notice`, and nothing
// the user had is lost by a bad event or link.

import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { createStore } from 'zustand/vanilla';
import { IllegalEventError, isTerminal } from '../machine/events.ts';
import { MachineFault } from '../machine/interpreter.ts';
import { ReplayError } from '../machine/timeline.ts';
import { allowedEvents, budgetLimits, budgetUsed } from '../machine/budget.ts';
import {
  formatSchedule,
  parseScheduleWithOffsets,
  ScheduleSyntaxError,
} from '../machine/schedule.ts';
import { describeError, LineMap } from '../lang/source.ts';
import {
  firstScenario,
  loadedScenario,
  loadScenario,
  needsLoading,
  openProgram,
} from '../scenarios/load.ts';
import { PROGRAM_ID } from '../scenarios/program.ts';
import { ParamError, paramsText, resolveParams } from '../scenarios/params.ts';
import { count } from '../machine/count.ts';
import { messageOf } from '../machine/errors.ts';
import type { Params, ParamValue, Scenario } from '../scenarios/types.ts';
import { decodeLink, encodeLink, isPackedLink, type ReadPacked, type StepLink } from './link.ts';
import {
  currentState,
  loadSchedule,
  moveTo,
  type Session,
  startSession,
  takeEvent,
  takeEvents,
} from './session.ts';
import { MAX_LIVE_CPUS } from '../live/specs.ts';

export interface StepState {
  readonly session: Session;
  /** A message for the user (a refused event, a bad link or parameter), or null. */
  readonly notice: string | null;
  readonly playing: boolean;
  /** Random-scheduler steps per second while playing. */
  readonly speed: number;
  readonly revealed: boolean;
  /** The witness last loaded (shown in the menu), or null. */
  readonly witness: string | null;
  /**
   * The challenge being attempted, by id, or null. The challenge store owns the attempt; the id
   * is kept here too so a link carries it and reopens it, without the lessons loaded.
   */
  readonly challenge: string | null;
  /** A side panel another screen asked to have open (the editor's "Explore it"), or null. */
  readonly requestedPanel: string | null;
  /**
   * What a parameter change set aside, so it can be undone: the run before it, while the stage
   * still has the parameters the change gave (`params`, by identity), else null.
   */
  readonly undo: {
    readonly before: Session;
    readonly witness: string | null;
    readonly params: Params;
    /** "batch changed: the 3 events stepped were set aside." */
    readonly what: string;
  } | null;

  scenarioChosen(id: string): void;
  paramChanged(name: string, text: string): void;
  /** Puts back the run a parameter change set aside (see `undo`). */
  undoRequested(): void;
  /** Applies one of the scenario's named parameter sets over the current parameters. */
  presetApplied(name: string): void;
  witnessLoaded(name: string): void;
  /** Loads a schedule (an explorer's witness) at its start, with these parameter overrides. */
  scheduleLoaded(params: Readonly<Record<string, string>>, schedule: string): void;
  eventRequested(ev: number): void;
  backRequested(): void;
  forwardRequested(): void;
  jumpRequested(cursor: number): void;
  resetRequested(): void;
  playToggled(): void;
  playTicked(): void;
  speedChanged(stepsPerSecond: number): void;
  revealToggled(): void;
  noticeDismissed(): void;
  /** Opens a #/step/… link; a bad one leaves a notice and the default scenario. */
  linkOpened(hash: string): void;
  /** The challenge store started or left an attempt. */
  challengeNamed(id: string | null): void;
  /** Asks the Step screen to open a side panel (null: the request was taken). */
  panelRequested(name: string | null): void;
}

/**
 * The parameter change that can still be undone, or null: once the stage's parameters are no
 * longer those the change gave (another change, a link, a scenario), there is nothing to undo.
 */
export function undoOf(s: Pick<StepState, 'undo' | 'session'>): StepState['undo'] {
  return s.undo && s.undo.params === s.session.params ? s.undo : null;
}

/** The link to the session's current moment, and to the challenge attempted there. */
export function linkOf(s: Session, challenge: string | null = null): string {
  // A typed program travels in its link: whoever opens it gets the same program.
  const program = s.scenario.id === PROGRAM_ID ? s.scenario.text?.(s.params) : undefined;
  return encodeLink({
    scenario: s.scenario.id,
    params: paramsText(s.params, s.scenario),
    schedule: formatSchedule(s.events),
    cursor: s.cursor,
    ...(challenge ? { challenge } : {}),
    ...(program === undefined ? {} : { program }),
  });
}

/** A link that opens scenario `id` in Step mode at its start (a typed program's carries it). */
export function stepHref(id: string): string {
  const sc = loadedScenario(id);
  if (id !== PROGRAM_ID || !sc) return `#/step/${id}`;
  return linkOf(startSession(sc));
}

/**
 * Loads the catalogue entry a Step link names, if it has not loaded: a page that awaits this
 * before handing the link over shows the link's scenario at once (linkOpened would otherwise
 * show the current one until the entry has loaded). A link that names no entry, or an entry
 * that fails to load, resolves too: linkOpened then says what is wrong.
 */
export async function linkedEntryLoaded(hash: string): Promise<void> {
  const decoded = decodeLink(hash, await packedReader(hash).catch(() => null));
  if (decoded.ok) await loadScenario(decoded.link.scenario).catch(() => undefined);
}

/** The reader of compressed links, once loaded (packedLink.ts: only compressed links need it). */
let readPacked: ReadPacked | null = null;

/** The reader a link needs: none for a readable link, else packedLink.ts's, loaded once. */
async function packedReader(hash: string): Promise<ReadPacked | null> {
  if (readPacked || !isPackedLink(hash)) return readPacked;
  readPacked = (await import('./packedLink.ts')).readPacked;
  return readPacked;
}

/** The scenario a link names: a catalogue entry, or the typed program it carries. */
function linkedScenario(link: StepLink): { sc: Scenario } | { why: string } {
  if (link.scenario !== PROGRAM_ID) {
    const sc = loadedScenario(link.scenario);
    return sc ? { sc } : { why: `there is no scenario '${link.scenario}'` };
  }
  if (link.program === undefined) return { why: 'it names a typed program but carries no text' };
  const r = openProgram(link.program);
  if (r.ok) return { sc: r.scenario };
  const first = r.errors[0];
  const where = first ? describeError(new LineMap(link.program), first) : 'an error';
  return { why: `the program it carries does not compile (${where})` };
}

/** The notice for an error a user's action can cause; anything else is a bug, thrown on. */
function noticeOf(e: unknown): string {
  if (
    e instanceof IllegalEventError ||
    e instanceof ReplayError ||
    e instanceof ParamError ||
    e instanceof ScheduleSyntaxError ||
    e instanceof MachineFault
  ) {
    return e.message;
  }
  throw e;
}

const first = firstScenario;

/**
 * The most CPUs Step mode shows: each has its own colour (charts/palette.ts has eight) and its
 * own digit key, and eight lanes still fit beside the listing. Live mode runs up to MAX_LIVE_CPUS.
 */
export const STEP_MAX_CPUS = 8;

/** Why `cpus` is too many for the stage, or null. */
function tooManyCpus(value: ParamValue | undefined): string | null {
  const n = Number(value);
  return Number.isFinite(n) && n > STEP_MAX_CPUS
    ? `cpus must be at most ${String(STEP_MAX_CPUS)} in Step mode (a colour and a digit key for each), not ${String(value)}; Live mode races up to ${String(MAX_LIVE_CPUS)}`
    : null;
}

/** A link's parameters that `sc` takes, and why each other one was left out. */
function usableParams(
  sc: Scenario,
  given: Readonly<Record<string, ParamValue>>,
): { params: Record<string, ParamValue>; ignored: string[] } {
  const params: Record<string, ParamValue> = {};
  const ignored: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    const many = name === 'cpus' ? tooManyCpus(value) : null;
    if (many) {
      ignored.push(many);
      continue;
    }
    try {
      resolveParams(sc, { [name]: value });
      params[name] = value;
    } catch (e) {
      if (!(e instanceof ParamError)) throw e;
      ignored.push(
        sc.params.some((p) => p.name === name) ? e.message : `${sc.id} has no parameter '${name}'`,
      );
    }
  }
  return { params, ignored };
}

/** The most of a refused link a notice repeats. */
const MAX_SHOWN = 300;

export function createStepStore(initial: Session = startSession(first)) {
  // The random scheduler of Play: seeded, so a class can replay "what the computer chose".
  const rng = xoroshiro128plus(2011);
  return createStore<StepState>()((set, get) => {
    // Step mode loads a catalogue entry the first time it is asked for (scenarios/load.ts). An
    // action naming one that has not loaded runs again once it has, unless another scenario was
    // asked for meanwhile; until then the stage shows what it showed.
    let asked = 0;
    const loadFirst = (id: string, again: () => void): boolean => {
      const ticket = ++asked;
      if (!needsLoading(id)) return false;
      loadScenario(id).then(
        () => {
          if (ticket === asked) again();
        },
        (e: unknown) => {
          if (ticket === asked)
            set({
              notice: `${id} could not be loaded: ${messageOf(e)}`,
            });
        },
      );
      return true;
    };
    const update = (f: (s: Session) => Session) => {
      try {
        set({ session: f(get().session), notice: null });
      } catch (e) {
        set({ notice: noticeOf(e), playing: false });
      }
    };
    // A fresh session with some parameters changed (a bad value leaves a notice, nothing else).
    const reparameterise = (changes: Readonly<Record<string, string>>, what: string) => {
      const { session, witness } = get();
      const many = tooManyCpus(changes.cpus);
      if (many) {
        set({ notice: many });
        return;
      }
      try {
        const overrides = { ...paramsText(session.params, session.scenario), ...changes };
        const next = startSession(session.scenario, overrides);
        const taken = session.events.length;
        set({
          session: next,
          notice: null,
          playing: false,
          witness: null,
          // A run stepped so far is set aside, not lost: Undo puts it back.
          undo:
            taken > 0
              ? {
                  before: session,
                  witness,
                  params: next.params,
                  what: `${what}: the ${count(taken, 'event')} of the run so far ${taken === 1 ? 'was' : 'were'} set aside.`,
                }
              : null,
        });
      } catch (e) {
        set({ notice: noticeOf(e) });
      }
    };
    // A schedule loaded at its start, ready to step: the schedule is the redo tail.
    const loaded = (
      params: Readonly<Record<string, ParamValue>>,
      schedule: string,
      also: Partial<Pick<StepState, 'revealed' | 'witness'>>,
    ) => {
      try {
        const { events } = parseScheduleWithOffsets(schedule);
        const start = startSession(get().session.scenario, params);
        try {
          set({ session: loadSchedule(start, events), notice: null, playing: false, ...also });
        } catch (e) {
          // An explorer's witness of a fault ends in the event that faults: load what comes
          // before it, and say what the next event does.
          if (!(e instanceof ReplayError) || !e.fault) throw e;
          set({
            session: loadSchedule(start, events.slice(0, e.index)),
            notice: `Event ${e.index + 1} of the schedule, ${e.event}, stops the machine: ${e.reason}. The schedule is loaded up to it.`,
            playing: false,
            ...also,
          });
        }
      } catch (e) {
        set({ notice: noticeOf(e) });
      }
    };
    return {
      session: initial,
      requestedPanel: null,
      notice: null,
      playing: false,
      speed: 4,
      revealed: false,
      witness: null,
      challenge: null,
      undo: null,

      scenarioChosen: (id) => {
        if (
          loadFirst(id, () => {
            get().scenarioChosen(id);
          })
        )
          return;
        const sc = loadedScenario(id);
        if (!sc) {
          set({ notice: `unknown scenario '${id}'` });
          return;
        }
        set({
          session: startSession(sc),
          notice: null,
          playing: false,
          revealed: false,
          witness: null,
          // A challenge belongs to its scenario's lesson.
          challenge: null,
        });
      },
      paramChanged: (name, text) => {
        reparameterise({ [name]: text }, `${name} changed`);
      },
      undoRequested: () => {
        const undo = undoOf(get());
        if (!undo) return;
        set({
          session: undo.before,
          witness: undo.witness,
          undo: null,
          notice: null,
          playing: false,
        });
      },
      presetApplied: (name) => {
        const { session } = get();
        const preset = session.scenario.presets[name];
        if (preset)
          reparameterise(paramsText(preset.apply(session.params)), `Preset ${name} applied`);
        else set({ notice: `${session.scenario.id} has no preset '${name}'` });
      },
      witnessLoaded: (name) => {
        const w = get().session.scenario.witnesses.find((x) => x.name === name);
        if (w) loaded(w.params, w.schedule, { revealed: false, witness: name });
        else set({ notice: `no witness '${name}'` });
      },
      scheduleLoaded: (params, schedule) => {
        loaded(params, schedule, { witness: null });
      },
      eventRequested: (ev) => {
        update((s) => takeEvent(s, ev));
      },
      // Travelling in time pauses Play: otherwise the random scheduler would go on from the
      // moment travelled to and drop the run's redo.
      backRequested: () => {
        set({ playing: false });
        update((s) => moveTo(s, s.cursor - 1));
      },
      forwardRequested: () => {
        update((s) => moveTo(s, s.cursor + 1));
      },
      jumpRequested: (cursor) => {
        set({ playing: false });
        update((s) => moveTo(s, cursor));
      },
      resetRequested: () => {
        const { session } = get();
        // Back to the start: no witness is loaded any more, so its question goes too.
        set({
          session: startSession(session.scenario, paramsText(session.params, session.scenario)),
          notice: null,
          playing: false,
          revealed: false,
          witness: null,
        });
      },
      playToggled: () => {
        set({ playing: !get().playing });
      },
      playTicked: () => {
        const { session } = get();
        const m = session.instance.machine;
        const s = currentState(session);
        if (isTerminal(m, s)) {
          set({ playing: false });
          return;
        }
        // Within the scenario's explore bounds, so Play cannot raise IRQs forever.
        const used = budgetUsed(session.events.slice(0, session.cursor));
        const ok = allowedEvents(m, s, budgetLimits(session.scenario.bounds), used, []);
        if (ok.length === 0) {
          set({ playing: false });
          return;
        }
        const ev = ok[unsafeUniformIntDistribution(0, ok.length - 1, rng)] as number;
        update((x) => takeEvent(x, ev));
      },
      speedChanged: (stepsPerSecond) => {
        set({ speed: Math.max(0.5, Math.min(50, stepsPerSecond)) });
      },
      revealToggled: () => {
        set({ revealed: !get().revealed });
      },
      noticeDismissed: () => {
        set({ notice: null });
      },
      linkOpened: (hash) => {
        if (!readPacked && isPackedLink(hash)) {
          // Opened once the reader of compressed links has loaded (unless another action came).
          const ticket = ++asked;
          packedReader(hash).then(
            () => {
              if (ticket === asked) get().linkOpened(hash);
            },
            (e: unknown) => {
              if (ticket === asked) set({ notice: `This link could not be read: ${messageOf(e)}` });
            },
          );
          return;
        }
        const decoded = decodeLink(hash, readPacked);
        if (
          decoded.ok &&
          loadFirst(decoded.link.scenario, () => {
            get().linkOpened(hash);
          })
        )
          return;
        // The address bar moves on to the fallback's link, so the notice keeps the one pasted.
        const shown = hash.length > MAX_SHOWN ? `${hash.slice(0, MAX_SHOWN)}…` : hash;
        // A link that names a scenario opens that scenario, even when the rest cannot be used.
        const fallback = (why: string, sc: Scenario = first, params: Params = {}) => {
          let session: Session;
          try {
            session = startSession(sc, params);
          } catch {
            session = startSession(sc); // its parameters together are what fails
          }
          set({
            session,
            notice: `This link could not be opened: ${why}. Showing ${sc.id} instead. The link was: ${shown}`,
            playing: false,
            revealed: false,
            witness: null,
            challenge: null,
          });
        };
        if (!decoded.ok) {
          fallback(decoded.message);
          return;
        }
        const { link } = decoded;
        const named = linkedScenario(link);
        if ('why' in named) {
          fallback(named.why);
          return;
        }
        const { sc } = named;
        // Parameters the scenario does not have, or cannot take, are left out and named.
        const { params, ignored } = usableParams(sc, link.params);
        const note =
          ignored.length === 0
            ? null
            : `Part of this link was ignored: ${ignored.join('; ')}. The rest is open.`;
        try {
          const { events } = parseScheduleWithOffsets(link.schedule);
          let full: Session;
          try {
            full = takeEvents(startSession(sc, params), events);
          } catch (e) {
            if (!(e instanceof ReplayError)) throw e;
            // Which event of the schedule, counted as a person reads it.
            throw new IllegalEventError(
              events[e.index] as number,
              `${e.reason} (event ${e.index + 1} of ${events.length} in the link's schedule)`,
            );
          }
          set({
            session: moveTo(full, link.cursor),
            notice: note,
            playing: false,
            revealed: false,
            witness: null,
            challenge: link.challenge ?? null,
          });
        } catch (e) {
          fallback(noticeOf(e), sc, params);
        }
      },
      challengeNamed: (id) => {
        set({ challenge: id });
      },
      panelRequested: (name) => {
        set({ requestedPanel: name });
      },
    };
  });
}

export type StepStore = ReturnType<typeof createStepStore>;
