import {
  courseOrder,
  findLesson,
  type Progress,
  type ScenarioLesson,
} from '../../lessons/index.ts';
import { findScenario } from '../../scenarios/index.ts';
import { lectureLink } from '../../store/lectureLink.ts';
import { ProgressProblem } from '../challenge/ProgressProblem.tsx';
import { ResetProgress } from '../challenge/ResetProgress.tsx';
import { useProgress } from '../useProgress.ts';
import { courseState } from './courseState.ts';
import './course.css';

/** Where this browser got in lesson `id`: the slide to open and the words for it. */
function lessonState(id: string, lesson: ScenarioLesson, progress: Progress) {
  const seen = progress.lessons[id];
  const solved = lesson.challenges.filter(
    (c) => progress.challenges[`${id}/${c.id}`] !== undefined,
  ).length;
  const at = Math.min((seen?.slide ?? 0) + 1, lesson.slides.length);
  return {
    href: lectureLink(id, seen?.done ? 1 : at),
    started: seen !== undefined,
    done: seen?.done === true,
    state: courseState(lesson.slides.length, seen, lesson.challenges.length, solved),
  };
}

/**
 * The course in a line above the catalogue: its lectures in order, from nr_files++ to today's
 * percpu_counter, where to go on (a lecture left half way, else the first not done) and the
 * progress kept in this browser. Each lecture's own state is on its card (CardCourse).
 */
export function CourseList() {
  const progress = useProgress((s) => s.progress);
  // Go on where a lecture was left half way, else with the first one not done.
  const states = courseOrder.map((id) => {
    const lesson = findLesson(id);
    return { id, s: lesson ? lessonState(id, lesson, progress) : null };
  });
  const next = (
    states.find((x) => x.s?.started === true && !x.s.done) ??
    states.find((x) => x.s?.done === false) ??
    states[0]
  )?.id;
  const lesson = next === undefined ? undefined : findLesson(next);
  const sc = next === undefined ? undefined : findScenario(next);
  const go = next && lesson ? lessonState(next, lesson, progress) : null;
  return (
    <section className="course" aria-label="Course">
      <h2>The course</h2>
      <ProgressProblem />
      <p className="course-line">
        {courseOrder.length} lectures, each a scenario below (its card says which and how far you
        got), in order from <code>nr_files++</code> in 2006 to today&rsquo;s{' '}
        <code>percpu_counter</code>.{' '}
        {go && sc && (
          <a className="course-next" href={go.href}>
            {go.started ? 'Continue' : 'Start'} with lecture {courseOrder.indexOf(next ?? '') + 1}:{' '}
            {sc.title}
          </a>
        )}
      </p>
      <ResetProgress />
    </section>
  );
}

/** A card's line of the course: its lecture's number, how far this browser got, its link. */
export function CardCourse({ id }: { id: string }) {
  const progress = useProgress((s) => s.progress);
  const lesson = findLesson(id);
  const n = courseOrder.indexOf(id);
  if (!lesson || n < 0) return null;
  const { href, state } = lessonState(id, lesson, progress);
  return (
    <p className="card-course">
      <a className="card-lecture" href={href} aria-label={`Lecture ${String(n + 1)}: ${id}`}>
        Lecture {n + 1}
      </a>{' '}
      <span className="course-state">{state}</span>
    </p>
  );
}
