import { useId } from 'react';
import type { CardData } from '../../charts/cards.ts';
import { groupBy } from '../groupBy.ts';
import { ScenarioCard } from './ScenarioCard.tsx';
import './catalogue.css';

/**
 * How many grid columns a group of n cards asks for: all of them up to four, else two rows'
 * worth. The groups share rows (a one-card group sits beside the next), so the catalogue is a
 * few screens tall; a group asking for more columns than the grid has takes a row of its own.
 */
export function columnsOf(n: number): number {
  return n <= 4 ? n : Math.min(4, Math.ceil(n / 2));
}

/**
 * The cards in course order (each lesson's "course" field), grouped: a group stands where its
 * first lesson does, its cards in the order they are taught, so the lecture numbers read up the
 * page. A card without a lecture keeps its catalogue place after those that have one.
 */
export function cardGroups(cards: readonly CardData[]) {
  const place = (c: CardData) => c.lecture?.number ?? Number.MAX_SAFE_INTEGER;
  return groupBy(
    [...cards].sort((a, b) => place(a) - place(b)),
    (card) => card.group,
  );
}

/** The scenario catalogue as cards, one grid section per group (the thread or era). */
export function ScenarioCards({ cards }: { cards: readonly CardData[] }) {
  const idPrefix = useId();
  return (
    <div className="catalogue">
      {cards.some((card) => card.reconstruction) && (
        <p className="cards-note">
          Scenarios marked <span className="badge">reconstruction</span> are rebuilt from prose
          descriptions, not from code: treat them as teaching models, not history.
        </p>
      )}
      <div className="card-groups">
        {cardGroups(cards).map(({ key, items }, index) => {
          const headingId = `${idPrefix}-group-${String(index)}`;
          return (
            <section
              key={key}
              className="card-group"
              aria-labelledby={headingId}
              data-cols={columnsOf(items.length)}
            >
              <h2 id={headingId}>{key}</h2>
              {/* role="list": Safari drops the list role from a list styled without bullets. */}
              <ul className="cards" role="list">
                {items.map((card) => (
                  <ScenarioCard key={card.id} card={card} />
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </div>
  );
}
