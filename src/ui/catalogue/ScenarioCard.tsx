import { Fragment } from 'react';
import { CardCourse } from '../lecture/CourseList.tsx';
import type { CardData } from '../../charts/cards.ts';
import { ScenarioPreview } from './ScenarioPreview.tsx';

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
export function ScenarioCard({ card }: { card: CardData }) {
  const { id } = card;
  return (
    <li className="card">
      <h3 className="card-title">{breakable(card.title)}</h3>
      <p className="card-id">
        <code>{id}</code>
        {card.reconstruction && <span className="badge">reconstruction</span>}
      </p>
      <div className="card-body">
        <ScenarioPreview preview={card.preview} />
        <p className="card-summary" title={card.summary}>
          {card.summary}
        </p>
      </div>
      <p className="card-source" title={card.source}>
        Source: {card.source}
      </p>
      <CardCourse card={card} />
      <p className="card-links">
        <a className="card-step" href={`#/step/${id}`} aria-label={`Open ${id} in Step mode`}>
          Step mode
        </a>
        {card.live && (
          <a className="card-live" href={`#/live/${id}`} aria-label={`Run ${id} live`}>
            Live
          </a>
        )}
      </p>
    </li>
  );
}
