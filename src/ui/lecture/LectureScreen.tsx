import { useEffect, useRef } from 'react';
import { isStageKey, spaceIsFree } from '../keys.ts';
import { PredictReveal } from '../PredictReveal.tsx';
import { findLesson, slideStage } from '../../lessons/index.ts';
import { paramsText } from '../../scenarios/params.ts';
import { findScenario } from '../../scenarios/index.ts';
import { formatSchedule } from '../../machine/schedule.ts';
import { lectureLink, type LectureLink, slideOf } from '../../store/lectureLink.ts';
import { linkOf } from '../../store/stepStore.ts';
import type { Session } from '../../store/session.ts';
import { axiomaticStore } from '../axiomatic/useAxiomatic.ts';
import { StepScreen } from '../step/StepScreen.tsx';
import { stepStore, useStep } from '../step/useStep.ts';
import { progressStore } from '../useProgress.ts';
import './lecture.css';

/**
 * Lecture mode: a lesson's slides beside the stage, one at a time. PageDown, Space and → go on,
 * PageUp and ← go back, Escape leaves for Step mode at the moment shown; each slide has its own
 * link, and a slide with a schedule puts the stage where its text speaks of.
 */
export function LectureScreen({ link }: { link: LectureLink | null }) {
  const scenario = link?.scenario ?? '';
  const lesson = findLesson(scenario);
  const sc = findScenario(scenario);
  const slides = lesson?.slides ?? [];
  const { slide: n, problem } = link ? slideOf(link, slides.length) : { slide: 1, problem: null };

  // A bad slide part: the address becomes the slide shown, and the notice says what happened.
  useEffect(() => {
    if (problem && lesson) history.replaceState(null, '', lectureLink(scenario, n));
  }, [problem, lesson, scenario, n]);
  const current = slides[n - 1];
  const count = slides.length;

  const opened = useRef<Session | null>(null);
  const momentSchedule = link?.moment?.schedule;
  const momentAt = link?.moment?.at;
  // The stage follows the slide: its parameters, and the state its schedule prefix ends in, or
  // the moment the link was copied at (a teacher's "slide 3 at this moment").
  useEffect(() => {
    if (!sc || !current) return;
    const store = stepStore.getState();
    if (store.session.scenario.id !== sc.id) store.scenarioChosen(sc.id);
    const stage = slideStage(sc, current);
    if (momentSchedule !== undefined && momentAt !== undefined) {
      store.scheduleLoaded(paramsText(stage.params, sc), momentSchedule);
      stepStore.getState().jumpRequested(momentAt);
    } else if (current.at !== undefined || current.params !== undefined) {
      store.scheduleLoaded(paramsText(stage.params, sc), formatSchedule(stage.events));
      stepStore.getState().jumpRequested(stage.events.length);
    }
    // A slide on the kernel's memory model draws an execution ending where its text says.
    axiomaticStore.getState().endStateWanted(current.graph ?? null);
    // The slide's own moment: what a slide with no schedule of its own opened on.
    if (momentSchedule === undefined) opened.current = stepStore.getState().session;
    progressStore.getState().slideSeen(sc.id, n - 1, n === slides.length);
  }, [sc, current, n, slides.length, momentSchedule, momentAt]);

  // The address holds the slide, and the moment when the teacher has stepped away from the
  // slide's own: Copy link then gives "this slide, at this moment".
  const session = useStep((s) => s.session);
  useEffect(() => {
    if (!sc || !current || session.scenario.id !== sc.id) return;
    const own = opened.current;
    const schedule = formatSchedule(session.events);
    const same =
      own !== null && schedule === formatSchedule(own.events) && session.cursor === own.cursor;
    const hash = lectureLink(scenario, n, same ? undefined : { schedule, at: session.cursor });
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }, [session, sc, current, scenario, n]);

  useEffect(() => {
    const go = (to: number) => {
      if (to >= 1 && to <= count) location.hash = lectureLink(scenario, to);
    };
    const onKey = (e: KeyboardEvent) => {
      // Shift+arrows step the stage in time (useStepKeys), not the slides.
      if (!isStageKey(e) || e.shiftKey) return;
      if (e.key === 'PageDown' || e.key === 'ArrowRight' || spaceIsFree(e)) {
        go(n + 1);
      } else if (e.key === 'PageUp' || e.key === 'ArrowLeft') {
        go(n - 1);
      } else if (e.key === 'Escape' && !document.getElementById('side-panel')) {
        location.hash = linkOf(stepStore.getState().session);
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [count, n, scenario]);

  if (!sc || !lesson || !current) {
    return (
      <p role="alert" className="notice">
        {scenario === '' ? (
          'This lecture link names no lesson.'
        ) : (
          <>There is no lesson &lsquo;{scenario}&rsquo;.</>
        )}{' '}
        <a href="#">Choose one from the course</a>.
      </p>
    );
  }
  return (
    <div className="lecture">
      {problem && (
        <p role="status" className="notice lecture-problem">
          Part of this link was ignored: {problem}.
        </p>
      )}
      {/* The slide scrolls in its column above its buttons: a long slide (a question, its answer)
          is read to its end by scrolling, never under the buttons, and the buttons stay in view. */}
      <div className="slide-column">
        <article className="slide" aria-label={`Slide ${n} of ${slides.length}`}>
          <p className="slide-count">
            {sc.title} · slide {n} of {slides.length}
          </p>
          <h2>{current.title}</h2>
          <p className="slide-text">{current.text}</p>
          {current.predict && (
            <PredictReveal
              key={n}
              p={current.predict}
              heading={<p className="predict-head">Predict:</p>}
            />
          )}
          <details className="sources">
            <summary>Sources</summary>
            <ul>
              {lesson.sources.map((s) => (
                <li key={s.ref}>
                  {s.title} <code>{s.ref}</code>
                </li>
              ))}
            </ul>
          </details>
        </article>
        <nav className="slide-nav" aria-label="Slides">
          <button
            type="button"
            aria-keyshortcuts="PageUp ArrowLeft"
            aria-disabled={n === 1}
            onClick={() => {
              if (n > 1) location.hash = lectureLink(scenario, n - 1);
            }}
          >
            Previous slide
          </button>
          <button
            type="button"
            aria-keyshortcuts="PageDown ArrowRight Space"
            aria-disabled={n === count}
            onClick={() => {
              if (n < count) location.hash = lectureLink(scenario, n + 1);
            }}
          >
            Next slide
          </button>
          <button
            type="button"
            onClick={() => {
              // Refused outside a user gesture or in some frames: the slides work either way.
              document.documentElement.requestFullscreen().catch(() => undefined);
            }}
          >
            Full screen
          </button>
          <button
            type="button"
            aria-keyshortcuts="Escape"
            onClick={() => {
              location.hash = linkOf(stepStore.getState().session);
            }}
          >
            Leave the lecture
          </button>
        </nav>
      </div>
      <StepScreen lecture />
    </div>
  );
}
