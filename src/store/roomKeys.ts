// The browser storage key of the class a teacher's browser runs, in a module of its own: Step
// mode reads whether it is set (to resume a class after a reload) without loading the room.

export const TEACHER_KEY = 'percpu-lab:class-teacher';

/** Whether this browser runs a class (its secret is kept); false where storage is blocked. */
export function classKept(): boolean {
  try {
    return globalThis.localStorage.getItem(TEACHER_KEY) !== null;
  } catch {
    return false;
  }
}
