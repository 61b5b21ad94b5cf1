// What a scenario is, at the top of the Live screen: its summary, whether it is a reconstruction
// of code that is lost, and its lesson, folded. Shown whether or not the scenario runs free.

import type { Scenario } from '../../scenarios/types.ts';

/** What the scenario is, whether it is a reconstruction, and its lesson (folded). */
export function ScenarioIntro({ scenario: sc }: { scenario: Scenario }) {
  return (
    <>
      <p className="summary">
        {sc.summary} {sc.reconstruction && <span className="badge">reconstruction</span>}
      </p>
      {/* A typed program has no lesson: its own comment is its summary. */}
      {sc.lesson.summary !== '' && sc.lesson.summary !== sc.summary && (
        <details className="lesson">
          <summary>Lesson</summary>
          <p>{sc.lesson.summary}</p>
        </details>
      )}
    </>
  );
}
