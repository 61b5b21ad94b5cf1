import { useId } from 'react';
import {
  type Fit,
  loadCheckText,
  planFit,
  remedies,
  SIDE_BY_SIDE,
  sweepFit,
} from '../../live/scaling/fit.ts';
import { scalingStore, useScalingFields } from './useScaling.ts';

/**
 * Can this sweep show scaling here? Before a sweep, from the plan, the cores and the load check;
 * after it, from what it measured. Says why not, and what would.
 */
export function ScalingFit({ cores }: { cores: number }) {
  const id = useId();
  const { plan, phase, results, load, checkingLoad } = useScalingFields(
    'plan',
    'phase',
    'results',
    'load',
    'checkingLoad',
  );
  const after = results.length > 0 && phase !== 'running';
  const fit: Fit = after ? sweepFit(results, cores, load) : planFit(plan, cores, load);
  const offered = remedies(fit);
  const counts = fit.withinCores.join(',');
  const offerCounts =
    !after && fit.oversubscribed.length > 0 && fit.withinCores.length >= 2 && cores >= 2;
  const busy = phase === 'running' || checkingLoad;
  const title = after
    ? 'Can this sweep show scaling?'
    : 'Before a sweep: can this machine show scaling?';
  return (
    <section
      className={fit.cannotShow ? 'scaling-fit notice' : 'scaling-fit hint'}
      aria-labelledby={`${id}-h`}
    >
      <h3 id={`${id}-h`}>{title}</h3>
      <p>
        <strong>{verdict(fit, after)}</strong> This machine has {cores}{' '}
        {cores === 1 ? 'core' : 'cores'} (as the browser reports them)
        {load === null
          ? '; the load has not been checked yet (every sweep checks it first).'
          : load.share < SIDE_BY_SIDE
            ? `; the load check ran at ${new Date(load.at).toLocaleTimeString('en-GB')} (below).`
            : `; the load check (${new Date(load.at).toLocaleTimeString('en-GB')}): ${loadCheckText(load)}.`}
      </p>
      {fit.reasons.length > 0 && (
        <ul aria-label="Why">
          {fit.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      {offered.length > 0 && (
        <>
          <p>What would show scaling:</p>
          <ul aria-label="What would show scaling">
            {offered.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </>
      )}
      <p>
        {offerCounts && (
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              scalingStore.getState().cpusTyped(counts);
            }}
          >
            Use CPU counts {counts}
          </button>
        )}{' '}
        <button
          type="button"
          disabled={busy || cores < 2}
          onClick={() => {
            void scalingStore.getState().loadCheckRequested();
          }}
        >
          Check the load
        </button>{' '}
        <span className="hint">
          about 2 s: a per-CPU counter on one CPU, then on every core at once
        </span>
      </p>
    </section>
  );
}

/** The answer in one sentence. */
function verdict(fit: Fit, after: boolean): string {
  if (fit.cannotShow)
    return after
      ? 'No: on this machine, this sweep cannot show how the counters scale.'
      : 'Not on this machine as it is now: a sweep here cannot show how the counters scale.';
  if (fit.reasons.length > 0) return 'Only within the limits below.';
  return after
    ? 'Yes: nothing in what it measured says otherwise.'
    : 'Yes, as far as the cores and the load show.';
}
