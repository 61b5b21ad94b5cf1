import { catalogue } from '../scenarios/index.ts';
import { IsolationStatus } from './IsolationStatus.tsx';
import { ScenarioList } from './ScenarioList.tsx';

/** The first page: what the lab is, whether Live/Bench can run here, and the scenario catalogue. */
export function App() {
  return (
    <>
      <header className="page-header">
        <h1>percpu-lab</h1>
        <p className="intro">
          A lab for the Linux kernel&rsquo;s per-CPU counters. Step through a race one instruction
          at a time, explore every interleaving within bounds, and run the same programs on real
          cores, to see why <code>percpu_counter</code> exists and how batching, folding, sequence
          counters and sum retries keep it fast and correct.
        </p>
      </header>
      <main>
        {/* Fixed for the page's lifetime: the headers it was served with decide it. */}
        <IsolationStatus isolated={window.crossOriginIsolated} />
        <ScenarioList scenarios={catalogue} />
      </main>
    </>
  );
}
