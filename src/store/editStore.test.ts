import { describe, expect, it } from 'vitest';
import { findScenario } from '../scenarios/index.ts';
import { editLink } from './editLink.ts';
import { createEditStore, DRAFT_KEY } from './editStore.ts';
import type { KeyValueStorage } from './storage.ts';
import { encodeLink } from './link.ts';
import { createStepStore, linkedEntryLoaded } from './stepStore.ts';

function memoryStorage(
  init: Record<string, string> = {},
): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(init));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => {
      data.set(k, v);
    },
    removeItem: (k) => {
      data.delete(k);
    },
  };
}

const BROKEN = `C broken
int x;
P0() { WRITE_ONCE(x, 1) }
`;

describe('the editor store', () => {
  it('starts from the saved draft, and saves every change', () => {
    const storage = memoryStorage({ [DRAFT_KEY]: 'C saved\nint x;\nP0() { x = 1; }\n' });
    const store = createEditStore(storage);
    expect(store.getState().text).toContain('C saved');
    expect(store.getState().check.ok).toBe(true);
    store.getState().textChanged(BROKEN);
    expect(storage.data.get(DRAFT_KEY)).toBe(BROKEN);
  });

  it('says where a program is wrong, by line and column', () => {
    const store = createEditStore(memoryStorage());
    store.getState().textChanged(BROKEN);
    const check = store.getState().check;
    if (check.ok) throw new Error('compiled');
    expect(check.problems[0]).toMatchObject({ line: 3, col: 25 });
    expect(check.problems[0]?.text).toMatch(/^line 3, column 25: expected `;`/);
  });

  it('opens a program from its link, and a damaged link keeps the draft with a message', () => {
    const storage = memoryStorage({ [DRAFT_KEY]: BROKEN });
    const store = createEditStore(storage);
    store.getState().linkOpened(editLink('C linked\nint y;\nP0() { y = 2; }\n'));
    expect(store.getState().text).toContain('C linked');
    // The draft it replaced is kept, and comes back on request.
    expect(store.getState().replaced).toBe(BROKEN);
    store.getState().linkOpened('#/edit?src=%%%not-lz');
    expect(store.getState().notice).toMatch(
      /could not be opened: the program in this link is damaged/,
    );
    expect(store.getState().text).toContain('C linked');
    store.getState().draftRestored();
    expect(store.getState().text).toBe(BROKEN);
    // A part the editor does not read is named, not dropped without a word.
    store.getState().noticeDismissed();
    store.getState().linkOpened('#/edit?z=%%%');
    expect(store.getState().notice).toBe(
      'Parts of this link were left out: z=%%%. An editor link carries only its program (src=…).',
    );
    expect(store.getState().text).toBe(BROKEN);
    expect(storage.data.get(DRAFT_KEY)).toBe(BROKEN);
  });

  it('counts texts from outside the editor, never the text it typed', () => {
    // The editor replaces its document only when `loads` moves: the store taking up a text
    // typed 250 ms ago must not put it back over a key pressed since.
    const store = createEditStore(memoryStorage());
    const loads = () => store.getState().loads;
    expect(loads()).toBe(0);
    store.getState().textChanged(BROKEN);
    store.getState().textChanged(`${BROKEN}// more\n`);
    expect(loads()).toBe(0);
    store.getState().exampleChosen('first');
    expect(loads()).toBe(1);
    const example = store.getState().text;
    store.getState().linkOpened(editLink('C linked\nint y;\nP0() { y = 2; }\n'));
    expect(loads()).toBe(2);
    // A link to the text already shown, a damaged link and an unknown example load nothing.
    store.getState().linkOpened(editLink('C linked\nint y;\nP0() { y = 2; }\n'));
    store.getState().linkOpened('#/edit?src=%%%not-lz');
    store.getState().exampleChosen('no-such-example');
    expect(loads()).toBe(2);
    store.getState().draftRestored();
    expect(loads()).toBe(3);
    expect(store.getState().text).toBe(example);
  });

  it('opens the program in Step mode through a link that carries it', async () => {
    const store = createEditStore(memoryStorage());
    store.getState().exampleChosen('first');
    const link = store.getState().programOpened();
    if (link === null) throw new Error('the example does not compile');
    expect(findScenario('program')?.title).toBe('my-counter');
    const step = createStepStore();
    // As the page does: the reader of compressed links loads before the link is handed over.
    await linkedEntryLoaded(link);
    step.getState().linkOpened(link);
    const s = step.getState();
    expect(s.notice).toBeNull();
    expect(s.session.scenario.id).toBe('program');
    expect(s.session.instance.listing.lines[0]).toBe('C my-counter');
  });

  it('a Step link whose program does not compile says where, and opens the default', async () => {
    const step = createStepStore();
    const link = encodeLink({
      scenario: 'program',
      params: {},
      schedule: '',
      cursor: 0,
      program: BROKEN,
    });
    step.getState().linkOpened(link);
    // Opened once the reader of compressed links has loaded.
    await linkedEntryLoaded(link);
    await new Promise((r) => setTimeout(r, 0));
    expect(step.getState().notice).toMatch(
      /could not be opened: the program it carries does not compile \(line 3, column 25: expected `;`/,
    );
    expect(step.getState().session.scenario.id).toBe('global-plain');
  });

  it('tells whether a program runs live and what herd7 makes of it', () => {
    const store = createEditStore(memoryStorage());
    store.getState().exampleChosen('first');
    const a = store.getState().check;
    if (!a.ok) throw new Error('first does not compile');
    expect(a.notLive).toBeNull();
    expect(a.litmus.ok).toBe(false); // a counter clause is the lab's, not herd7's
    store.getState().exampleChosen('SB');
    const b = store.getState().check;
    if (!b.ok) throw new Error('SB does not compile');
    expect(b.notLive).toMatch(/declare one/);
    expect(b.litmus.ok && b.litmus.text).toContain('exists (0:r0 = 0 /\\ 1:r0 = 0)');
  });
});
