// What the home page shows of each scenario, computed when the app is built (by the plugin in
// deploy/catalogueCards.ts) rather than in the browser: a card's preview comes from compiling
// the scenario and replaying its first witness, which takes the whole pure core (the language,
// the machine, the scenarios) and the lessons. Precomputed, the home page is its cards and
// its frame, and the core loads with the first screen that runs a scenario. Pure: no React, no
// DOM; the build runs it in Node, and a test compares it with what the page would compute.

import { computePreview, previewLayout, previewText, type PreviewLayout } from './preview.ts';
import { courseOrder, findLesson } from '../lessons/index.ts';
import { liveSpecOf } from '../live/specs.ts';
import { catalogue } from '../scenarios/index.ts';

export interface CardData {
  readonly id: string;
  readonly title: string;
  /** The mailing-list thread or era it belongs to. */
  readonly group: string;
  readonly summary: string;
  readonly source: string;
  readonly reconstruction: boolean;
  /** It runs in Live mode. */
  readonly live: boolean;
  /** The picture at the end of its first witness, laid out, and that picture in words. */
  readonly preview: { readonly text: string; readonly layout: PreviewLayout };
  /** Its lecture: number in the course, slides, and its challenges' ids. */
  readonly lecture: {
    readonly number: number;
    readonly slides: number;
    readonly challenges: readonly string[];
  } | null;
}

export interface CatalogueCards {
  /** In catalogue order. */
  readonly cards: readonly CardData[];
  /** Scenario ids in course order. */
  readonly course: readonly string[];
}

export function catalogueCards(): CatalogueCards {
  const cards = catalogue.map((sc): CardData => {
    const preview = computePreview(sc);
    const lesson = findLesson(sc.id);
    const n = courseOrder.indexOf(sc.id);
    return {
      id: sc.id,
      title: sc.title,
      group: sc.group,
      summary: sc.summary,
      source: sc.source,
      reconstruction: sc.reconstruction,
      live: liveSpecOf(sc.id) !== undefined,
      preview: { text: previewText(preview), layout: previewLayout(preview.picture) },
      lecture:
        lesson && n >= 0
          ? {
              number: n + 1,
              slides: lesson.slides.length,
              challenges: lesson.challenges.map((c) => c.id),
            }
          : null,
    };
  });
  return { cards, course: [...courseOrder] };
}

/** What a scenario picker lists of an entry. */
export type ScenarioTitle = Pick<CardData, 'id' | 'title' | 'group'>;

/**
 * Every entry's id, title and group, in catalogue order: the Step screen's picker lists these
 * (virtual:catalogue-titles), so a Step link loads only the entry it opens.
 */
export function catalogueTitles(): ScenarioTitle[] {
  return catalogue.map(({ id, title, group }) => ({ id, title, group }));
}
