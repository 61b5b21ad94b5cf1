import { progressStore, useProgress } from '../useProgress.ts';

/** What is wrong with saved progress (unreadable record, storage refused), and the way out. */
export function ProgressProblem() {
  const problem = useProgress((s) => s.problem);
  if (!problem) return null;
  return (
    <div role="alert" aria-label="Saved progress" className="notice">
      {problem}{' '}
      <button
        type="button"
        onClick={() => {
          progressStore.getState().reset();
        }}
      >
        Reset progress
      </button>
    </div>
  );
}
