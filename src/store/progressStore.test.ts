import { describe, expect, it } from 'vitest';
import { emptyProgress, serializeProgress, withSlide } from '../lessons/index.ts';
import { createProgressStore, PROGRESS_KEY, type ProgressStorage } from './progressStore.ts';

/** A Map-backed storage; `fail` makes the named calls throw, as private mode or a full quota do. */
function fakeStorage(
  initial: string | null = null,
  fail: readonly ('getItem' | 'setItem' | 'removeItem')[] = [],
) {
  const map = new Map<string, string>();
  if (initial !== null) map.set(PROGRESS_KEY, initial);
  let writes = 0;
  const refuse = (call: string) => {
    if ((fail as readonly string[]).includes(call))
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };
  const storage: ProgressStorage = {
    getItem: (k) => {
      refuse('getItem');
      return map.get(k) ?? null;
    },
    setItem: (k, v) => {
      refuse('setItem');
      writes++;
      map.set(k, v);
    },
    removeItem: (k) => {
      refuse('removeItem');
      map.delete(k);
    },
  };
  return { storage, map, writes: () => writes };
}

const one = { interventions: 1, switches: 0, steps: 3 };
const two = { interventions: 2, switches: 0, steps: 3 };

describe('the progress store', () => {
  it('starts empty, without a problem, when nothing is stored', () => {
    const { storage } = fakeStorage();
    const s = createProgressStore(storage).getState();
    expect(s.progress).toEqual(emptyProgress());
    expect(s.problem).toBeNull();
  });

  it('loads a good record', () => {
    const saved = withSlide(emptyProgress(), 'global-plain', 2, true);
    const { storage } = fakeStorage(serializeProgress(saved));
    const s = createProgressStore(storage).getState();
    expect(s.progress).toEqual(saved);
    expect(s.problem).toBeNull();
  });

  it('saves every change under its one key, and reads it back in a new store', () => {
    const { storage, map } = fakeStorage();
    const store = createProgressStore(storage);
    store.getState().slideSeen('global-plain', 1);
    store.getState().challengeSolved('global-plain', 'lose-one', '0 1 0 1 0 0 1 1', one);
    store.getState().challengeSettled('global-atomic', 'no-loss-atomic');
    expect([...map.keys()]).toEqual([PROGRESS_KEY]);
    const again = createProgressStore(storage).getState().progress;
    expect(again).toEqual(store.getState().progress);
    expect(again.lessons['global-plain']).toEqual({ slide: 1, done: false });
    expect(again.challenges['global-plain/lose-one']).toEqual({
      kind: 'solved',
      schedule: '0 1 0 1 0 0 1 1',
      score: one,
    });
    expect(again.challenges['global-atomic/no-loss-atomic']).toEqual({ kind: 'settled' });
  });

  it('keeps the simpler solution of a challenge', () => {
    const { storage } = fakeStorage();
    const store = createProgressStore(storage);
    store.getState().challengeSolved('this-cpu-ops', 'lose-your-own-add', 'mig0>1 0', two);
    store.getState().challengeSolved('this-cpu-ops', 'lose-your-own-add', '0 mig0>1', one);
    store.getState().challengeSolved('this-cpu-ops', 'lose-your-own-add', 'mig0>1 1', two);
    expect(store.getState().progress.challenges['this-cpu-ops/lose-your-own-add']).toEqual({
      kind: 'solved',
      schedule: '0 mig0>1',
      score: one,
    });
  });

  it('does not write when nothing changed (an earlier slide, a worse solution)', () => {
    const { storage, writes } = fakeStorage();
    const store = createProgressStore(storage);
    store.getState().slideSeen('global-plain', 3);
    store.getState().slideSeen('global-plain', 1);
    store.getState().challengeSolved('global-plain', 'lose-one', '0 1', one);
    store.getState().challengeSolved('global-plain', 'lose-one', '0 1 1', two);
    store.getState().challengeSettled('global-atomic', 'no-loss-atomic');
    store.getState().challengeSettled('global-atomic', 'no-loss-atomic');
    expect(writes()).toBe(3);
  });

  it('says what is wrong with an unreadable record, and does not overwrite it', () => {
    const bad =
      '{"version":1,"lessons":{"global-plain":{"slide":-1,"done":false}},"challenges":{}}';
    const { storage, map } = fakeStorage(bad);
    const store = createProgressStore(storage);
    expect(store.getState().problem).toBe(
      'Saved progress could not be read: progress.lessons["global-plain"].slide must be an integer from 0 to 99, got -1. It is left as it is; until you reset progress, what you do now is not saved.',
    );
    expect(store.getState().progress).toEqual(emptyProgress());
    // The session goes on in memory; storage keeps the record for the student to decide.
    store.getState().slideSeen('global-atomic', 2);
    expect(store.getState().progress.lessons['global-atomic']?.slide).toBe(2);
    expect(map.get(PROGRESS_KEY)).toBe(bad);
    expect(store.getState().problem).toMatch(/^Saved progress could not be read/);
  });

  it('says a record that is not JSON is not JSON', () => {
    const { storage } = fakeStorage('{"version":1,');
    expect(createProgressStore(storage).getState().problem).toMatch(
      /^Saved progress could not be read: the saved progress is not valid JSON\./,
    );
  });

  it('reset forgets everything, clears the problem and saves again from then on', () => {
    const { storage, map } = fakeStorage('not json');
    const store = createProgressStore(storage);
    store.getState().slideSeen('global-plain', 1);
    store.getState().reset();
    expect(store.getState().problem).toBeNull();
    expect(store.getState().progress).toEqual(emptyProgress());
    expect(map.has(PROGRESS_KEY)).toBe(false);
    store.getState().challengeSettled('global-atomic', 'no-loss-atomic');
    expect(createProgressStore(storage).getState().progress.challenges).toEqual({
      'global-atomic/no-loss-atomic': { kind: 'settled' },
    });
  });

  it('reset of a good record forgets it in memory and in storage', () => {
    const { storage } = fakeStorage();
    const store = createProgressStore(storage);
    store.getState().challengeSolved('global-plain', 'lose-one', '0 1', one);
    store.getState().reset();
    expect(store.getState().progress).toEqual(emptyProgress());
    expect(createProgressStore(storage).getState().progress).toEqual(emptyProgress());
  });

  it('storage that cannot be read says so and keeps progress in memory', () => {
    const { storage } = fakeStorage(null, ['getItem', 'setItem', 'removeItem']);
    const store = createProgressStore(storage);
    expect(store.getState().problem).toBe(
      'Saved progress could not be read: The quota has been exceeded. Progress is kept only until this page is closed.',
    );
    store.getState().challengeSolved('global-plain', 'lose-one', '0 1', one);
    expect(store.getState().progress.challenges['global-plain/lose-one']?.kind).toBe('solved');
    expect(store.getState().problem).toMatch(/^Progress could not be saved: /);
    store.getState().reset();
    expect(store.getState().progress).toEqual(emptyProgress());
    expect(store.getState().problem).toMatch(/^Saved progress could not be cleared: /);
  });

  it('a write that fails (a full quota) says so; the next that succeeds clears it', () => {
    let full = true;
    const { storage: inner } = fakeStorage();
    const storage: ProgressStorage = {
      ...inner,
      setItem: (k, v) => {
        if (full) throw new DOMException('quota exceeded', 'QuotaExceededError');
        inner.setItem(k, v);
      },
    };
    const store = createProgressStore(storage);
    store.getState().slideSeen('global-plain', 1);
    expect(store.getState().problem).toBe(
      'Progress could not be saved: quota exceeded. Progress is kept only until this page is closed.',
    );
    full = false;
    store.getState().slideSeen('global-plain', 2);
    expect(store.getState().problem).toBeNull();
    expect(createProgressStore(storage).getState().progress.lessons['global-plain']?.slide).toBe(2);
  });

  // Two tabs of one browser share the record. Each saves its whole record, so a tab that did not
  // take the other's writes would save a stale record over them.
  describe('two tabs', () => {
    const tabs = () => {
      const shared = fakeStorage();
      const a = createProgressStore(shared.storage);
      const b = createProgressStore(shared.storage);
      /** What the browser's storage event tells the other tab after a write. */
      const tell = (tab: typeof b) => {
        tab.getState().storedElsewhere(shared.map.get(PROGRESS_KEY) ?? null);
      };
      return { ...shared, a, b, tell };
    };

    it("a tab told of the other's write keeps both tabs' work when it saves", () => {
      const { map, a, b, tell } = tabs();
      a.getState().challengeSolved('global-plain', 'lose-one', '0 1 0 1 0 0 1 1', one);
      tell(b);
      expect(b.getState().progress.challenges['global-plain/lose-one']?.kind).toBe('solved');
      b.getState().slideSeen('percpu-classic', 2);
      const saved = createProgressStore(fakeStorage(map.get(PROGRESS_KEY)).storage).getState();
      expect(saved.progress.challenges['global-plain/lose-one']?.kind).toBe('solved');
      expect(saved.progress.lessons['percpu-classic']).toEqual({ slide: 2, done: false });
    });

    it('a reset in one tab empties the other', () => {
      const { a, b, tell } = tabs();
      a.getState().slideSeen('global-plain', 3);
      tell(b);
      a.getState().reset();
      tell(b);
      expect(b.getState().progress).toEqual(emptyProgress());
    });

    it('an unreadable record written elsewhere is named, and not overwritten', () => {
      const { map, b } = tabs();
      map.set(PROGRESS_KEY, '{"version":99}');
      b.getState().storedElsewhere('{"version":99}');
      expect(b.getState().problem).toMatch(/^Saved progress could not be read: /);
      b.getState().slideSeen('global-plain', 1);
      expect(map.get(PROGRESS_KEY)).toBe('{"version":99}');
      // A good record written later clears the problem.
      b.getState().storedElsewhere(serializeProgress(withSlide(emptyProgress(), 'x', 1)));
      expect(b.getState().problem).toBeNull();
      expect(b.getState().progress.lessons.x).toEqual({ slide: 1, done: false });
    });
  });
});
