import { useId } from 'react';
import {
  type Challenge,
  type ChallengeProgress,
  challengeKey,
  describeGoal,
  challengeParams,
  goalNames,
} from '../../lessons/index.ts';
import { findScenario } from '../../scenarios/index.ts';
import type { ChallengeCheck, StatsEntry } from '../../store/challengeStore.ts';
import { useStep } from '../step/useStep.ts';
import { useProgress } from '../useProgress.ts';
import { HintButton, HintList } from './Hints.tsx';
import { challengeStore, useChallenge } from './useChallenge.ts';
import { boundsText, checkText, distanceText, reachText, scoreText, settleText } from './words.ts';

/** What the progress record says of a challenge, in words. */
function markText(ch: Challenge, record: ChallengeProgress | undefined): string {
  if (record?.kind === 'solved') {
    const hints = record.hints ?? 0;
    const help =
      hints > 0 ? `, with ${hints === 1 ? 'a hint' : `${String(hints)} hints`} shown` : '';
    return `✓ Solved${help}. Your best: ${scoreText(record.score)}.`;
  }
  if (record?.kind === 'settled') return '✓ Settled: no schedule within the bounds reaches it.';
  return ch.mode === 'reach' ? 'Not solved yet.' : 'Not settled yet.';
}

/** What the goal's names mean, in the scenario's words: the goal is written in the model's. */
function GoalTerms({ scenario, ch }: { scenario: string; ch: Challenge }) {
  const sc = findScenario(scenario);
  if (!sc) return null;
  const names = goalNames(ch.goal);
  const invariants = [...new Set(names.invariants)];
  const observables = [...new Set(names.observables)];
  const terms = [
    ...observables.map(
      (n) =>
        [
          n,
          sc.observables(challengeParams(sc, ch)).find((o) => o.name === n)?.description,
        ] as const,
    ),
    ...invariants.map((n) => [n, sc.invariants.find((i) => i.id === n)?.description] as const),
  ].filter((t): t is readonly [string, string] => t[1] !== undefined && t[1] !== '');
  if (terms.length === 0) return null;
  return (
    <ul className="goal-terms hint" aria-label="What the goal's names mean">
      {terms.map(([name, what]) => (
        <li key={name}>
          <code>{name}</code>: {what}
        </li>
      ))}
    </ul>
  );
}

/** A button that stops a statistics computation. */
function CancelButton() {
  return (
    <button
      type="button"
      onClick={() => {
        challengeStore.getState().statsCancelled();
      }}
    >
      Cancel
    </button>
  );
}

/** Explore's count for a solved 'reach' challenge, and how far the solution is from the simplest. */
function ReachStats({
  ch,
  entry,
  check,
}: {
  ch: Challenge;
  entry?: StatsEntry;
  check: ChallengeCheck;
}) {
  if (check.kind !== 'finished') return null;
  if (!entry)
    return (
      <p>
        The count of end states was cancelled.{' '}
        <button
          type="button"
          onClick={() => {
            challengeStore.getState().statsRequested(ch.id);
          }}
        >
          Count again
        </button>
      </p>
    );
  if (entry.kind === 'computing')
    return (
      <p>
        Computing how many end states reach the goal… <CancelButton />
      </p>
    );
  if (entry.kind === 'failed') return <p>Explore could not count the end states: {entry.error}.</p>;
  const { simplest } = entry.stats;
  return (
    <>
      <p>{reachText(entry.stats)}</p>
      {simplest && (
        <p>
          {distanceText(check.score, simplest.score)} The simplest: <code>{simplest.schedule}</code>{' '}
          ({scoreText(simplest.score)}).
        </p>
      )}
    </>
  );
}

/** The verdict on the schedule stepped so far, for the active challenge. */
function Attempt({
  ch,
  check,
  entry,
  settled,
}: {
  ch: Challenge;
  check: ChallengeCheck;
  entry?: StatsEntry;
  /** The progress record says Explore settled it already. */
  settled: boolean;
}) {
  const tail = useStep((s) => s.session.events.length - s.session.cursor);
  const solved = check.kind === 'finished' && check.reached && ch.mode === 'reach';
  return (
    <div
      role="status"
      aria-label="Attempt"
      className={`attempt${solved ? ' solved' : ''}${check.kind === 'over-bounds' ? ' over' : ''}`}
    >
      <p>{checkText(ch, check, settled)}</p>
      {'score' in check && check.kind !== 'unfinished' && <p>Score: {scoreText(check.score)}.</p>}
      {tail > 0 && (
        <p>
          {tail} more {tail === 1 ? 'event is' : 'events are'} loaded: <kbd>→</kbd> or Step forward
          plays them.
        </p>
      )}
      {solved && <ReachStats ch={ch} entry={entry} check={check} />}
    </div>
  );
}

/** The exhaustive check of an 'impossible' challenge. */
function SettleButton({ ch, entry }: { ch: Challenge; entry?: StatsEntry }) {
  const computing = entry?.kind === 'computing';
  return (
    <button
      type="button"
      aria-disabled={computing}
      title={computing ? 'Explore is already checking every schedule' : undefined}
      onClick={() => {
        if (!computing) challengeStore.getState().statsRequested(ch.id);
      }}
    >
      Check every schedule
    </button>
  );
}

/** What the exhaustive check found, or that it is running. */
function SettleStatus({ ch, entry }: { ch: Challenge; entry?: StatsEntry }) {
  return (
    <div role="status" aria-label="Exhaustive check" className="settle">
      {entry?.kind === 'computing' && (
        <p>
          Computing: Explore is following every schedule within the bounds… <CancelButton />
        </p>
      )}
      {entry?.kind === 'done' && <p>{settleText(ch, entry.stats)}</p>}
      {entry?.kind === 'failed' && <p>The check could not finish: {entry.error}.</p>}
    </div>
  );
}

/** One challenge: its task, goal and bound, your progress on it, the attempt and the hints. */
export function ChallengeCard({ scenario, ch }: { scenario: string; ch: Challenge }) {
  const key = challengeKey(scenario, ch.id);
  const titleId = useId();
  const record = useProgress((s) => s.progress.challenges[key]);
  // The Step store holds which challenge is attempted (the link names it).
  const active = useStep((s) => s.challenge === ch.id && s.session.scenario.id === scenario);
  const check = useChallenge((s) => (active ? s.check : null));
  const entry = useChallenge((s) => s.stats[key]);
  const actions = challengeStore.getState();
  return (
    <article
      aria-labelledby={titleId}
      className={`challenge${active ? ' active' : ''}`}
      aria-current={active ? 'step' : undefined}
    >
      <h4 id={titleId}>{ch.title}</h4>
      <p role="status" aria-label="Progress" className={`mark${record ? ' done' : ''}`}>
        {markText(ch, record)}
      </p>
      <p>{ch.task}</p>
      <dl>
        <dt>Goal</dt>
        <dd>{describeGoal(ch.goal)}</dd>
        <dt>Interventions allowed</dt>
        <dd>{boundsText(ch.bounds)}</dd>
        <dt>To do</dt>
        <dd>
          {ch.mode === 'reach'
            ? 'find a schedule that reaches the goal'
            : 'convince yourself no schedule can reach it, then check every schedule'}
        </dd>
      </dl>
      {/* Under the list, the card's whole width: the descriptions are sentences. */}
      <GoalTerms scenario={scenario} ch={ch} />
      <div className="challenge-actions">
        <button
          type="button"
          onClick={() => {
            actions.challengeStarted(ch.id);
          }}
        >
          {active ? 'Restart challenge' : 'Start challenge'}
        </button>
        {active && (
          <button
            type="button"
            onClick={() => {
              actions.challengeLeft();
            }}
          >
            Leave challenge
          </button>
        )}
        {ch.mode === 'impossible' && <SettleButton ch={ch} entry={entry} />}
        <HintButton scenario={scenario} ch={ch} />
      </div>
      {active && check && (
        <Attempt ch={ch} check={check} entry={entry} settled={record?.kind === 'settled'} />
      )}
      {ch.mode === 'impossible' && <SettleStatus ch={ch} entry={entry} />}
      <HintList scenario={scenario} ch={ch} />
    </article>
  );
}
