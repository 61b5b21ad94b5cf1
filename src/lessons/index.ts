// The classroom's pure layer: lessons and challenges as data, and the logic the UI
// needs to use them. No React, DOM, d3, comlink or zustand here (ESLint's pure-core rule).
//
//   types.ts        Slide, Prediction, SourceRef, Challenge, Hint, ScenarioLesson
//   goal.ts         the goal language of challenges, judged on a finished run
//   catalogue/      one lesson per scenario as JSON, the sources, and the schema they load through
//   slide.ts        where a slide puts the stage (parameters and schedule prefix)
//   verdict.ts      a run's observables and broken invariants, judged as Explore judges them
//   challenge.ts    goalReached, and checkAttempt for a student's schedule
//   score.ts        scoring in Explore's order: interventions, switches, steps
//   stats.ts        challengeStats: end states that reach the goal, and the simplest solution
//   course.ts       the course order, global-plain to percpu-modern
//   progress.ts     the versioned progress record kept in localStorage, and its parser

export type { Goal, Range } from './goal.ts';
export { describeGoal, goalMet, goalNames } from './goal.ts';
export type {
  Challenge,
  ChallengeMode,
  ExpectedObservables,
  Hint,
  Prediction,
  ScenarioLesson,
  Slide,
  SourceRef,
} from './types.ts';
export { findLesson, lessons } from './catalogue/index.ts';
export { slideStage, type SlideStage } from './slide.ts';
export { runVerdict, type RunVerdict } from './verdict.ts';
export { type AttemptVerdict, challengeParams, checkAttempt, goalReached } from './challenge.ts';
export { compareScores, type Distance, distanceFrom, score, type Score } from './score.ts';
export { type ChallengeStats, challengeStats } from './stats.ts';
export { courseOrder, nextInCourse, previousInCourse } from './course.ts';
// The progress record's whole interface: the stores keep it, the panels show it.
export * from './progress.ts';
