import { type Challenge, challengeKey } from '../../lessons/index.ts';
import { challengeStore, useChallenge } from './useChallenge.ts';

function useShown(scenario: string, ch: Challenge): number {
  return useChallenge((s) => s.hints[challengeKey(scenario, ch.id)] ?? 0);
}

/** The hints revealed so far; a hint with a schedule can load it. */
export function HintList({ scenario, ch }: { scenario: string; ch: Challenge }) {
  const shown = useShown(scenario, ch);
  const actions = challengeStore.getState();
  if (shown === 0) return null;
  return (
    <ol aria-label="Hints" className="hints">
      {ch.hints.slice(0, shown).map((h, i) => (
        <li key={i}>
          {h.text}
          {h.schedule !== undefined && (
            <>
              {' '}
              <code>{h.schedule}</code>{' '}
              <button
                type="button"
                onClick={() => {
                  actions.hintTried(ch.id, i);
                }}
              >
                Try this schedule
              </button>
            </>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The next rung of the ladder of hints, revealed one at a time. */
export function HintButton({ scenario, ch }: { scenario: string; ch: Challenge }) {
  const shown = useShown(scenario, ch);
  const total = ch.hints.length;
  const all = shown >= total;
  if (total === 0) return null;
  return (
    <button
      type="button"
      aria-disabled={all}
      title={all ? `All ${total} hints are shown` : undefined}
      onClick={() => {
        if (!all) challengeStore.getState().hintRevealed(ch.id);
      }}
    >
      {all ? `All ${total} hints shown` : `Show a hint (${shown + 1} of ${total})`}
    </button>
  );
}
