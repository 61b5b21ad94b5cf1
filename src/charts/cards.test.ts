import home from 'virtual:catalogue-cards';
import { describe, expect, it } from 'vitest';
import { computePreview, previewText } from './preview.ts';
import { courseOrder } from '../lessons/index.ts';
import { catalogue } from '../scenarios/index.ts';
import { catalogueCards } from './cards.ts';

describe('the home page’s cards, computed at build time', () => {
  it('are what the plugin serves the page, through JSON', () => {
    expect(home).toEqual(JSON.parse(JSON.stringify(catalogueCards())));
  });

  it('have one card per scenario, in catalogue order, with its first witness’s picture', () => {
    expect(home.cards.map((c) => c.id)).toEqual(catalogue.map((s) => s.id));
    for (const sc of catalogue) {
      const card = home.cards.find((c) => c.id === sc.id);
      expect(card?.preview.text, sc.id).toBe(previewText(computePreview(sc)));
      expect(card?.preview.layout.rects.length, sc.id).toBeGreaterThan(0);
    }
  });

  it('number the lectures in course order', () => {
    expect(home.course).toEqual(courseOrder);
    home.course.forEach((id, i) => {
      expect(home.cards.find((c) => c.id === id)?.lecture?.number).toBe(i + 1);
    });
  });
});
