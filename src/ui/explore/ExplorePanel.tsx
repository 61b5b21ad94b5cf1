import { lazy, Suspense, useEffect, useMemo } from 'react';
import { OutcomeHistogram } from '../../charts/OutcomeHistogram.tsx';
import type { OutcomeJson } from '../../explore/json.ts';
import { brokenIn, presetToExplore, unshown } from '../../explore/teach.ts';
import { paramsText } from '../../scenarios/params.ts';
import { isAxiomatic, memoryOf } from '../../scenarios/textScenario.ts';
import { violationWithReason } from '../../scenarios/judge.ts';
import { shownName } from '../../scenarios/program.ts';
import { observablesLine, shownObservables } from '../../scenarios/outcome.ts';
import type { BoundsJson } from '../../explore/json.ts';
import type { RunOptions } from '../../store/exploreStore.ts';
import { MemoryModelField } from '../MemoryModelField.tsx';
import { stepStore, useStep } from '../step/useStep.ts';
import { ExploreOrCancel } from './ExploreOrCancel.tsx';
import { exploreStore, useExplore } from './useExplore.ts';
import { count } from '../../machine/count.ts';
// The language's limit on each kind of intervention: the same range as #pragma lab bounds.
import { LIMITS } from '../../lang/module.ts';
import { herdCountsHint, MB, statusOf } from './status.ts';

const REDUCTIONS: readonly ['symmetry' | 'por', string][] = [
  ['symmetry', 'Symmetry reduction'],
  ['por', 'Partial-order reduction'],
] satisfies readonly [keyof RunOptions, string][];

const FIELDS: readonly [keyof BoundsJson, string][] = [
  ['irqs', 'IRQs'],
  ['nmis', 'NMIs'],
  ['preemptions', 'Preemptions'],
  ['migrations', 'Migrations'],
  // Only a program that can take CPUs offline (DEADk() callbacks) has this bound.
  ['hotplugs', 'CPU hotplug events'],
  ['switches', 'Switches'],
];

/**
 * An outcome's violations: final ones by id, ones broken on the way with the event, each with
 * the value it judged (which the observables may not show).
 */
function violationsText(o: OutcomeJson): string {
  return o.violations.map(violationWithReason).join('; ');
}

// Under memory lkmm the axiomatic engine answers instead; it loads with the first such answer.
const AxiomaticExplore = lazy(() =>
  import('../axiomatic/AxiomaticExplore.tsx').then((m) => ({ default: m.AxiomaticExplore })),
);

/**
 * Explore: the explorer under sc and tso; under lkmm, the kernel's memory model answers.
 * `runAtOnce`: start a run as the panel opens (the editor's "Explore it"), then say so with
 * `onRunStarted`.
 */
export function ExplorePanel({
  runAtOnce = false,
  onRunStarted,
}: {
  runAtOnce?: boolean;
  onRunStarted?: () => void;
} = {}) {
  const session = useStep((s) => s.session);
  const sc = session.scenario;
  const axiomatic = isAxiomatic(session.params);
  // The model is chosen here as well as in Parameters: it decides which engine answers.
  const memory = sc.params.some((q) => q.name === 'memory') ? String(session.params.memory) : null;
  return (
    <>
      {memory !== null && (
        <div className="row explore-memory">
          <MemoryModelField
            value={memory}
            onPick={(m) => {
              stepStore.getState().paramChanged('memory', m);
            }}
          />
        </div>
      )}
      {axiomatic ? (
        <Suspense fallback={<p>Loading…</p>}>
          <AxiomaticExplore
            scenario={sc.id}
            params={paramsText(session.params, sc)}
            runAtOnce={runAtOnce}
            onRunStarted={onRunStarted}
          />
        </Suspense>
      ) : (
        <MachineExplore runAtOnce={runAtOnce} onRunStarted={onRunStarted} />
      )}
    </>
  );
}

/** The model a machine answer is under, as the page names it. */
function machineModel(params: Readonly<Record<string, string>>): string {
  return memoryOf(params) === 'tso' ? 'tso' : 'sc';
}

/** Every interleaving of the current scenario within bounds, in a worker. */
function MachineExplore({
  runAtOnce,
  onRunStarted,
}: {
  runAtOnce: boolean;
  onRunStarted: (() => void) | undefined;
}) {
  const session = useStep((s) => s.session);
  const bounds = useExplore((s) => s.bounds);
  const running = useExplore((s) => s.running);
  const progress = useExplore((s) => s.progress);
  const result = useExplore((s) => s.result);
  const request = useExplore((s) => s.request);
  const error = useExplore((s) => s.error);
  const options = useExplore((s) => s.options);
  const maxWorkers = useExplore((s) => s.maxWorkers);
  const sc = session.scenario;
  const params = paramsText(session.params, sc);
  const key = `${sc.id}?${JSON.stringify(params)}`;
  // A result is cleared when the scenario or its parameters change: these are the result's.
  const describe = (o: Readonly<Record<string, unknown>>) =>
    observablesLine(shownObservables(sc, session.params, o));

  // A new scenario or new parameters: the scenario's own bounds, and no stale result. The same
  // ones again (the panel reopened after another): the result stays.
  useEffect(() => {
    exploreStore.getState().subjectOpened(key, { ...sc.bounds, switches: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for scenario + params
  }, [key]);
  // After the bounds above are the scenario's own: the run uses them.
  useEffect(() => {
    if (!runAtOnce) return;
    onRunStarted?.();
    exploreStore.getState().runRequested(sc.id, params);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when asked
  }, [runAtOnce]);

  const actions = exploreStore.getState();
  // What the variant gives up that this answer never shows broken, and the preset that would.
  const missing =
    result && result.stopped === null ? unshown(sc, session.params, brokenIn(result)) : null;
  // Said before a run too, where the catalogue knows these parameters are too small (once per
  // parameter set: the panel re-renders with every progress report).
  const suggested = useMemo(() => presetToExplore(sc, session.params), [sc, session.params]);
  return (
    <section className="explore" aria-label="Explore">
      <h3>Explore every interleaving</h3>
      <p>
        Every reachable state of <code>{shownName(sc)}</code> with these parameters, within the
        bounds below. Each outcome comes with its simplest witness (fewest interventions, then
        switches, then steps).
      </p>
      {memoryOf(session.params) === 'tso' && (
        <p className="hint" aria-label="What TSO shows">
          Under <code>memory tso</code> each CPU&rsquo;s stores wait in its store buffer, and a
          flush is a choice like a step, so a witness may hold a store back. x86-TSO shows what{' '}
          <code>smp_mb()</code> is for; it cannot show what <code>smp_wmb()</code>,{' '}
          <code>smp_rmb()</code>, acquire and release are for (message passing, load buffering),
          which the kernel&rsquo;s memory model and Arm allow: choose <code>lkmm</code> for those.
        </p>
      )}
      <div className="bounds">
        {FIELDS.filter(([name]) => name !== 'hotplugs' || bounds.hotplugs !== undefined).map(
          ([name, label]) => (
            <label key={name}>
              {label}
              <input
                type="number"
                min={0}
                max={name === 'switches' ? 1000 : LIMITS.bound}
                placeholder={name === 'switches' ? 'no bound' : undefined}
                value={bounds[name] ?? ''}
                onChange={(e) => {
                  const v =
                    e.target.value === ''
                      ? null
                      : Math.max(0, Math.min(1000, Math.floor(Number(e.target.value))));
                  if (name === 'switches') actions.boundsChanged({ switches: v });
                  else actions.boundsChanged({ [name]: Math.min(LIMITS.bound, v ?? 0) });
                }}
              />
            </label>
          ),
        )}
        <label>
          Memory limit (MB)
          <input
            type="number"
            min={16}
            max={16384}
            value={options.maxMemoryMB}
            onChange={(e) => {
              const v = Math.floor(Number(e.target.value));
              if (Number.isFinite(v))
                actions.optionsChanged({ maxMemoryMB: Math.max(16, Math.min(16384, v)) });
            }}
          />
        </label>
        {maxWorkers > 1 && (
          <label>
            Workers
            <select
              value={options.workers}
              onChange={(e) => {
                actions.optionsChanged({ workers: Number(e.target.value) });
              }}
            >
              {Array.from({ length: maxWorkers }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n === 1 ? '1 (one thread)' : String(n)}
                </option>
              ))}
            </select>
          </label>
        )}
        {REDUCTIONS.map(([name, label]) => (
          <label key={name}>
            <input
              type="checkbox"
              checked={options[name]}
              onChange={(e) => {
                actions.optionsChanged({ [name]: e.target.checked });
              }}
            />
            {label}
          </label>
        ))}
        <ExploreOrCancel
          running={running}
          onExplore={() => {
            actions.runRequested(sc.id, params);
          }}
          onCancel={() => {
            actions.cancelRequested();
          }}
        />
      </div>
      {!result && suggested && (
        <p className="explore-teach notice">
          With these parameters Explore cannot show what {shownName(sc)} gives up (
          {suggested.invariants.join(', ')}): the preset <q>{suggested.name}</q> can (
          {suggested.description}).{' '}
          <button
            type="button"
            onClick={() => {
              stepStore.getState().presetApplied(suggested.name);
            }}
          >
            Use preset {suggested.name}
          </button>
        </p>
      )}
      {/* Live progress is not announced (it changes many times a second); the outcome is. */}
      {running && progress && (
        <p className="explore-progress">
          Exploring… {progress.states.toLocaleString('en')} states (
          {Math.round(progress.states / Math.max(0.001, progress.ms / 1000)).toLocaleString('en')}{' '}
          states/s), {progress.transitions.toLocaleString('en')} transitions, depth {progress.depth}
          , {Math.round(progress.bytes / MB)} MB of {options.maxMemoryMB} MB
        </p>
      )}
      <p role="status" className="explore-status">
        {running
          ? 'Exploring.'
          : error
            ? error
            : result
              ? statusOf(
                  result,
                  request?.maxMemoryMB ?? options.maxMemoryMB,
                  memoryOf(request?.params ?? {}),
                )
              : ''}
      </p>
      {missing && missing.invariants.length > 0 && (
        <p className="explore-teach">
          This variant gives up {missing.invariants.join(', ')}, but no schedule within these bounds
          breaks it with these parameters.{' '}
          {missing.preset && (
            <>
              The preset <q>{missing.preset.name}</q> does: {missing.preset.description}.{' '}
              <button
                type="button"
                onClick={() => {
                  if (missing.preset) stepStore.getState().presetApplied(missing.preset.name);
                }}
              >
                Use preset {missing.preset.name}
              </button>
            </>
          )}
        </p>
      )}
      {result?.herd && (
        <section aria-label="herd7's verdict" className="herd">
          {/* The model leads: the same test says Never under sc and Sometimes under lkmm. */}
          <h3>
            Under {machineModel(request?.params ?? {})}: {result.herd.observation}
          </h3>
          <p>
            herd7&rsquo;s verdict: {result.herd.ok ? 'Ok' : 'No'}. The kernel&rsquo;s own model may
            answer otherwise: choose <code>lkmm</code> above.
          </p>
          <pre tabIndex={0}>{result.herd.text}</pre>
          <p className="hint">
            {herdCountsHint(memoryOf(request?.params ?? {}), result.herd.counts)}
          </p>
        </section>
      )}
      {result && request && (
        <>
          <OutcomeHistogram
            outcomes={result.outcomes.map((o) => ({
              label: describe(o.observables),
              count: o.states,
              broken: o.violations.map((v) => v.id),
            }))}
          />
          <ol className="outcomes" aria-label="Outcomes">
            {result.outcomes.map((o, i) => (
              <li key={o.witness + String(i)} className={o.violations.length ? 'bad' : undefined}>
                <span>
                  #{i + 1} {describe(o.observables)}
                  {o.violations.length > 0 ? ` ✗ ${violationsText(o)}` : ' ✓'}
                  {` (${count(o.states, 'end state')}; witness: ${count(o.witnessSteps, 'event')}, ${count(o.interventions, 'intervention')})`}
                  {result.onlyUnderTso?.[i] === true && (
                    <strong className="only-tso"> only under TSO: it needs a store buffer</strong>
                  )}
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
