// The editor's store: the program being written (kept as a draft in localStorage, so a reload
// loses nothing), what the compiler says of it, and the way into the other modes. Created
// without React; the storage is passed in so tests can fake it.

import { createStore } from 'zustand/vanilla';
import { toLitmus } from '../lang/herd7.ts';
import { describeError, LangFault, LineMap } from '../lang/source.ts';
import { examples, FIRST_PROGRAM } from '../scenarios/examples.ts';
import { openProgram } from '../scenarios/index.ts';
import { PROGRAM_ID, programScenario } from '../scenarios/program.ts';
import { whyNotLive } from '../live/specs.ts';
import { readEditLink } from './editLink.ts';
import { encodeLink } from './link.ts';
import { MAX_PROGRAM_CHARS } from './linkLimits.ts';
import { browserStorage, type KeyValueStorage } from './storage.ts';
import { count } from '../machine/count.ts';
import { messageOf } from '../machine/errors.ts';

/** The localStorage key of the draft. */
export const DRAFT_KEY = 'percpu-lab:program';

/** One thing the compiler refuses, where it is. */
export interface Problem {
  readonly from: number;
  readonly to: number;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly hint: string;
  /** "line 3, column 5: …", as the list and the CLI say it. */
  readonly text: string;
}

/** What the compiler says of the text. */
export type Check =
  | { readonly ok: false; readonly problems: readonly Problem[] }
  | {
      readonly ok: true;
      /** One sentence: its threads, what it observes and judges. */
      readonly summary: string;
      /** Why it cannot run live, or null when it can. */
      readonly notLive: string | null;
      /** The herd7 litmus file it exports to, or why it does not. */
      readonly litmus:
        { readonly ok: true; readonly text: string } | { readonly ok: false; readonly why: string };
    };

export interface EditState {
  readonly text: string;
  readonly check: Check;
  /** A message for the user (a damaged link, a draft that cannot be saved), or null. */
  readonly notice: string | null;
  /** The draft a link's program took the place of, until it is restored or edited over. */
  readonly replaced: string | null;
  /**
   * How many texts have come from outside the editor (an example, a link, a restored draft).
   * The editor replaces what it holds only when this changes: the store catching up with what
   * was typed must never put an older text back over keys pressed since.
   */
  readonly loads: number;

  textChanged(text: string): void;
  exampleChosen(id: string): void;
  /** Opens a #/edit link: its program, or the draft. */
  linkOpened(hash: string): void;
  noticeDismissed(): void;
  /** Puts back the draft a link's program replaced. */
  draftRestored(): void;
  /**
   * Opens the program in every mode (findScenario('program')) and gives the Step link to it
   * with `params` (the memory model chosen), or null when it does not compile.
   */
  programOpened(params?: Readonly<Record<string, string>>): string | null;
}

/** The compiler's verdict on `text`, in the editor's terms. */
export function checkProgram(text: string): Check {
  if (text.length > MAX_PROGRAM_CHARS)
    return {
      ok: false,
      problems: [
        problemOf(new LineMap(text), {
          span: { start: MAX_PROGRAM_CHARS, end: text.length },
          message: `the program is longer than the ${MAX_PROGRAM_CHARS.toLocaleString('en')} characters the lab takes.`,
          hint: '',
        }),
      ],
    };
  const r = programScenario(text);
  const lines = new LineMap(text);
  if (!r.ok) return { ok: false, problems: r.errors.map((e) => problemOf(lines, e)) };
  const c = r.compiled;
  const threads = c.threads.map((t) => `${t.name} on CPU${t.cpu}`);
  const observed = c.clauses.observables.map((o) => o.name);
  const judged = c.clauses.invariants.map((i) => i.id);
  const summary = [
    `${count(threads.length, 'thread')} (${threads.join(', ')}) on ${count(c.machine.cpus, 'CPU')}`,
    observed.length ? `observes ${observed.join(', ')}` : 'observes nothing',
    judged.length ? `judges ${judged.join(', ')}` : 'judges nothing',
    ...(c.clauses.condition
      ? [`herd7 condition: ${c.clauses.condition.quantifier} ${c.clauses.condition.text}`]
      : []),
  ].join('; ');
  let litmus: Extract<Check, { ok: true }>['litmus'];
  try {
    litmus = { ok: true, text: toLitmus(c) };
  } catch (e) {
    if (!(e instanceof LangFault)) throw e;
    litmus = { ok: false, why: e.message };
  }
  return { ok: true, summary, notLive: whyNotLive(c), litmus };
}

function problemOf(
  lines: LineMap,
  e: { span: { start: number; end: number }; message: string; hint: string },
): Problem {
  const { line, col } = lines.position(e.span.start);
  return {
    from: e.span.start,
    to: Math.max(e.span.end, e.span.start),
    line,
    col,
    message: e.message,
    hint: e.hint,
    text: describeError(lines, e),
  };
}

export function createEditStore(storage: KeyValueStorage = browserStorage()) {
  let saved: string | null = null;
  let problem: string | null = null;
  try {
    saved = storage.getItem(DRAFT_KEY);
  } catch (e) {
    problem = `Your draft could not be read (${messageOf(e)}); what you write now is kept while the page is open.`;
  }
  const first = saved ?? FIRST_PROGRAM;
  return createStore<EditState>()((set, get) => {
    const save = (text: string) => {
      try {
        storage.setItem(DRAFT_KEY, text);
      } catch (e) {
        set({
          notice: `Your draft could not be saved (${messageOf(e)}); it is kept while the page is open.`,
        });
      }
    };
    const take = (text: string) => {
      set({ text, check: checkProgram(text) });
      save(text);
    };
    /** A text from outside the editor, which the editor is to show in place of its own. */
    const load = (text: string) => {
      take(text);
      set({ loads: get().loads + 1 });
    };
    return {
      text: first,
      check: checkProgram(first),
      notice: problem,
      replaced: null,
      loads: 0,
      textChanged: (text) => {
        take(text);
      },
      draftRestored: () => {
        const { replaced } = get();
        if (replaced === null) return;
        load(replaced);
        set({ replaced: null });
      },
      exampleChosen: (id) => {
        const e = examples.find((x) => x.id === id);
        if (!e) {
          set({ notice: `there is no example '${id}'` });
          return;
        }
        load(e.text());
      },
      linkOpened: (hash) => {
        const r = readEditLink(hash);
        if (!r.ok) {
          set({
            notice: `This link could not be opened: ${r.message}. Your draft is shown instead.`,
          });
          return;
        }
        if (r.unread.length > 0)
          set({
            notice: `Parts of this link were left out: ${r.unread.join(', ')}. An editor link carries only its program (src=…).`,
          });
        if (r.text === null || r.text === get().text) return;
        // Nothing the user wrote is lost: the draft the link replaces can be put back.
        set({ replaced: get().text });
        load(r.text);
      },
      noticeDismissed: () => {
        set({ notice: null });
      },
      programOpened: (params = {}) => {
        const { text } = get();
        const r = openProgram(text);
        if (!r.ok) return null;
        return encodeLink({
          scenario: PROGRAM_ID,
          params,
          schedule: '',
          cursor: 0,
          program: text,
        });
      },
    };
  });
}

export type EditStore = ReturnType<typeof createEditStore>;
