import { describe, expect, it, vi } from 'vitest';
import { examples } from '../scenarios/examples.ts';
import { openProgram } from '../scenarios/index.ts';
import { PROGRAM_ID } from '../scenarios/program.ts';
import { createAxiomaticApi } from '../axiomatic/pageSession.ts';
import { AbortError } from '../machine/errors.ts';
import {
  type AxiomaticAnswer,
  type AxiomaticPort,
  type AxiomaticRequest,
  createAxiomaticStore,
} from './axiomaticStore.ts';

const text = (id: string) => examples.find((e) => e.id === id)?.text() ?? '';

/**
 * A port that runs the worker's API in this thread, as the worker would; it keeps the signal
 * each answer was handed (aborted: the bridge would have ended that answer's worker).
 */
function realPort(): AxiomaticPort & { answers: number; signals: AbortSignal[] } {
  const api = createAxiomaticApi();
  const port = {
    answers: 0,
    signals: [] as AbortSignal[],
    answer: (req: AxiomaticRequest, signal: AbortSignal) => {
      port.answers++;
      port.signals.push(signal);
      return Promise.resolve(api.answer(req));
    },
    execution: (i: number) => Promise.resolve(api.execution(i)),
    whyNot: () => Promise.resolve(api.whyNot()),
    memoryView: () => Promise.resolve(api.memoryView()),
    memoryChoose: (r: string, w: string | null) => Promise.resolve(api.memoryChoose(r, w)),
    memoryReset: () => Promise.resolve(api.memoryReset()),
  };
  return port;
}

/** Lets every pending promise settle. */
const settle = () => new Promise((r) => setTimeout(r, 0));

/** Opens `id`'s example as the typed program, under lkmm, in a new store. */
function opened(id: string) {
  expect(openProgram(text(id)).ok).toBe(true);
  const port = realPort();
  const store = createAxiomaticStore(port);
  store.getState().subjectOpened(PROGRAM_ID, { memory: 'lkmm' });
  return { store, port };
}

describe('the axiomatic store', () => {
  it('answers the program open with its text, under lkmm, once', async () => {
    const { store, port } = opened('MP');
    expect(store.getState().request).toEqual({
      scenario: PROGRAM_ID,
      program: text('MP'),
      params: { memory: 'lkmm' },
    });
    store.getState().answerRequested();
    expect(store.getState().answering).toBe(true);
    await settle();
    const a = store.getState().answer;
    expect(a?.ok && a.herd?.observation).toBe('Never');
    store.getState().answerRequested();
    // The same program again (Explore reopened): the answer stays, no new run.
    store.getState().subjectOpened(PROGRAM_ID, { memory: 'lkmm' });
    await settle();
    expect(port.answers).toBe(1);
    expect(store.getState().answer).toBe(a);
  });

  it("shows Why not?'s forbidden execution when the condition's state is never reached", async () => {
    const { store } = opened('MP');
    store.getState().graphRequested();
    await settle();
    await settle();
    const shown = store.getState().shown;
    expect(shown?.kind).toBe('why-not');
    if (shown?.kind !== 'why-not') return;
    expect(shown.graphs[shown.index]?.why?.axiom).toBe('happens-before');
    // Out of range: nothing changes.
    store.getState().whyNotCandidateChosen(5);
    expect(store.getState().shown).toBe(shown);
  });

  it('shows an execution that reaches the condition when the model allows it', async () => {
    const { store } = opened('SB');
    store.getState().graphRequested();
    await settle();
    await settle();
    const a = store.getState().answer as Extract<AxiomaticAnswer, { ok: true }>;
    const shown = store.getState().shown;
    // SB with smp_mb() on both sides: never both 0, so Why not? it is.
    expect(a.herd?.observation).toBe('Never');
    expect(shown?.kind).toBe('why-not');
    store.getState().executionShown(1);
    await settle();
    await settle();
    const e = store.getState().shown;
    expect(e?.kind === 'execution' && e.graph.state).toBe(a.states[1]?.line);
  });

  it('narrates each choice of the memory system, naming the axiom that closes the door', async () => {
    const { store } = opened('MP');
    store.getState().memorySystemOpened();
    await settle();
    await settle();
    let s = store.getState().shown;
    if (s?.kind !== 'memory') throw new Error('no memory system');
    expect(store.getState().narration).toEqual([
      '4 candidate executions, 3 of them allowed by the model.',
    ]);
    const [flag, data] = s.view.reads;
    const set = flag?.options.find((o) => o.label === 'P0: W flag=1')?.write ?? '';
    store.getState().writeChosen(flag?.read ?? '', set);
    // Shown as made while the model answers, so the radio does not spring back.
    expect(store.getState().picking).toEqual({ read: flag?.read, write: set });
    await settle();
    await settle();
    s = store.getState().shown;
    expect(store.getState().picking).toBeNull();
    expect(store.getState().narration.at(-1)).toBe(
      'P1: R flag reads from P0: W flag=1. 1 of the 2 candidate executions left are allowed.',
    );
    const old = data?.options.find((o) => o.label.startsWith('init'))?.write ?? '';
    store.getState().writeChosen(data?.read ?? '', old);
    await settle();
    await settle();
    expect(store.getState().narration.at(-1)).toMatch(
      /^P1: R data reads from init data=0\. No execution is possible any more: every candidate left breaks happens-before\. happens-before: .*smp_rmb\(\).*and so round again\.$/,
    );
    store.getState().memorySystemReset();
    await settle();
    await settle();
    expect(store.getState().narration.at(-1)).toBe(
      'Every choice forgotten. 4 candidate executions, 3 of them allowed by the model.',
    );
  });

  it('shows a refusal as the answer, and asks the worker for no graph', async () => {
    const port = realPort();
    const execution = vi.spyOn(port, 'execution');
    const store = createAxiomaticStore(port);
    // Sixteen reads of x, each 0 or 1: more ways to run than the engine enumerates.
    const reads = Array.from({ length: 16 }, (_, i) => `r${String(i)} = READ_ONCE(x);`).join(' ');
    const regs = Array.from({ length: 16 }, (_, i) => `r${String(i)}`).join(', ');
    const many = `C many\nint x;\nP0() { int ${regs}; ${reads} }\nP1() { WRITE_ONCE(x, 1); }\nexists (x=1)\n`;
    if (!openProgram(many).ok) throw new Error('the program does not compile');
    store.getState().subjectOpened(PROGRAM_ID, { memory: 'lkmm' });
    store.getState().graphRequested();
    await settle();
    await settle();
    const a = store.getState().answer;
    expect(a?.ok).toBe(false);
    expect(a && !a.ok && a.refusal).toMatch(/more than 20000 ways to run/);
    expect(execution).not.toHaveBeenCalled();
    expect(store.getState().shown).toBeNull();
  });

  it('drops the answer of a program no longer open, and cancels its run', async () => {
    let resolve: (a: AxiomaticAnswer) => void = () => undefined;
    const port = realPort();
    const signals: AbortSignal[] = [];
    port.answer = (_req, signal) => {
      signals.push(signal);
      return new Promise<AxiomaticAnswer>((r) => {
        resolve = r;
      });
    };
    const store = createAxiomaticStore(port);
    store.getState().subjectOpened('global-plain', { memory: 'lkmm' });
    store.getState().answerRequested();
    store.getState().subjectOpened('percpu-classic', { memory: 'lkmm' });
    expect(signals.map((x) => x.aborted)).toEqual([true]);
    resolve({ ok: false, model: 'lkmm', refusal: 'too late' });
    await settle();
    expect(store.getState().answer).toBeNull();
    expect(store.getState().request?.scenario).toBe('percpu-classic');
  });

  it('ends the worker of an answered program once another is open, and only then', async () => {
    const { store, port } = opened('MP');
    store.getState().answerRequested();
    await settle();
    // Its graphs still ask the worker that holds the program: nothing is aborted.
    store.getState().graphRequested();
    await settle();
    await settle();
    expect(store.getState().shown?.kind).toBe('why-not');
    expect(port.signals.map((x) => x.aborted)).toEqual([false]);
    store.getState().subjectOpened('global-plain', { memory: 'lkmm' });
    expect(port.signals.map((x) => x.aborted)).toEqual([true]);
    store.getState().answerRequested();
    await settle();
    expect(port.signals.map((x) => x.aborted)).toEqual([true, false]);
  });

  it('says Cancelled when the run is cancelled, and answers afresh after', async () => {
    const { store, port } = opened('MP');
    store.getState().answerRequested();
    store.getState().cancelRequested();
    expect(port.signals.map((x) => x.aborted)).toEqual([true]);
    await settle();
    expect(store.getState().error).toBe('Cancelled.');
    expect(store.getState().answer).toBeNull();
    store.getState().answerRequested();
    await settle();
    expect(store.getState().answer?.ok).toBe(true);
    expect(port.answers).toBe(2);
    expect(port.signals.map((x) => x.aborted)).toEqual([true, false]);
  });

  it('says Cancelled for an answer cancelled elsewhere, and a failure as it is', async () => {
    const port = realPort();
    const store = createAxiomaticStore(port);
    store.getState().subjectOpened('global-plain', { memory: 'lkmm' });
    port.answer = () => Promise.reject(new AbortError('the answer was cancelled'));
    store.getState().answerRequested();
    await settle();
    expect(store.getState()).toMatchObject({ answering: false, error: 'Cancelled.' });
    port.answer = () => Promise.reject(new Error('the axiomatic worker crashed: out of memory'));
    store.getState().answerRequested();
    await settle();
    expect(store.getState().error).toBe('the axiomatic worker crashed: out of memory');
  });
});
