import { cpuColour } from '../../charts/palette.ts';
import { useEffect, useMemo } from 'react';
import { ErrorBand } from '../../charts/ErrorBand.tsx';
import { RateBars } from '../../charts/RateBars.tsx';
import { SlotBars } from '../../charts/SlotBars.tsx';
import { Sparkline } from '../../charts/Sparkline.tsx';
import { ratesOf } from '../../charts/sparkline.ts';
import { relevantCounts } from '../../live/readout.ts';
import { liveCounter } from '../../live/counter.ts';
import { liveSpecOf } from '../../live/specs.ts';
import { runRates } from '../../live/verdict.ts';
import { findScenario, openProgramText } from '../../scenarios/index.ts';
import { PROGRAM_ID, shownName } from '../../scenarios/program.ts';
import { stepHref } from '../../store/stepStore.ts';
import { formatLiveLink } from '../../store/liveLinkFormat.ts';
import { defaultCpus } from '../../live/specs.ts';
import { defaultSettings, runBusy } from '../../store/liveStore.ts';
import { IsolationStatus } from '../IsolationStatus.tsx';
import { FinalReport } from './FinalReport.tsx';
import { RunControls } from '../RunControls.tsx';
import { LiveRates } from './LiveRates.tsx';
import { LiveSetup } from './LiveSetup.tsx';
import { LiveTotals } from './LiveTotals.tsx';
import { LockstepPanel } from './LockstepPanel.tsx';
import { RaiseControls } from './RaiseControls.tsx';
import { RecentEvents } from './RecentEvents.tsx';
import { ScalingLink } from './ScalingLink.tsx';
import { ScenarioIntro } from './ScenarioIntro.tsx';
import { StoreBufferTest } from './StoreBufferTest.tsx';
import { liveStore, useLive, useLiveFields } from './useLive.ts';
import { useLiveReading, WINDOW_SECONDS } from './useLiveReading.ts';
import { CORES } from '../cores.ts';

/** Live mode: the scenario's programs on real workers, racing on shared memory. */
export function LiveScreen() {
  const isolated = window.crossOriginIsolated;
  const { scenario, cpus, choices, settings, offered, engine } = useLiveFields(
    'scenario',
    'cpus',
    'choices',
    'settings',
    'offered',
    'engine',
  );
  const sc = findScenario(scenario);

  // The URL always holds the run's set-up, so a copied link opens the same experiment.
  useEffect(() => {
    const changed = Object.fromEntries(
      Object.entries(settings).filter(
        ([name, v]) => defaultSettings[name as keyof typeof defaultSettings] !== v,
      ),
    );
    const hash = formatLiveLink({
      scenario,
      cpus: cpus === defaultCpus(CORES) ? null : cpus,
      choices,
      settings: changed,
      engine,
      replay: offered,
      program: scenario === PROGRAM_ID ? openProgramText() : null,
    });
    // Only while this page is the one shown: a Back pressed as the page settles has already
    // moved the address to another page's entry, which must not be overwritten with this link.
    if (location.hash.startsWith('#/live/') && location.hash !== hash)
      history.replaceState(null, '', hash);
  }, [scenario, cpus, choices, settings, engine, offered]);

  return (
    <div className="live-screen">
      <h2>
        Live: {sc?.title}{' '}
        {/* A typed program's title is its name already; `program` is only its route. */}
        {scenario !== PROGRAM_ID && <code>{scenario}</code>}
      </h2>
      {isolated ? (
        <LiveBody />
      ) : (
        <>
          <IsolationStatus isolated={false} />
          <p>
            Live mode is off on this page. <a href={stepHref(scenario)}>Step mode</a> and Explore
            work without it.
          </p>
        </>
      )}
    </div>
  );
}

function LiveBody() {
  const { scenario, phase, message, paramError, run, final, offered } = useLiveFields(
    'scenario',
    'phase',
    'message',
    'paramError',
    'run',
    'final',
    'offered',
  );
  const { reading, history } = useLiveReading(run, phase);
  const ran = run !== null || final !== null;
  const cores = CORES;
  const sc = findScenario(scenario);
  const name = sc ? shownName(sc) : scenario;
  const spec = liveSpecOf(scenario);
  const actions = liveStore.getState();
  const running = phase === 'running';
  const replaying = useLive((s) => s.lockstep.busy);
  // A lockstep replay and a run never overlap: each has its own workers.
  const busy = runBusy(phase) || replaying;
  const shown = final?.reading ?? reading;
  const relevant = useMemo(() => (run ? relevantCounts(run.machine) : null), [run]);
  // What the program declares its counter to be: the charts' deltas, read() and its band.
  const counter = useMemo(
    () => (run && sc ? liveCounter(sc, run.params, run.machine) : null),
    [run, sc],
  );
  const readName = counter?.read ? `${counter.read.name}()` : 'read()';
  const local = counter?.limit === 'threshold';

  // A page left while the CPUs run would leave workers spinning: stop them.
  useEffect(
    () => () => {
      liveStore.getState().resetRequested();
    },
    [],
  );

  if (!spec) {
    return (
      <>
        {sc && <ScenarioIntro scenario={sc} />}
        <LiveSetup key={scenario} cores={cores} />
        <p>
          {name} does not run free on the workers: its outcome is one particular interleaving, not a
          count that grows as the tasks repeat. Its witnesses still run on real workers in lockstep
          below.
        </p>
        <LockstepPanel key={`${scenario}:${offered?.schedule ?? ''}`} />
        <StoreBufferTest />
        <p>
          <a href={stepHref(scenario)}>Open {name} in Step mode</a>.
        </p>
      </>
    );
  }

  const setup = (
    <div className="live-top">
      <LiveSetup key={scenario} cores={cores} />
      <LiveRates />
    </div>
  );
  return (
    <>
      {sc && <ScenarioIntro scenario={sc} />}
      {/* Before a run the set-up comes first; once the CPUs have run, what they did leads and
          the set-up follows (its interference still changes a run in progress). */}
      {ran ? null : setup}
      <RunControls
        label="Run controls"
        actions={actions}
        buttons={[
          { label: 'Run', disabled: busy || paramError !== null, action: 'runRequested' },
          { label: 'Stop', disabled: !running, action: 'stopRequested' },
          { label: 'Reset', disabled: busy, action: 'resetRequested' },
        ]}
      >
        {running && run && <RaiseControls machine={run.machine} actions={actions} />}
      </RunControls>
      <p role="status" aria-label="Run status" className="live-message">
        {message}
      </p>
      {shown && (
        <section className="live-charts" aria-label="Live charts">
          {shown.slots && (
            <figure>
              <figcaption>
                {local ? 'Per-CPU local counts with ±threshold' : 'Per-CPU deltas with ±batch'}
              </figcaption>
              <SlotBars
                label={`Per-CPU ${counter?.deltasLabel ?? ''}`}
                values={shown.slots}
                batch={shown.batch}
                thresholdName={counter?.limit ?? 'batch'}
                colour={cpuColour}
              />
            </figure>
          )}
          {(shown.read || shown.sum) && (
            <figure>
              <figcaption>
                Error against the exact total: <span className="key-read">{readName}</span>
                {shown.sum && (
                  <>
                    {' '}
                    and <span className="key-sum">{counter?.sum ?? 'sum'}()</span>
                  </>
                )}
                {counter?.read?.boundText && `, band ±(${counter.read.boundText})`}
              </figcaption>
              <ErrorBand
                read={history.readError}
                sum={history.sumError}
                bound={shown.read?.bound ?? null}
                windowSeconds={WINDOW_SECONDS}
              />
            </figure>
          )}
          <div className="sparklines">
            {(
              [
                ['Adds', history.adds, true],
                ['Folds', history.folds, relevant?.folds],
                ['Sequence bumps', history.bumps, relevant?.bumps],
                ['Sum retries', history.retries, relevant?.retries],
              ] as const
            )
              .filter(([, , shown]) => shown)
              .map(([label, counts]) => (
                <Sparkline
                  key={label}
                  label={label}
                  unit="/s"
                  points={ratesOf(counts)}
                  windowSeconds={WINDOW_SECONDS}
                />
              ))}
          </div>
          {/* While running, the last moment's rates; once stopped, the run's averages, the same
              figures as the Per CPU table: a last frame shown as the result would mislead. */}
          <figure>
            <figcaption>
              {final
                ? 'Operations per second, per CPU: the average over the whole run'
                : 'Operations per second, per CPU, now'}
            </figcaption>
            <RateBars
              label={final ? 'Average operations per second' : 'Operations per second now'}
              values={final ? runRates(final.reading) : history.perCpu}
              colour={cpuColour}
            />
          </figure>
          {relevant && (
            <LiveTotals
              reading={shown}
              atRest={final?.terminal ?? false}
              relevant={relevant}
              readName={readName}
              sumName={`${counter?.sum ?? 'sum'}()`}
            />
          )}
          <RecentEvents notes={history.notes} scenario={scenario} />
        </section>
      )}
      {ran ? setup : null}
      {final && <FinalReport report={final} scenario={scenario} locks={relevant?.spins ?? false} />}
      <LockstepPanel key={`${scenario}:${offered?.schedule ?? ''}`} />
      <StoreBufferTest />
      <p>
        <a href={stepHref(scenario)}>Open {name} in Step mode</a> to take the same programs one
        instruction at a time.
      </p>
      <ScalingLink scenario={scenario} cores={cores} />
    </>
  );
}
