// Lessons and challenges as data: what a lecture shows beside the stage, what a student is asked
// to do, and how the stage gets to the moment each slide talks about. Everything here is plain
// JSON-shaped data (no functions), so a lesson can be shown, linked, tested and serialised alike.

import type { ExploreBounds, Params } from '../scenarios/types.ts';
import type { Goal } from './goal.ts';

/** A question put to the class, with the answer revealed on demand. */
export interface Prediction {
  readonly question: string;
  readonly answer: string;
}

/**
 * Observable values a slide's figures rest on, checked by replay. A number for a value, null for
 * one not yet known (a sum that has not returned).
 */
export type ExpectedObservables = Readonly<Record<string, number | null>>;

export interface Slide {
  readonly title: string;
  /** A few plain sentences. Every figure in them is checked by `expect` (or `breaks`). */
  readonly text: string;
  /**
   * A schedule prefix in the machine's syntax (machine/schedule.ts): the stage replays it from
   * the start and shows the state it ends in. Absent: the initial state.
   */
  readonly at?: string;
  /** Parameter overrides (resolveParams validates them); absent: the scenario's defaults. */
  readonly params?: Params;
  readonly predict?: Prediction;
  /** The observables at the end of `at`, as the text states them. */
  readonly expect?: ExpectedObservables;
  /**
   * Exactly the invariants broken by the end of `at`: always-invariants at any state on the way,
   * final ones if `at` ends in a terminal state. Absent: not claimed either way.
   */
  readonly breaks?: readonly string[];
  /**
   * Under the kernel's memory model (`params` with memory lkmm, no `at`): an end state the model
   * allows, as the Explore panel's line reads it ("reader_in=1 writer_in=1"). The stage draws an
   * execution that ends there; `expect` and `breaks` are that end state's.
   */
  readonly graph?: string;
}

/** Where a lesson's facts come from, citable in public archives. */
export interface SourceRef {
  readonly kind: 'kernel-source' | 'commit' | 'mail';
  /** What it is, for people: author, subject, list and date, or tree and file. */
  readonly title: string;
  /** The public identifier: a Message-ID in <…>, a commit id, a path at a version, or a URL. */
  readonly ref: string;
  /** The seed post in the project's shared reference material, where this is one. */
  readonly seed?: string;
}

/**
 * A challenge either asks for a schedule that reaches the goal ('reach') or asks the student to
 * convince themselves that none can ('impossible'; Explore settles it within the bounds).
 */
export type ChallengeMode = 'reach' | 'impossible';

export interface Challenge {
  /** Stable within its scenario; progress is kept under `${scenario}/${id}`. */
  readonly id: string;
  readonly title: string;
  /** What to do, in a sentence or two, for the student. */
  readonly task: string;
  readonly mode: ChallengeMode;
  /** Judged on the end state of a finished run. */
  readonly goal: Goal;
  /** Parameter overrides for the run (the rest take the scenario's defaults). */
  readonly params: Params;
  /** The interventions a solution may make (steps are free). */
  readonly bounds: ExploreBounds;
  /** From a nudge to nearly the answer; 2 to 4 of them. */
  readonly hints: readonly Hint[];
}

export interface Hint {
  readonly text: string;
  /**
   * A whole run the stage can load: for a 'reach' challenge a solution, for an 'impossible' one
   * the nearest miss. Tests replay it and hold it to that.
   */
  readonly schedule?: string;
}

/** Everything the classroom shows for one scenario. */
export interface ScenarioLesson {
  /** The scenario's stable id. */
  readonly scenario: string;
  /** Its place in the course: lessons are taught in increasing order of it (course.ts). */
  readonly course: number;
  readonly sources: readonly SourceRef[];
  /** 3 to 6 slides, in lecture order. */
  readonly slides: readonly Slide[];
  /** One question per witness of the scenario, keyed by the witness's name. */
  readonly witnessQuestions: Readonly<Record<string, Prediction>>;
  /** 0 to 3 challenges. */
  readonly challenges: readonly Challenge[];
}
