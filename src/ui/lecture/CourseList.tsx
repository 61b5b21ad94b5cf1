import type { Progress } from '../../lessons/progress.ts';
import { lectureLink } from '../../store/lectureLink.ts';
import { ProgressProblem } from '../challenge/ProgressProblem.tsx';
import { ResetProgress } from '../challenge/ResetProgress.tsx';
import type { CardData } from '../../charts/cards.ts';
import { useProgress } from '../useProgress.ts';
import { courseState } from './courseState.ts';
import './course.css';

type Lecture = NonNullable<CardData['lecture']>;

/** Where this browser got in the lecture of scenario `id`: the slide to open, and in words. */
function lessonState(id: string, lecture: Lecture, progress: Progress) {
  const seen = progress.lessons[id];
  const solved = lecture.challenges.filter(
    (c) => progress.challenges[`${id}/${c}`] !== undefined,
  ).length;
  const at = Math.min((seen?.slide ?? 0) + 1, lecture.slides);
  return {
    href: lectureLink(id, seen?.done ? 1 : at),
    started: seen !== undefined,
    done: seen?.done === true,
    state: courseState(lecture.slides, seen, lecture.challenges.length, solved),
  };
}

/**
 * The course in a line above the catalogue: its lectures in order, from nr_files++ to today's
 * percpu_counter, where to go on (a lecture left half way, else the first not done) and the
 * progress kept in this browser. Each lecture's own state is on its card (CardCourse). Reads
 * the cards' lecture data (src/charts/cards.ts), not the lessons, which the home page does not load.
 */
export function CourseList({
  cards,
  course,
}: {
  cards: readonly CardData[];
  course: readonly string[];
}) {
  const progress = useProgress((s) => s.progress);
  const states = course.flatMap((id) => {
    const card = cards.find((c) => c.id === id);
    return card?.lecture ? [{ card, s: lessonState(id, card.lecture, progress) }] : [];
  });
  const next =
    states.find((x) => x.s.started && !x.s.done) ?? states.find((x) => !x.s.done) ?? states[0];
  const keys = new Set(
    cards.flatMap((c) => (c.lecture?.challenges ?? []).map((ch) => `${c.id}/${ch}`)),
  );
  return (
    <section className="course" aria-label="Course">
      <h2>The course</h2>
      <ProgressProblem />
      <p className="course-line">
        {course.length} lectures, each a scenario below (its card says which and how far you got),
        in order from <code>nr_files++</code> in 2006 to today&rsquo;s <code>percpu_counter</code>.{' '}
        {next?.card.lecture && (
          <a className="course-next" href={next.s.href}>
            {next.s.started ? 'Continue' : 'Start'} with lecture {next.card.lecture.number}:{' '}
            {next.card.title}
          </a>
        )}
      </p>
      <ResetProgress keys={keys} />
    </section>
  );
}

/** A card's line of the course: its lecture's number, how far this browser got, its link. */
export function CardCourse({ card }: { card: CardData }) {
  const progress = useProgress((s) => s.progress);
  if (!card.lecture) return null;
  const { href, state } = lessonState(card.id, card.lecture, progress);
  return (
    <p className="card-course">
      <a
        className="card-lecture"
        href={href}
        aria-label={`Lecture ${String(card.lecture.number)}: ${card.id}`}
      >
        Lecture {card.lecture.number}
      </a>{' '}
      <span className="course-state">{state}</span>
    </p>
  );
}
