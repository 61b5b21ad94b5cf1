// The course progress store: the student's Progress record (src/lessons/progress.ts), kept in
// localStorage under one key. Created without React; the storage is passed in so tests can fake
// it, and so a browser without usable storage (private mode, a full quota, a sandboxed iframe)
// still gets a working store that keeps progress in memory and says so in `problem`.
//
// A stored record that cannot be read is never overwritten silently: it may be a newer app's, or
// a student's whole course. Until the student chooses Reset, changes are kept in memory only.

import { createStore } from 'zustand/vanilla';
// The progress record's module alone, not the lessons' index: the home page reads progress and
// loads no lesson.
import {
  challengeKey,
  emptyProgress,
  parseProgress,
  type Progress,
  serializeProgress,
  withSettled,
  withSlide,
  withSolution,
} from '../lessons/progress.ts';
import type { Score } from '../lessons/score.ts';
import { browserStorage, type KeyValueStorage, storageReason } from './storage.ts';

/** The localStorage key the record is kept under. */
export const PROGRESS_KEY = 'percpu-lab:progress';

/** The part of the Web Storage API the store uses (localStorage, or a fake in tests). */
export type ProgressStorage = KeyValueStorage;

export interface ProgressState {
  readonly progress: Progress;
  /** What is wrong with saving or reading progress, for the student; null when all is well. */
  readonly problem: string | null;

  /** Slide `slide` of a scenario's lesson reached; `done` when the lesson was seen to the end. */
  slideSeen(scenario: string, slide: number, done?: boolean): void;
  /** A 'reach' challenge solved by `schedule`; the simpler of it and the one kept is kept. */
  /** `hints`: how many of its hints were shown when it was solved. */
  challengeSolved(
    scenario: string,
    challengeId: string,
    schedule: string,
    score: Score,
    hints?: number,
  ): void;
  /** An 'impossible' challenge settled by the exhaustive check. */
  challengeSettled(scenario: string, challengeId: string): void;
  /** Forgets all progress, in memory and in storage (also the way out of an unreadable record). */
  reset(): void;
  /**
   * Another tab of this browser stored `text` (null: cleared it). This tab takes that record as
   * its own, so its next save carries the other tab's work instead of overwriting it.
   */
  storedElsewhere(text: string | null): void;
}

const reason = storageReason;

const KEPT_IN_MEMORY = 'Progress is kept only until this page is closed.';

/** What a stored text holds; an unreadable one is named, and held until the student resets. */
function readStored(text: string | null) {
  if (text === null) return { progress: emptyProgress(), unreadable: false, problem: null };
  const r = parseProgress(text);
  if (r.ok) return { progress: r.progress, unreadable: false, problem: null };
  return {
    progress: emptyProgress(),
    unreadable: true,
    problem: `Saved progress could not be read: ${r.error}. It is left as it is; until you reset progress, what you do now is not saved.`,
  };
}

export function createProgressStore(storage: ProgressStorage = browserStorage()) {
  let first: ReturnType<typeof readStored>;
  try {
    first = readStored(storage.getItem(PROGRESS_KEY));
  } catch (e) {
    first = {
      ...readStored(null),
      problem: `Saved progress could not be read: ${reason(e)}. ${KEPT_IN_MEMORY}`,
    };
  }
  // What `problem` is about: an unreadable record (held until Reset), or storage that failed
  // (cleared by the next write that succeeds).
  let unreadable = first.unreadable;
  const { progress, problem } = first;

  return createStore<ProgressState>()((set, get) => {
    /** Keeps `next` in memory and, unless the stored record is unreadable, in storage. */
    const save = (next: Progress) => {
      if (next === get().progress) return;
      if (unreadable) {
        set({ progress: next });
        return;
      }
      try {
        storage.setItem(PROGRESS_KEY, serializeProgress(next));
        set({ progress: next, problem: null });
      } catch (e) {
        set({
          progress: next,
          problem: `Progress could not be saved: ${reason(e)}. ${KEPT_IN_MEMORY}`,
        });
      }
    };

    return {
      progress,
      problem,
      slideSeen: (scenario, slide, done = false) => {
        const was = get().progress.lessons[scenario];
        const next = withSlide(get().progress, scenario, slide, done);
        const now = next.lessons[scenario];
        // Going back to an earlier slide changes nothing: no write, no re-render.
        if (was?.slide === now?.slide && was?.done === now?.done) return;
        save(next);
      },
      challengeSolved: (scenario, challengeId, schedule, score, hints = 0) => {
        save(
          withSolution(get().progress, challengeKey(scenario, challengeId), schedule, score, hints),
        );
      },
      challengeSettled: (scenario, challengeId) => {
        const key = challengeKey(scenario, challengeId);
        if (get().progress.challenges[key]?.kind === 'settled') return;
        save(withSettled(get().progress, key));
      },
      reset: () => {
        unreadable = false;
        try {
          storage.removeItem(PROGRESS_KEY);
          set({ progress: emptyProgress(), problem: null });
        } catch (e) {
          set({
            progress: emptyProgress(),
            problem: `Saved progress could not be cleared: ${reason(e)}. ${KEPT_IN_MEMORY}`,
          });
        }
      },
      storedElsewhere: (text) => {
        const r = readStored(text);
        unreadable = r.unreadable;
        set({ progress: r.progress, problem: r.problem });
      },
    };
  });
}

export type ProgressStore = ReturnType<typeof createProgressStore>;
