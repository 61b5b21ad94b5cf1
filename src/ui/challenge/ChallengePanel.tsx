import { findLesson } from '../../lessons/index.ts';
import { useStep } from '../step/useStep.ts';
import { ChallengeCard } from './ChallengeCard.tsx';
import { ProgressProblem } from './ProgressProblem.tsx';
import { ResetProgress } from './ResetProgress.tsx';
import { challengeStore, useChallenge } from './useChallenge.ts';
import './challenge.css';

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
        <div role="alert" aria-label="Challenge notice" className="notice">
          {notice}{' '}
          <button
            type="button"
            onClick={() => {
              challengeStore.getState().noticeDismissed();
            }}
          >
            Dismiss
          </button>
        </div>
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
      <ResetProgress />
    </section>
  );
}
