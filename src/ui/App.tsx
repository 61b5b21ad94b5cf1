import { useEffect, useState } from 'react';
import { catalogue } from '../scenarios/index.ts';
import { IsolationStatus } from './IsolationStatus.tsx';
import { ScenarioList } from './ScenarioList.tsx';
import { StepScreen } from './step/StepScreen.tsx';
import { stepStore } from './step/useStep.ts';

function inStepMode(): boolean {
  return location.hash.startsWith('#/step');
}

/** Home (the catalogue) or Step mode, chosen by the URL hash. */
export function App() {
  // The link the page was opened with is read before the first render: Step mode then writes
  // the hash back as the user steps, and must not overwrite it first.
  const [step, setStep] = useState(() => {
    if (inStepMode()) stepStore.getState().linkOpened(location.hash);
    return inStepMode();
  });
  useEffect(() => {
    // A link typed, pasted or followed later: open exactly that moment (or say why not).
    const open = () => {
      setStep(inStepMode());
      if (inStepMode()) stepStore.getState().linkOpened(location.hash);
    };
    window.addEventListener('hashchange', open);
    return () => {
      window.removeEventListener('hashchange', open);
    };
  }, []);
  return (
    <>
      <header className="page-header">
        <h1>
          <a href="#">percpu-lab</a>
        </h1>
        <nav aria-label="Modes">
          <a href="#" aria-current={step ? undefined : 'page'}>
            Catalogue
          </a>{' '}
          <a href="#/step/global-plain" aria-current={step ? 'page' : undefined}>
            Step mode
          </a>
        </nav>
        {!step && (
          <p className="intro">
            A lab for the Linux kernel&rsquo;s per-CPU counters. Step through a race one instruction
            at a time, explore every interleaving within bounds, and run the same programs on real
            cores, to see why <code>percpu_counter</code> exists and how batching, folding, sequence
            counters and sum retries keep it fast and correct.
          </p>
        )}
      </header>
      <main className={step ? 'wide' : undefined}>
        {step ? (
          <StepScreen />
        ) : (
          <>
            {/* Fixed for the page's lifetime: the headers it was served with decide it. */}
            <IsolationStatus isolated={window.crossOriginIsolated} />
            <ScenarioList scenarios={catalogue} />
          </>
        )}
      </main>
    </>
  );
}
