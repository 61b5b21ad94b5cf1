import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { Timeline } from '../../charts/Timeline.tsx';
import { fullLabHref } from '../embed.ts';
import { useMedia } from '../useMedia.ts';
import { Notice } from '../Notice.tsx';
import { editLink } from '../../store/editLink.ts';
import { linkOf, undoOf } from '../../store/stepStore.ts';
import { PROGRAM_ID } from '../../scenarios/program.ts';
import { paramsText } from '../../scenarios/params.ts';
import { isAxiomatic } from '../../scenarios/textScenario.ts';
import { Controls } from './Controls.tsx';
import { CpuLanes } from './CpuLanes.tsx';
import { InvariantBadges } from './InvariantBadges.tsx';
import { LastStep } from './LastStep.tsx';
import { ListingView } from './ListingView.tsx';
import { MemoryView } from './MemoryView.tsx';
import { NarrationLog } from './NarrationLog.tsx';
import { ResultsTable } from './ResultsTable.tsx';
import { Choosers, ParamsPanel } from './ScenarioChoice.tsx';
import { PanelButtons, type PanelName, SidePanel } from './SidePanel.tsx';
import { useStepKeys } from './useKeyboard.ts';
import { stepStore, useStep, useStepFields } from './useStep.ts';
import { classKept } from '../../store/roomKeys.ts';
import './stage.css';

// A class (its store, socket, QR code and chart) loads when one is started, or resumed after a
// reload: a plain Step link does not carry it.
const TeacherRoom = lazy(() =>
  import('../room/TeacherRoom.tsx').then((m) => ({ default: m.TeacherRoom })),
);

// The shortcut sheet opens on `?`: it loads then, not with every Step link.
const ShortcutSheet = lazy(() =>
  import('./ShortcutSheet.tsx').then((m) => ({ default: m.ShortcutSheet })),
);

// Panels built on the lessons load with them, on first opening (see App.tsx).
// Lazy, as the lessons it reads are: the first page does not load them.
const WitnessNote = lazy(() =>
  import('./WitnessNote.tsx').then((m) => ({ default: m.WitnessNote })),
);
// Loads with the challenge's store, only when a challenge is attempted.
const ChallengeOnStage = lazy(() =>
  import('../challenge/ChallengeOnStage.tsx').then((m) => ({ default: m.ChallengeOnStage })),
);
const LessonPanel = lazy(() =>
  import('./LessonPanel.tsx').then((m) => ({ default: m.LessonPanel })),
);
const ChallengePanel = lazy(() =>
  import('../challenge/ChallengePanel.tsx').then((m) => ({ default: m.ChallengePanel })),
);
// Explore (its store, its worker's bridge, the outcome chart) loads when the panel first opens.
const ExplorePanel = lazy(() =>
  import('../explore/ExplorePanel.tsx').then((m) => ({ default: m.ExplorePanel })),
);
// Under memory lkmm there is nothing to step: the stage shows execution graphs instead (their
// store, bridge and chart load with it).
const AxiomaticStage = lazy(() =>
  import('../axiomatic/AxiomaticStage.tsx').then((m) => ({ default: m.AxiomaticStage })),
);

/**
 * What each side panel holds; `explore`: the editor's "Explore it" asked for a run, so the
 * Explore panel starts one as it opens (once: `done` says it started).
 */
function panelContent(name: PanelName, explore: { now: boolean; done: () => void }) {
  switch (name) {
    case 'Parameters':
      return <ParamsPanel />;
    case 'Lesson':
      return <LessonPanel />;
    case 'Results':
      return <ResultsTable />;
    case 'Challenges':
      return <ChallengePanel />;
    case 'Explore':
      return <ExplorePanel runAtOnce={explore.now} onRunStarted={explore.done} />;
  }
}

/** A frame too small for the stage and its chrome side by side (a 640 × 480 <iframe>). */
const SMALL_FRAME = '(max-width: 800px), (max-height: 620px)';

/** The stage bar's controls: as they are, or (in a small frame) behind a Menu disclosure. */
function Chrome({ embedded: framed, children }: { embedded: boolean; children: ReactNode }) {
  const small = useMedia(SMALL_FRAME);
  if (!framed || !small) return <>{children}</>;
  return (
    <details className="embed-menu">
      <summary>Menu</summary>
      <div className="embed-menu-body">{children}</div>
    </details>
  );
}

function dismissNotice() {
  stepStore.getState().noticeDismissed();
}

/** The moment's timeline, compact, under the stage. */
function StageTimeline() {
  const session = useStep((s) => s.session);
  const steps = session.steps.map((s) => ({ cpu: s.cpu, kind: s.kind, text: s.text }));
  return (
    <Timeline
      steps={steps}
      cpus={session.instance.machine.cpus}
      cursor={session.cursor}
      onJump={(c) => {
        stepStore.getState().jumpRequested(c);
      }}
    />
  );
}

/**
 * Step mode: you are the scheduler. The stage (CPU lanes with their buttons, the listing with
 * the CPUs' cursors, memory with the slot bars, the last narration lines and the invariant
 * badges) fits a 1280 × 720 or 1024 × 768 screen without scrolling the page, so a class sees a
 * step's cause and effect at once; parameters, the lesson, results and Explore open beside it.
 */
export function StepScreen({
  embedded = false,
  lecture = false,
  linked = true,
  readOnly = false,
}: {
  /** In an <iframe> (?embed=1): a link to the full lab. */
  embedded?: boolean;
  /** Beside lecture slides: the slides own the URL and ←, → and Space. */
  lecture?: boolean;
  /** Whether the URL holds the moment shown (a student's page keeps its #/join link). */
  linked?: boolean;
  /** A student following the class: the teacher moves the stage. */
  readOnly?: boolean;
}) {
  const { session, notice, playing, speed, witness, challenge, requestedPanel, undo } =
    useStepFields(
      'session',
      'notice',
      'undo',
      'playing',
      'speed',
      'witness',
      'challenge',
      'requestedPanel',
    );
  const [help, setHelp] = useState(false);
  // Mounted from the first time it opens, and kept: its dialog then opens and closes as before.
  const [helpLoaded, setHelpLoaded] = useState(false);
  if (help && !helpLoaded) setHelpLoaded(true);
  // A link that names a challenge opens on it (and so loads the lessons that judge it).
  // Another screen may have asked for a panel (the editor's "Explore it").
  const [panel, setPanel] = useState<PanelName | null>(() =>
    !lecture && requestedPanel !== null
      ? (requestedPanel as PanelName)
      : !lecture && challenge
        ? 'Challenges'
        : null,
  );
  // "Explore it" means explore: one press, not a second one inside the panel.
  const [exploreNow, setExploreNow] = useState(() => !lecture && requestedPanel === 'Explore');
  const exploreDone = useCallback(() => {
    setExploreNow(false);
  }, []);
  const [large, setLarge] = useState(false);
  // A class this browser runs comes back with a reload.
  const canTeach = !embedded && !lecture && linked;
  const [teaching, setTeaching] = useState(() => canTeach && classKept());
  const stopTeaching = useCallback(() => {
    setTeaching(false);
  }, []);
  const undoable = undoOf({ undo, session });
  const undoChange = useCallback(() => {
    stepStore.getState().undoRequested();
  }, []);
  const openHelp = useCallback(() => {
    setHelp(true);
  }, []);
  const closePanel = useCallback(() => {
    setPanel(null);
  }, []);
  useStepKeys(openHelp, !lecture, !readOnly);
  // The request is taken.
  useEffect(() => {
    if (requestedPanel !== null) stepStore.getState().panelRequested(null);
  }, [requestedPanel]);

  // The URL always holds the moment shown, without adding history entries per step (in a
  // lecture it holds the slide instead).
  useEffect(() => {
    if (lecture || !linked) return;
    const hash = linkOf(session, challenge);
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }, [session, challenge, lecture, linked]);

  // Play: the seeded random scheduler, one event per tick.
  useEffect(() => {
    if (!playing) return;
    const t = setInterval(() => {
      stepStore.getState().playTicked();
    }, 1000 / speed);
    return () => {
      clearInterval(t);
    };
  }, [playing, speed]);

  const sc = session.scenario;
  return (
    <div
      className={`step-screen${large ? ' large' : ''}${panel ? ' with-panel' : ''}${teaching ? ' with-class' : ''}`}
      inert={readOnly}
    >
      <div className="stage-bar">
        <h2 title={sc.id === PROGRAM_ID ? sc.title : `${sc.title} (${sc.id})`}>
          {sc.title}{' '}
          {/* On a projector the title says it; the id, cut to "p…" beside it, would not. A typed
              program's title is its own name; `program` is only the route its links take. */}
          {sc.id !== PROGRAM_ID && <code className={large ? 'sr-only' : undefined}>{sc.id}</code>}
        </h2>
        {/* Framed (a course page's <iframe>), the stage's chrome folds into a menu so that the
            stage keeps the frame; the full lab is one link away. */}
        <Chrome embedded={embedded}>
          {!lecture && (
            // Keyed by what is open: choosing a scenario or loading a witness closes it.
            <details key={`${sc.id}|${witness ?? ''}`} className="choose popover">
              <summary>Scenario and witness</summary>
              <div className="popover-body">
                <Choosers />
              </div>
            </details>
          )}
          {!lecture && sc.text && (
            // Framed, the editor opens in a page of its own: a 640 × 480 frame has no room
            // for it, and the course page would lose the stage it embeds.
            <a
              className="edit-copy"
              href={
                embedded
                  ? fullLabHref(editLink(sc.text(session.params)))
                  : editLink(sc.text(session.params))
              }
              {...(embedded ? { target: '_blank', rel: 'noopener' } : {})}
              title="Opens this program's text in the editor, to change and run as your own"
            >
              {sc.id === PROGRAM_ID ? 'Edit it' : 'Edit a copy'}
            </a>
          )}
          <PanelButtons
            taught={sc.id !== PROGRAM_ID}
            open={panel}
            onToggle={(name) => {
              setPanel((p) => (p === name ? null : (name as PanelName)));
            }}
          />
          <button
            type="button"
            aria-pressed={large}
            title="Larger type for a projector at the back of a room"
            onClick={() => {
              setLarge((l) => !l);
            }}
          >
            Large
          </button>
          {canTeach && !teaching && (
            <button
              type="button"
              title="Students follow this stage on their phones and answer questions"
              onClick={() => {
                setTeaching(true);
              }}
            >
              Start a class
            </button>
          )}
        </Chrome>
        {embedded && (
          <a
            href={fullLabHref(linkOf(session, challenge))}
            target="_blank"
            rel="noopener"
            className="open-full"
          >
            Open in percpu-lab
          </a>
        )}
      </div>
      {notice && (
        <Notice action="Dismiss" onAction={dismissNotice}>
          {notice}
        </Notice>
      )}
      {undoable && (
        <Notice label="Parameter change" action="Undo" onAction={undoChange}>
          {undoable.what}
        </Notice>
      )}
      {isAxiomatic(session.params) ? (
        <Suspense fallback={<p>Loading…</p>}>
          <AxiomaticStage scenario={sc.id} params={paramsText(session.params, sc)} />
        </Suspense>
      ) : (
        <>
          <div className="control-row">
            <Controls lecture={lecture} />
            {!lecture && witness !== null && (
              <Suspense fallback={null}>
                <WitnessNote />
              </Suspense>
            )}
            {/* With its panel closed (a phone's sheet is closed to step), the attempt is judged
                on the stage, so the winning step says so where the student looks. */}
            {!lecture && challenge && panel !== 'Challenges' && (
              <Suspense fallback={null}>
                <ChallengeOnStage />
              </Suspense>
            )}
          </div>
          <LastStep />
          {/* The picture leads: lanes (the cause) at the left, the counter's chart and the
              invariants in the middle and widest, the listing, the narration and the timeline at
              the right. */}
          <div className="stage">
            <CpuLanes />
            <div className="stage-picture">
              <MemoryView />
              <InvariantBadges />
            </div>
            <div className="stage-side">
              <ListingView />
              <NarrationLog hidden={large} />
              <div className="stage-time">
                <StageTimeline />
                <p className="hint">
                  Press <kbd>?</kbd> for keyboard shortcuts.
                </p>
              </div>
            </div>
          </div>
        </>
      )}
      {panel && (
        <SidePanel name={panel} onClose={closePanel}>
          <Suspense fallback={<p>Loading…</p>}>
            {panelContent(panel, { now: exploreNow, done: exploreDone })}
          </Suspense>
        </SidePanel>
      )}
      {teaching && (
        <Suspense fallback={null}>
          <TeacherRoom onClose={stopTeaching} />
        </Suspense>
      )}
      {helpLoaded && (
        <Suspense fallback={null}>
          <ShortcutSheet
            lecture={lecture}
            open={help}
            onClose={() => {
              setHelp(false);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
