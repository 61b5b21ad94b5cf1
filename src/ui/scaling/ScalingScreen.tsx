import { useEffect } from 'react';
import { probeText } from '../../live/probe.ts';
import { secondsLeft } from '../../store/scalingStore.ts';
import { formatScalingLink } from '../../store/scalingLink.ts';
import { IsolationStatus } from '../IsolationStatus.tsx';
import { ScalingResults } from './ScalingResults.tsx';
import { RunControls } from '../RunControls.tsx';
import { ScalingSetup } from './ScalingSetup.tsx';
import { ScalingFit } from './ScalingFit.tsx';
import { scalingStore, useScaling, useScalingFields } from './useScaling.ts';
import { CORES } from '../cores.ts';
import { sweepFit } from '../../live/scaling/fit.ts';

/** The Scaling view: throughput against CPUs, measured on this machine's cores. */
export function ScalingScreen() {
  const isolated = window.crossOriginIsolated;
  const cores = CORES;
  const plan = useScaling((s) => s.plan);

  // The URL holds the plan, so a copied link reopens the same sweep.
  useEffect(() => {
    const hash = formatScalingLink(plan, cores);
    // Only while this page is shown: after a quick Back the address is another page's.
    if (location.hash.startsWith('#/scaling') && location.hash !== hash)
      history.replaceState(null, '', hash);
  }, [plan, cores]);

  return (
    <div className="scaling-screen">
      <h2>Scaling: why per-CPU counters exist</h2>
      <p className="summary">
        Every design in this lab exists for speed. In 2006 <code>atomic_inc(&amp;nr_files)</code>{' '}
        made one cache line bounce between every CPU that opened a file; in 2011 Eric
        Dumazet&rsquo;s per-CPU counter series took an mmap benchmark on 8 CPUs from 3 min 22 s to
        23 s. Here the same programs as in Step and Live mode, compiled, run on this machine&rsquo;s
        cores: each algorithm with 1, 2, … CPUs adding as fast as they can.
      </p>
      <p className="hint">
        A yardstick outside the lab: <code>global-atomic</code> and <code>percpu-classic</code>{' '}
        written directly in C (<code>bench/native/counters.c</code> in the repository).{' '}
        <code>npm run bench:native</code> builds and runs it on this machine, and{' '}
        <code>npm run bench -- --native</code> runs it beside this sweep and prints C ÷ lab.
      </p>
      {isolated ? (
        <ScalingBody cores={cores} />
      ) : (
        <>
          <IsolationStatus isolated={false} />
          <p>The Scaling view is off on this page; Step mode and Explore work without it.</p>
        </>
      )}
    </div>
  );
}

function ScalingBody({ cores }: { cores: number }) {
  const { phase, message, progress, results, report, probe, planError, checkingLoad, load } =
    useScalingFields(
      'phase',
      'message',
      'progress',
      'results',
      'report',
      'probe',
      'planError',
      'checkingLoad',
      'load',
    );
  const actions = scalingStore.getState();
  const running = phase === 'running';
  // Leaving the view cancels a sweep: its workers would otherwise go on racing unseen.
  useEffect(
    () => () => {
      scalingStore.getState().cancelRequested();
    },
    [],
  );
  const total = progress?.total ?? 0;
  const done = progress?.done ?? 0;
  return (
    <>
      <ScalingSetup cores={cores} />
      <RunControls
        label="Sweep controls"
        actions={actions}
        buttons={[
          {
            label: 'Run sweep',
            disabled: running || checkingLoad || planError !== null,
            action: 'runRequested',
          },
          { label: 'Cancel', disabled: !running && !checkingLoad, action: 'cancelRequested' },
        ]}
      />
      <p role="status" aria-label="Sweep status" className="live-message">
        {message}
      </p>
      {running && progress && (
        <div className="sweep-progress">
          <progress
            aria-label="Sweep progress"
            max={Math.max(1, total)}
            value={done}
            aria-valuetext={`${String(done)} of ${String(total)} runs`}
          />{' '}
          <span>
            {done} of {total || '…'} runs, about {Math.ceil(secondsLeft(progress))} s left
          </span>
        </div>
      )}
      {probe && <p className={probe.seen === null ? 'notice' : 'hint'}>{probeText(probe)}</p>}
      <ScalingFit cores={cores} />
      {results.length > 0 && (
        <ScalingResults
          results={results}
          report={report}
          probe={probe}
          cores={cores}
          cannotShow={!running && sweepFit(results, cores, load).cannotShow}
        />
      )}
    </>
  );
}
