import { lazy, Suspense, useEffect, useState } from 'react';
import { embedded, fullLabHref } from './embed.ts';
import { parseLectureLink } from '../store/lectureLink.ts';
import { ThemeSwitch } from './theme/ThemeSwitch.tsx';
import { BrandMark } from './theme/BrandMark.tsx';

// What loads when. This module holds only the page's frame (the header, the modes' links, the
// theme); each screen is a chunk of its own, loaded with the first link that shows it, so a page
// downloads the screen it opens on and nothing else (the README's "Run it" says what that
// weighs). The screens share the pure core (the language, the machine, the catalogue), which
// the first screen brings; Step mode brings only the catalogue entries it opens.

/**
 * A module loaded on first use. `give` hands it something at once if it has loaded, else as soon
 * as it has, in the order asked: callbacks on one promise run in the order they were added.
 */
function onFirstUse<M>(load: () => Promise<M>) {
  let loaded: M | null = null;
  let loading: Promise<M> | null = null;
  const get = (): Promise<M> => (loading ??= load().then((m) => (loaded = m)));
  return {
    get,
    give(take: (m: M) => void): void {
      if (loaded) take(loaded);
      else void get().then(take);
    },
  };
}

// The stores a link is handed to (see openLink): Step mode's (stores.ts), with the catalogue
// entry the link opens (Step mode loads entries one at a time: scenarios/load.ts), and Live and
// Scaling's together (cpuStores.ts: their screens, stores, the CPU bridge and the live engine's
// page side).
const stepStores = onFirstUse(async () => {
  const stores = await import('./stores.ts');
  await stores.linkedEntryLoaded(location.hash);
  return stores;
});
const cpuStores = onFirstUse(() => import('./cpuStores.ts'));

// A screen whose stores take links resolves only after they have loaded, and so after openLink
// (called before the screen first renders) has handed them the link: the screen's first render
// shows that link, never the store's default.
const StepScreen = lazy(() =>
  stepStores
    .get()
    .then(() => import('./step/StepScreen.tsx'))
    .then((m) => ({ default: m.StepScreen })),
);
const LiveScreen = lazy(() =>
  cpuStores
    .get()
    .then(() => import('./live/LiveScreen.tsx'))
    .then((m) => ({ default: m.LiveScreen })),
);
const ScalingScreen = lazy(() =>
  cpuStores
    .get()
    .then(() => import('./scaling/ScalingScreen.tsx'))
    .then((m) => ({ default: m.ScalingScreen })),
);
// The catalogue: the cards, their previews, the course line (which loads the lessons after it).
const HomeScreen = lazy(() =>
  import('./catalogue/HomeScreen.tsx').then((m) => ({ default: m.HomeScreen })),
);
// The lessons (slides, questions, challenges: about 100 KB of text) load only when a screen shows
// them, so a Step or Live link starts without them.
const LectureScreen = lazy(() =>
  import('./lecture/LectureScreen.tsx').then((m) => ({ default: m.LectureScreen })),
);
// A student's page (#/join): the room's store and socket with Step mode's stores and screen.
const JoinScreen = lazy(() =>
  stepStores
    .get()
    .then(() => import('./room/JoinScreen.tsx'))
    .then((m) => ({ default: m.JoinScreen })),
);
// The editor (CodeMirror, the examples, the herd7 exporter) loads when it is opened.
const EditScreen = lazy(() =>
  import('./edit/EditScreen.tsx').then((m) => ({ default: m.EditScreen })),
);

type Mode = 'home' | 'edit' | 'step' | 'live' | 'scaling' | 'lecture' | 'join';

/** A hash no mode owns (`#/garbage/route`): the home page says so instead of ignoring it. */
function unknownRoute(hash: string): boolean {
  return (
    !/^(#\/?)?$/.test(hash) && !/^#\/(edit|step|live|scaling|lecture|join)(\/|\?|$)/.test(hash)
  );
}

function modeOf(hash: string): Mode {
  if (hash.startsWith('#/edit')) return 'edit';
  if (hash.startsWith('#/step')) return 'step';
  if (hash.startsWith('#/live')) return 'live';
  if (hash.startsWith('#/scaling')) return 'scaling';
  if (hash.startsWith('#/lecture')) return 'lecture';
  if (hash.startsWith('#/join')) return 'join';
  return 'home';
}

/**
 * Hands a link to the store of its mode. The stores load on first use: a link is handed over as
 * soon as its store has loaded, before its screen's first render (see above).
 */
function openLink(hash: string): Mode {
  const mode = modeOf(hash);
  if (mode === 'step') {
    stepStores.give(({ stepStore }) => {
      stepStore.getState().linkOpened(hash);
    });
  }
  if (mode === 'live') {
    cpuStores.give(({ liveStore }) => {
      liveStore.getState().linkOpened(hash);
    });
  }
  if (mode === 'scaling') {
    cpuStores.give(({ scalingStore }) => {
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
        {mode === 'step' ? (
          <Suspense fallback={<p>Loading Step mode…</p>}>
            <StepScreen embedded />
          </Suspense>
        ) : (
          <EmbedOnlyStep />
        )}
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
      <main className={mode === 'home' || mode === 'join' ? undefined : 'wide'}>
        {mode === 'edit' && (
          <Suspense fallback={<p>Loading the editor…</p>}>
            <EditScreen hash={hash} />
          </Suspense>
        )}
        {mode === 'step' && (
          <Suspense fallback={<p>Loading Step mode…</p>}>
            <StepScreen />
          </Suspense>
        )}
        {mode === 'join' && (
          <Suspense fallback={<p>Loading the class…</p>}>
            <JoinScreen hash={hash} />
          </Suspense>
        )}
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
          <Suspense fallback={<p>Loading the catalogue…</p>}>
            <HomeScreen />
          </Suspense>
        )}
      </main>
    </>
  );
}
