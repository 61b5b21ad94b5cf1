import { useEffect } from 'react';
import { OutcomeHistogram } from '../../charts/OutcomeHistogram.tsx';
import { paramsText } from '../../scenarios/params.ts';
import type { Bounds } from '../../store/exploreStore.ts';
import { stepStore, useStep } from '../step/useStep.ts';
import { exploreStore, useExplore } from './useExplore.ts';

const FIELDS: readonly [keyof Bounds, string][] = [
  ['irqs', 'IRQs'],
  ['nmis', 'NMIs'],
  ['preemptions', 'Preemptions'],
  ['migrations', 'Migrations'],
  ['switches', 'Switches'],
];

function describe(observables: Record<string, unknown>): string {
  return Object.entries(observables)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join(' ');
}

/** Explore: every interleaving of the current scenario within bounds, in a worker. */
export function ExplorePanel() {
  const session = useStep((s) => s.session);
  const bounds = useExplore((s) => s.bounds);
  const running = useExplore((s) => s.running);
  const progress = useExplore((s) => s.progress);
  const result = useExplore((s) => s.result);
  const request = useExplore((s) => s.request);
  const error = useExplore((s) => s.error);
  const sc = session.scenario;
  const params = paramsText(session.params, sc);
  const key = `${sc.id}?${JSON.stringify(params)}`;

  // A new scenario or new parameters: the scenario's own bounds, and no stale result.
  useEffect(() => {
    exploreStore.getState().boundsReset({ ...sc.bounds, switches: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for scenario + params
  }, [key]);

  const actions = exploreStore.getState();
  const rate = result ? Math.round((result.stats.states / Math.max(1, result.stats.ms)) * 1000) : 0;
  return (
    <section className="explore" aria-label="Explore">
      <h3>Explore every interleaving</h3>
      <p>
        Every reachable state of <code>{sc.id}</code> with these parameters, within the bounds
        below. Each outcome comes with its simplest witness (fewest interventions, then switches,
        then steps).
      </p>
      <div className="bounds">
        {FIELDS.map(([name, label]) => (
          <label key={name}>
            {label}
            <input
              type="number"
              min={0}
              max={name === 'switches' ? 1000 : 8}
              placeholder={name === 'switches' ? 'no bound' : undefined}
              value={bounds[name] ?? ''}
              onChange={(e) => {
                const v =
                  e.target.value === ''
                    ? null
                    : Math.max(0, Math.min(1000, Math.floor(Number(e.target.value))));
                if (name === 'switches') actions.boundsChanged({ switches: v });
                else actions.boundsChanged({ [name]: Math.min(8, v ?? 0) });
              }}
            />
          </label>
        ))}
        {running ? (
          <button
            type="button"
            onClick={() => {
              actions.cancelRequested();
            }}
          >
            Cancel
          </button>
        ) : (
          <button
            type="button"
            onClick={() => {
              actions.runRequested(sc.id, params);
            }}
          >
            Explore
          </button>
        )}
      </div>
      {/* Live progress is not announced (it changes many times a second); the outcome is. */}
      {running && progress && (
        <p className="explore-progress">
          Exploring… {progress.states.toLocaleString('en')} states,{' '}
          {progress.transitions.toLocaleString('en')} transitions
        </p>
      )}
      <p role="status" className="explore-status">
        {running
          ? 'Exploring.'
          : error
            ? error
            : result
              ? `${result.complete ? 'Done' : 'Stopped at the state limit'}: ${result.stats.states.toLocaleString('en')} states, ${result.stats.transitions.toLocaleString('en')} transitions in ${result.stats.ms} ms (${rate.toLocaleString('en')} states/s), ${result.outcomes.length} outcomes`
              : ''}
      </p>
      {result && request && (
        <>
          <OutcomeHistogram
            outcomes={result.outcomes.map((o) => ({
              label: describe(o.observables),
              count: o.states,
              bad: o.violations.length > 0,
            }))}
          />
          <ol className="outcomes" aria-label="Outcomes">
            {result.outcomes.map((o, i) => (
              <li key={o.witness + String(i)} className={o.violations.length ? 'bad' : undefined}>
                <span>
                  #{i + 1} {describe(o.observables)}
                  {o.violations.length > 0
                    ? ` ✗ ${o.violations.map((v) => v.id).join(', ')}`
                    : ' ✓'}
                  {` (${o.states} end state${o.states === 1 ? '' : 's'}; witness: ${o.witnessSteps} events, ${o.interventions} intervention${o.interventions === 1 ? '' : 's'})`}
                </span>{' '}
                <button
                  type="button"
                  onClick={() => {
                    stepStore.getState().scheduleLoaded(request.params, o.witness);
                  }}
                >
                  Replay #{i + 1} in Step mode
                </button>
              </li>
            ))}
          </ol>
          {result.livelocks.length > 0 && (
            <ul aria-label="Livelocks">
              {result.livelocks.map((l, i) => (
                <li key={l.witness + l.cycle}>
                  ✗ Livelock {i + 1}: a sum keeps running and never returns, with every CPU
                  scheduled.{' '}
                  <button
                    type="button"
                    onClick={() => {
                      stepStore
                        .getState()
                        .scheduleLoaded(request.params, `${l.witness} ${l.cycle} ${l.cycle}`);
                    }}
                  >
                    Replay livelock {i + 1} in Step mode (the cycle twice)
                  </button>
                </li>
              ))}
            </ul>
          )}
          {result.always.length > 0 && (
            <ul aria-label="Always-invariants broken">
              {result.always.map((a) => (
                <li key={a.id}>
                  ✗ {a.id}: {a.reason}{' '}
                  <button
                    type="button"
                    onClick={() => {
                      stepStore.getState().scheduleLoaded(request.params, a.witness);
                    }}
                  >
                    Replay {a.id} in Step mode
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
