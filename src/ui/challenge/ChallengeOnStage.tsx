import { findChallenge } from '../../store/challengeStore.ts';
import { useStep } from '../step/useStep.ts';
import { useChallenge } from './useChallenge.ts';
import { checkText } from './words.ts';
import './challenge.css';

/**
 * The challenge being attempted, judged, on the stage itself while its panel is closed: on a
 * phone the panel is a sheet over the stage, closed to step, and the winning step must still
 * say "Solved" where the student is looking.
 */
export function ChallengeOnStage() {
  const id = useStep((s) => s.challenge);
  const scenario = useStep((s) => s.session.scenario.id);
  const check = useChallenge((s) => s.check);
  const ch = id === null ? undefined : findChallenge(scenario, id);
  if (!ch || !check) return null;
  const solved = check.kind === 'finished' && check.reached && ch.mode === 'reach';
  return (
    <p
      role="status"
      aria-label="Challenge on the stage"
      className={`challenge-on-stage${solved ? ' solved' : ''}`}
    >
      {solved ? '✓ ' : ''}
      <strong>{ch.title}</strong>: {checkText(ch, check)}
    </p>
  );
}
