import { courseOrder, findLesson } from '../../lessons/index.ts';
import { findScenario } from '../../scenarios/index.ts';
import { lectureLink } from '../../store/lectureLink.ts';
import { ProgressProblem } from '../challenge/ProgressProblem.tsx';
import { ResetProgress } from '../challenge/ResetProgress.tsx';
import { useProgress } from '../useProgress.ts';
import { courseState } from './courseState.ts';
import './course.css';

/**
 * The course, in order from nr_files++ to today's percpu_counter: each lesson with how far this
 * browser got (slides seen, challenges solved) and a link to its lecture, where it was left.
 */
export function CourseList() {
  const progress = useProgress((s) => s.progress);
  return (
    <section className="course" aria-label="Course">
      <h2>The course</h2>
      <ProgressProblem />
      <ol>
        {courseOrder.map((id) => {
          const sc = findScenario(id);
          const lesson = findLesson(id);
          if (!sc || !lesson) return null;
          const seen = progress.lessons[id];
          const solved = lesson.challenges.filter(
            (c) => progress.challenges[`${id}/${c.id}`] !== undefined,
          ).length;
          const at = Math.min((seen?.slide ?? 0) + 1, lesson.slides.length);
          const state = courseState(lesson.slides.length, seen, lesson.challenges.length, solved);
          return (
            <li key={id}>
              <a href={lectureLink(id, seen?.done ? 1 : at)}>{sc.title}</a>{' '}
              <span className="course-state">({state})</span>
            </li>
          );
        })}
      </ol>
      <ResetProgress />
    </section>
  );
}
