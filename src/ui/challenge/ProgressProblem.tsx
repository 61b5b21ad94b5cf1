import { Notice } from '../Notice.tsx';
import { progressStore, useProgress } from '../useProgress.ts';

function resetProgress() {
  progressStore.getState().reset();
}

/** What is wrong with saved progress (unreadable record, storage refused), and the way out. */
export function ProgressProblem() {
  const problem = useProgress((s) => s.problem);
  if (!problem) return null;
  return (
    <Notice label="Saved progress" action="Reset progress" onAction={resetProgress}>
      {problem}
    </Notice>
  );
}
