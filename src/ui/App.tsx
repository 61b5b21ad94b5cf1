import { lazy, Suspense, useEffect, useState } from 'react';
import { catalogue } from '../scenarios/index.ts';
import { IsolationStatus } from './IsolationStatus.tsx';
import { embedded, fullLabHref } from './embed.ts';
import { parseLectureLink } from '../store/lectureLink.ts';
import { ScenarioCards } from './catalogue/ScenarioCards.tsx';
import { StepScreen } from './step/StepScreen.tsx';
import { stepStore } from './step/useStep.ts';
import { ThemeSwitch } from './theme/ThemeSwitch.tsx';
import { BrandMark } from './theme/BrandMark.tsx';

// The lessons (slides, questions, challenges: about 100 KB of text) load only when a screen shows
// them, so a Step or Live link starts without them.
const LectureScreen = lazy(() =>
  import('./lecture/LectureScreen.tsx').then((m) => ({ default: m.LectureScreen })),
);
// The editor (CodeMirror, the examples, the herd7 exporter) loads when it is opened.
const EditScreen = lazy(() =>
  import('./edit/EditScreen.tsx').then((m) => ({ default: m.EditScreen })),
);
const CourseList = lazy(() =>
  import('./lecture/CourseList.tsx').then((m) => ({ default: m.CourseList })),
);

// Live and Scaling (their screens, their stores, the CPU bridge and the live engine's page side)
// load with the first link to either; see openLink for how that link reaches its store.
type CpuStores = typeof import('./cpuStores.ts');
let cpuStoresLoaded: CpuStores | null = null;
let cpuStoresLoading: Promise<CpuStores> | null = null;

/** The Live and Scaling stores, loaded once. */
function loadCpuStores(): Promise<CpuStores> {
  cpuStoresLoading ??= import('./cpuStores.ts').then((m) => (cpuStoresLoaded = m));
  return cpuStoresLoading;
}

/** Runs `give` with the Live and Scaling stores: at once if they are loaded, else once they are. */
function withCpuStores(give: (stores: CpuStores) => void): void {
  if (cpuStoresLoaded) give(cpuStoresLoaded);
  else void loadCpuStores().then(give);
}

// A screen's chunk resolves only after its stores have loaded, and so (callbacks on one promise
// run in the order they were added) after openLink, called before the screen first renders, has
// handed them the link: the screen's first render shows that link, never the store's default.
const LiveScreen = lazy(() =>
  loadCpuStores()
    .then(() => import('./live/LiveScreen.tsx'))
    .then((m) => ({ default: m.LiveScreen })),
);
const ScalingScreen = lazy(() =>
  loadCpuStores()
    .then(() => import('./scaling/ScalingScreen.tsx'))
    .then((m) => ({ default: m.ScalingScreen })),
);

type Mode = 'home' | 'edit' | 'step' | 'live' | 'scaling' | 'lecture';

/** A hash no mode owns (`#/garbage/route`): the home page says so instead of ignoring it. */
function unknownRoute(hash: string): boolean {
  return !/^(#\/?)?$/.test(hash) && !/^#\/(edit|step|live|scaling|lecture)(\/|\?|$)/.test(hash);
}

function modeOf(hash: string): Mode {
  if (hash.startsWith('#/edit')) return 'edit';
  if (hash.startsWith('#/step')) return 'step';
  if (hash.startsWith('#/live')) return 'live';
  if (hash.startsWith('#/scaling')) return 'scaling';
  if (hash.startsWith('#/lecture')) return 'lecture';
  return 'home';
}

/**
 * Hands a link to the store of its mode. Live and Scaling's stores load on first use: their link
 * is handed over as soon as they have loaded, before their screen's first render (see above).
 */
function openLink(hash: string): Mode {
  const mode = modeOf(hash);
  if (mode === 'step') stepStore.getState().linkOpened(hash);
  if (mode === 'live') {
    withCpuStores(({ liveStore }) => {
      liveStore.getState().linkOpened(hash);
    });
  }
  if (mode === 'scaling') {
    withCpuStores(({ scalingStore }) => {
      scalingStore.getState().linkOpened(hash);
    });
  }
  return mode;
}

/** What an embed shows for a link to another mode: where the full lab is. */
function EmbedOnlyStep() {
  return (
    <p role="alert" className="notice">
      Embedded, the lab shows Step mode and Explore only: Live mode and the Scaling view need a page
      of their own.{' '}
      <a href={fullLabHref()} target="_blank" rel="noopener">
        Open this link in percpu-lab
      </a>
    </p>
  );
}

/** Home (the catalogue), Step mode, Live mode or the Scaling view, chosen by the URL hash. */
export function App() {
  // The link the page was opened with is read before the first render: Step mode then writes
  // the hash back as the user steps, and must not overwrite it first.
  const [mode, setMode] = useState<Mode>(() => openLink(location.hash));
  // Lecture mode reads its slide from the hash, which changes within the mode.
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    // A link typed, pasted or followed later: open exactly that moment (or say why not).
    const open = () => {
      setMode(openLink(location.hash));
      setHash(location.hash);
    };
    window.addEventListener('hashchange', open);
    return () => {
      window.removeEventListener('hashchange', open);
    };
  }, []);
  if (mode === 'lecture') {
    const link = parseLectureLink(hash);
    return (
      <main className="lecture-main">
        <Suspense fallback={<p>Loading the lesson…</p>}>
          <LectureScreen link={link} />
        </Suspense>
      </main>
    );
  }
  if (embedded) {
    return (
      <main className="wide embedded">
        {mode === 'step' ? <StepScreen embedded /> : <EmbedOnlyStep />}
      </main>
    );
  }
  return (
    <>
      <header className="page-header">
        <h1>
          <a href="#">
            <BrandMark />
            percpu-lab
          </a>
        </h1>
        <nav aria-label="Modes">
          <a href="#" aria-current={mode === 'home' ? 'page' : undefined}>
            Catalogue
          </a>{' '}
          <a href="#/edit" aria-current={mode === 'edit' ? 'page' : undefined}>
            Your program
          </a>{' '}
          <a href="#/step/global-plain" aria-current={mode === 'step' ? 'page' : undefined}>
            Step mode
          </a>{' '}
          <a href="#/live/global-plain" aria-current={mode === 'live' ? 'page' : undefined}>
            Live mode
          </a>{' '}
          <a href="#/scaling" aria-current={mode === 'scaling' ? 'page' : undefined}>
            Scaling
          </a>
        </nav>
        <ThemeSwitch />
        {mode === 'home' && (
          <p className="intro">
            A lab for the Linux kernel&rsquo;s per-CPU counters. Step through a race one instruction
            at a time, explore every interleaving within bounds, and run the same programs on real
            cores, to see why <code>percpu_counter</code> exists and how batching, folding, sequence
            counters and sum retries keep it fast and correct.
          </p>
        )}
      </header>
      <main className={mode === 'home' ? undefined : 'wide'}>
        {mode === 'edit' && (
          <Suspense fallback={<p>Loading the editor…</p>}>
            <EditScreen hash={hash} />
          </Suspense>
        )}
        {mode === 'step' && <StepScreen />}
        {mode === 'live' && (
          <Suspense fallback={<p>Loading Live mode…</p>}>
            <LiveScreen />
          </Suspense>
        )}
        {mode === 'scaling' && (
          <Suspense fallback={<p>Loading the Scaling view…</p>}>
            <ScalingScreen />
          </Suspense>
        )}
        {mode === 'home' && unknownRoute(hash) && (
          <p role="alert" className="notice">
            There is no page at &lsquo;{hash}&rsquo;; here is the catalogue.
          </p>
        )}
        {mode === 'home' && (
          <>
            {/* Fixed for the page's lifetime: the headers it was served with decide it. */}
            <IsolationStatus isolated={window.crossOriginIsolated} />
            <Suspense fallback={<p>Loading the course…</p>}>
              <CourseList />
            </Suspense>
            <ScenarioCards scenarios={catalogue} />
          </>
        )}
      </main>
    </>
  );
}
