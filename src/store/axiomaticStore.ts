// The kernel's memory model (memory lkmm) in the page: herd7's answer for the program Step has
// open, and the execution graph the stage shows (an end state's execution, "Why not?"'s forbidden
// candidates, or "Be the memory system"), with the narration of the student's choices. Created
// without React; the worker is reached through a port (an AxiomaticBridge; tests fake it), and
// ended by aborting the AbortSignal its answer was handed.

import { createStore } from 'zustand/vanilla';
import type { ExecutionGraph } from '../axiomatic/explain.ts';
import { openProgramText } from '../scenarios/index.ts';
import { PROGRAM_ID } from '../scenarios/program.ts';
import type { AxiomaticAnswer, AxiomaticRequest, MemoryView } from '../axiomatic/pageSession.ts';
import { isAbortError, messageOf } from '../machine/errors.ts';

export type { AxiomaticAnswer, AxiomaticRequest, MemoryView } from '../axiomatic/pageSession.ts';

/** The axiomatic engine in a worker (an AxiomaticBridge; tests fake it). */
export interface AxiomaticPort {
  /**
   * Answers a program and keeps it open for the calls below until `signal` aborts: then the
   * worker is ended, and this and every call in flight reject with an AbortError.
   */
  answer(req: AxiomaticRequest, signal: AbortSignal): Promise<AxiomaticAnswer>;
  execution(index: number): Promise<ExecutionGraph>;
  whyNot(): Promise<ExecutionGraph[]>;
  memoryView(): Promise<MemoryView>;
  memoryChoose(read: string, write: string | null): Promise<MemoryView>;
  memoryReset(): Promise<MemoryView>;
}

/** What the graph on the stage shows. */
export type Shown =
  | { readonly kind: 'execution'; readonly state: number; readonly graph: ExecutionGraph }
  | {
      readonly kind: 'why-not';
      readonly graphs: readonly ExecutionGraph[];
      /** The candidate in view. */
      readonly index: number;
    }
  | { readonly kind: 'memory'; readonly view: MemoryView };

export interface AxiomaticState {
  /** The program open (scenario, parameters and, for a typed program, its text), as a request. */
  readonly request: AxiomaticRequest | null;
  readonly answering: boolean;
  readonly answer: AxiomaticAnswer | null;
  readonly error: string | null;
  readonly shown: Shown | null;
  /** A graph is on its way from the worker. */
  readonly loading: boolean;
  /** What each choice of "Be the memory system" did, oldest first. */
  readonly narration: readonly string[];
  /** A choice on its way to the worker (shown as made until the model answers). */
  readonly picking: { readonly read: string; readonly write: string | null } | null;
  /** Step (or Explore) has this program open under lkmm: a new one forgets the old answer. */
  subjectOpened(scenario: string, params: Readonly<Record<string, string>>): void;
  /** Explore's button: answers the program open. */
  answerRequested(): void;
  /** The stage's button: the graph that explains the answer (answering first if need be). */
  graphRequested(): void;
  /**
   * A slide wants the stage to draw an execution that ends in the end state whose line reads
   * `line` (null: none). Kept until the program it is about is open and answered.
   */
  endStateWanted(line: string | null): void;
  executionShown(state: number): void;
  whyNotShown(): void;
  /** Another of "Why not?"'s candidates. */
  whyNotCandidateChosen(index: number): void;
  memorySystemOpened(): void;
  /** The student chooses the write a read sees (null: takes the choice back). */
  writeChosen(read: string, write: string | null): void;
  memorySystemReset(): void;
  graphClosed(): void;
  cancelRequested(): void;
}

const sameRequest = (a: AxiomaticRequest | null, b: AxiomaticRequest) =>
  a !== null &&
  a.scenario === b.scenario &&
  a.program === b.program &&
  JSON.stringify(a.params) === JSON.stringify(b.params);

/** A read's name and a write's label, from the view the choice was made in. */
function choiceWords(view: MemoryView | null, read: string, write: string | null): string {
  const r = view?.reads.find((x) => x.read === read);
  const name = r?.name ?? read;
  if (write === null) return `${name}: the choice is taken back`;
  const w = r?.options.find((o) => o.write === write)?.label ?? write;
  return `${name} reads from ${w}`;
}

/** What a choice did, for the narration: the choice, the model's word, and why if it is no. */
export function narrate(
  before: MemoryView | null,
  read: string,
  write: string | null,
  after: MemoryView,
): string {
  const why = after.consistent === 0 && after.graph?.why ? ` ${after.graph.why.sentence}` : '';
  return `${choiceWords(before, read, write)}. ${after.sentence}${why}`;
}

export function createAxiomaticStore(port: AxiomaticPort) {
  // Each subject, answer or cancel starts a new generation; a reply from an older one is dropped.
  let generation = 0;
  let answering: Promise<AxiomaticAnswer | null> | null = null;
  // The generation's worker (the program it holds open) is ended when this aborts.
  let abort = new AbortController();

  return createStore<AxiomaticState>()((set, get) => {
    /** The answer for the program open, asked once; null when it failed (the error says why). */
    const answered = (): Promise<AxiomaticAnswer | null> => {
      const { request, answer } = get();
      if (!request) return Promise.resolve(null);
      if (answer) return Promise.resolve(answer);
      if (answering) return answering;
      const gen = generation;
      set({ answering: true, error: null });
      answering = port.answer(request, abort.signal).then(
        (a) => {
          if (gen !== generation) return null;
          answering = null;
          set({ answer: a, answering: false });
          return a;
        },
        (e: unknown) => {
          if (gen !== generation) return null;
          answering = null;
          set({ answering: false, error: isAbortError(e) ? 'Cancelled.' : messageOf(e) });
          return null;
        },
      );
      return answering;
    };

    /** The end state a slide wants drawn, until an answer has it. */
    let wanted: string | null = null;
    const showWanted = () => {
      if (wanted === null || !get().request) return;
      void answered().then((a) => {
        const line = wanted;
        if (!a?.ok || line === null) return;
        const i = a.states.findIndex((x) => x.line.includes(line));
        if (i < 0) return;
        wanted = null;
        get().executionShown(i);
      });
    };

    /** Runs a worker call for the stage, once the answer is in; drops it if the subject moved on. */
    const fetch = <T>(call: () => Promise<T>, take: (t: T) => void) => {
      const gen = generation;
      set({ loading: true, error: null });
      void answered().then(async (a) => {
        if (gen !== generation) return;
        if (!a?.ok) {
          set({ loading: false });
          return;
        }
        try {
          const t = await call();
          if (gen === generation) {
            set({ loading: false });
            take(t);
          }
        } catch (e) {
          if (gen === generation) set({ loading: false, picking: null, error: messageOf(e) });
        }
      });
    };

    /** A new generation: the worker holding the old one's program (busy or not) is ended. */
    const forget = () => {
      generation++;
      answering = null;
      abort.abort();
      abort = new AbortController();
    };

    return {
      request: null,
      answering: false,
      answer: null,
      error: null,
      shown: null,
      loading: false,
      narration: [],
      picking: null,
      subjectOpened: (scenario, params) => {
        const text = scenario === PROGRAM_ID ? openProgramText() : null;
        const request: AxiomaticRequest = {
          scenario,
          ...(text === null ? {} : { program: text }),
          params,
        };
        if (sameRequest(get().request, request)) return;
        forget();
        set({
          request,
          answer: null,
          answering: false,
          error: null,
          shown: null,
          loading: false,
          narration: [],
          picking: null,
        });
        showWanted();
      },
      answerRequested: () => {
        if (get().answer) return;
        void answered();
      },
      graphRequested: () => {
        void answered().then((a) => {
          if (!a?.ok) return;
          const reached = a.states.findIndex((s) => s.condition === true);
          if (a.whyNot > 0) get().whyNotShown();
          else get().executionShown(Math.max(0, reached));
        });
      },
      endStateWanted: (line) => {
        wanted = line;
        showWanted();
      },
      executionShown: (state) => {
        fetch(
          () => port.execution(state),
          (graph) => {
            set({ shown: { kind: 'execution', state, graph } });
          },
        );
      },
      whyNotShown: () => {
        fetch(
          () => port.whyNot(),
          (graphs) => {
            set({ shown: { kind: 'why-not', graphs, index: 0 } });
          },
        );
      },
      whyNotCandidateChosen: (index) => {
        const s = get().shown;
        if (s?.kind !== 'why-not' || index < 0 || index >= s.graphs.length) return;
        set({ shown: { ...s, index } });
      },
      memorySystemOpened: () => {
        fetch(
          () => port.memoryView(),
          (view) => {
            set({ shown: { kind: 'memory', view }, narration: [view.sentence] });
          },
        );
      },
      writeChosen: (read, write) => {
        const s = get().shown;
        const before = s?.kind === 'memory' ? s.view : null;
        set({ picking: { read, write } });
        fetch(
          () => port.memoryChoose(read, write),
          (view) => {
            set({
              shown: { kind: 'memory', view },
              picking: null,
              narration: [...get().narration, narrate(before, read, write, view)],
            });
          },
        );
      },
      memorySystemReset: () => {
        fetch(
          () => port.memoryReset(),
          (view) => {
            set({
              shown: { kind: 'memory', view },
              narration: [...get().narration, `Every choice forgotten. ${view.sentence}`],
            });
          },
        );
      },
      graphClosed: () => {
        set({ shown: null, narration: [] });
      },
      cancelRequested: () => {
        // The worker is gone, and the program it held open with it: the next graph answers anew.
        forget();
        set({
          answer: null,
          answering: false,
          loading: false,
          shown: null,
          picking: null,
          error: 'Cancelled.',
        });
      },
    };
  });
}

export type AxiomaticStore = ReturnType<typeof createAxiomaticStore>;
