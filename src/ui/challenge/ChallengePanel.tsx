import { findLesson, lessons } from '../../lessons/index.ts';
import { Notice } from '../Notice.tsx';
import { useStep } from '../step/useStep.ts';
import { ChallengeCard } from './ChallengeCard.tsx';
import { ProgressProblem } from './ProgressProblem.tsx';
import { ResetProgress } from './ResetProgress.tsx';
import { challengeStore, useChallenge } from './useChallenge.ts';
import './challenge.css';

/** Every challenge of the course, as the progress line counts them. */
const courseChallenges = new Set(
  lessons.flatMap((l) => l.challenges.map((c) => `${l.scenario}/${c.id}`)),
);

function dismissNotice() {
  challengeStore.getState().noticeDismissed();
}

/** The Step scenario's challenges: start one, step to solve it, reveal hints, see the score. */
export function ChallengePanel() {
  const scenario = useStep((s) => s.session.scenario.id);
  const notice = useChallenge((s) => s.notice);
  const challenges = findLesson(scenario)?.challenges ?? [];
  return (
    <section className="challenges" aria-label="Challenges">
      <h3>Challenges</h3>
      <ProgressProblem />
      {notice && (
        <Notice label="Challenge notice" action="Dismiss" onAction={dismissNotice}>
          {notice}
        </Notice>
      )}
      {challenges.length === 0 ? (
        <p>This scenario has no challenges.</p>
      ) : (
        <ol className="challenge-list">
          {challenges.map((ch) => (
            <li key={ch.id}>
              <ChallengeCard scenario={scenario} ch={ch} />
            </li>
          ))}
        </ol>
      )}
      <ResetProgress keys={courseChallenges} />
    </section>
  );
}
