import { Fragment, lazy, Suspense } from 'react';
import { liveSpecOf } from '../../live/specs.ts';
import type { Scenario } from '../../scenarios/index.ts';
import { ScenarioPreview } from './ScenarioPreview.tsx';
import { usePreview } from './usePreview.ts';

// The lessons (about 100 KB) load after the page: the card's course line comes with them.
const CardCourse = lazy(() =>
  import('../lecture/CourseList.tsx').then((m) => ({ default: m.CardCourse })),
);

/**
 * A title whose identifiers too long for a card's line (percpu_counter_add_batch: more than 22
 * characters) may break after an underscore rather than anywhere.
 */
function breakable(text: string) {
  return text.split(/(?<=\s)/).map((word, w) =>
    word.length <= 22 ? (
      word
    ) : (
      <Fragment key={w}>
        {word.split(/(?<=_)/).map((part, i) => (
          <Fragment key={i}>
            {i > 0 && <wbr />}
            {part}
          </Fragment>
        ))}
      </Fragment>
    ),
  );
}

/**
 * One catalogue card: title, id, the picture at the end of the first witness, what it shows
 * (clamped; the whole text is in the page, and shows on keyboard focus), where it comes from,
 * its lecture in the course with how far this browser got, and its links. The Step link covers the card, so the card is one click target; the Live link
 * stays a target of its own.
 */
export function ScenarioCard({ scenario }: { scenario: Scenario }) {
  const preview = usePreview(scenario);
  const { id } = scenario;
  return (
    <li className="card">
      <h3 className="card-title">{breakable(scenario.title)}</h3>
      <p className="card-id">
        <code>{id}</code>
        {scenario.reconstruction && <span className="badge">reconstruction</span>}
      </p>
      <div className="card-body">
        <ScenarioPreview preview={preview} />
        <p className="card-summary" title={scenario.summary}>
          {scenario.summary}
        </p>
      </div>
      <p className="card-source" title={scenario.source}>
        Source: {scenario.source}
      </p>
      <Suspense fallback={<p className="card-course">&nbsp;</p>}>
        <CardCourse id={id} />
      </Suspense>
      <p className="card-links">
        <a className="card-step" href={`#/step/${id}`} aria-label={`Open ${id} in Step mode`}>
          Step mode
        </a>
        {liveSpecOf(id) && (
          <a className="card-live" href={`#/live/${id}`} aria-label={`Run ${id} live`}>
            Live
          </a>
        )}
      </p>
    </li>
  );
}
