import { describe, expect, it } from 'vitest';
import { catalogue } from './index.ts';
import { catalogueIds, firstScenario, loadedScenario, loadScenario, needsLoading } from './load.ts';

describe('the catalogue one entry at a time', () => {
  it('lists every entry of index.ts, in its order, and starts from its first', () => {
    expect(catalogueIds).toEqual(catalogue.map((s) => s.id));
    expect(firstScenario).toBe(catalogue[0]);
  });

  it('finds each entry in the files its row names, under its own id', () => {
    for (const id of catalogueIds) expect(catalogue.find((s) => s.id === id)?.id).toBe(id);
    expect(new Set(catalogueIds).size).toBe(catalogueIds.length);
  });

  it('loads each entry as the very object index.ts holds', async () => {
    for (const sc of catalogue) expect(await loadScenario(sc.id)).toBe(sc);
  });

  it('finds at once what index.ts has registered, and nothing it does not know', async () => {
    // index.ts is loaded here, so every entry is at hand without loading.
    for (const sc of catalogue) {
      expect(needsLoading(sc.id)).toBe(false);
      expect(loadedScenario(sc.id)).toBe(sc);
    }
    expect(needsLoading('nope')).toBe(false);
    expect(loadedScenario('nope')).toBeUndefined();
    expect(await loadScenario('nope')).toBeUndefined();
    expect(loadedScenario('toString')).toBeUndefined();
    expect(needsLoading('toString')).toBe(false);
  });
});
