import { describe, expect, it } from 'vitest';
import { Ev, eventType, makeEvent } from '../machine/events.ts';
import { findScenario } from '../scenarios/index.ts';
import type { Scenario } from '../scenarios/types.ts';
import { decodeLink, encodeLink } from './link.ts';
import { readPacked } from './packedLink.ts';
import { openProgram } from '../scenarios/index.ts';
import { currentState, startSession } from './session.ts';
import { createStepStore, linkedEntryLoaded, linkOf, undoOf } from './stepStore.ts';

const step = (k: number) => makeEvent(Ev.Step, k);

describe('the Step-mode store', () => {
  it('steps, goes back to exactly the previous state, and redoes', () => {
    const store = createStepStore();
    const a = store.getState();
    a.eventRequested(step(0));
    const after1 = currentState(store.getState().session).slice();
    a.eventRequested(step(1));
    a.backRequested();
    expect(Array.from(currentState(store.getState().session))).toEqual(Array.from(after1));
    a.forwardRequested();
    expect(store.getState().session.cursor).toBe(2);
    expect(store.getState().session.steps[1]?.text).toBe('CPU1 `r = nr_files`: reads nr_files: 0');
  });

  it('an illegal event leaves a notice and changes nothing', () => {
    const store = createStepStore();
    const before = store.getState().session;
    store.getState().eventRequested(makeEvent(Ev.Preempt, 0));
    expect(store.getState().notice).toBe(
      'pre0 is not possible here: no other task is waiting on CPU 0',
    );
    expect(store.getState().session).toBe(before);
  });

  it('a preset sets its parameters over the current ones, keeping the variant', () => {
    const store = createStepStore();
    store.getState().scenarioChosen('torn-read-32');
    store.getState().paramChanged('variant', 'up-irq');
    store.getState().presetApplied('irq-adds');
    const p = store.getState().session.params;
    expect([p.variant, p.irqDoes, p.initial, p.irqAmount]).toEqual([
      'up-irq',
      'add',
      4294967295,
      5,
    ]);
    store.getState().presetApplied('nope');
    expect(store.getState().notice).toBe("torn-read-32 has no preset 'nope'");
  });

  it('a witness loads at its start with its schedule ready to step forward', () => {
    const store = createStepStore();
    store.getState().witnessLoaded('lost-update');
    const s = store.getState().session;
    expect([s.cursor, s.events.length]).toEqual([0, 4]);
    for (let i = 0; i < 4; i++) store.getState().forwardRequested();
    expect(store.getState().session.steps[3]?.text).toBe(
      'CPU1 `nr_files = r`: writes nr_files = 101; P1 finishes',
    );
  });

  it('a link reopens the same moment; a bad link opens the default with a message', () => {
    const store = createStepStore();
    store.getState().scenarioChosen('percpu-classic');
    store.getState().witnessLoaded('sum-holds-the-lock');
    store.getState().jumpRequested(14);
    const hash = linkOf(store.getState().session);
    const other = createStepStore();
    other.getState().linkOpened(hash);
    const s = other.getState().session;
    expect([s.scenario.id, s.cursor, s.events.length]).toEqual(['percpu-classic', 14, 20]);
    expect(Array.from(currentState(s))).toEqual(Array.from(currentState(store.getState().session)));

    other.getState().linkOpened('#/step/nope?at=1');
    expect(other.getState().notice).toBe(
      "This link could not be opened: there is no scenario 'nope'. Showing global-plain instead. The link was: #/step/nope?at=1",
    );
    other.getState().linkOpened('#/step/global-plain?sched=0+x&at=1');
    expect(other.getState().notice).toMatch(
      /^This link could not be opened: schedule, column 3: unknown event 'x'/,
    );
    // An event that cannot happen where the schedule puts it: which one, and why.
    other.getState().linkOpened('#/step/global-plain?iterations=1&sched=0+0+0+0+0');
    expect(other.getState().notice).toBe(
      "This link could not be opened: 0 is not possible here: CPU 0 has nothing left to run (event 3 of 5 in the link's schedule). Showing global-plain instead. The link was: #/step/global-plain?iterations=1&sched=0+0+0+0+0",
    );
  });

  it('a link with a parameter the scenario does not take opens that scenario, naming what it left out', () => {
    const store = createStepStore();
    store.getState().linkOpened('#/step/percpu-classic?embed=1&cpus=3&sched=0&at=1');
    const s = store.getState().session;
    expect([s.scenario.id, s.params.cpus, s.cursor]).toEqual(['percpu-classic', 3, 1]);
    expect(store.getState().notice).toBe(
      "Part of this link was ignored: percpu-classic has no parameter 'embed'. The rest is open.",
    );
    // A value out of range is left out the same way; a schedule that fails keeps the scenario.
    store.getState().linkOpened('#/step/percpu-classic?batch=0');
    expect(store.getState().session.scenario.id).toBe('percpu-classic');
    expect(store.getState().notice).toMatch(/batch must be from 1 to \d+, got 0/);
    // More CPUs than the stage shows: the reason, and where more run.
    store.getState().linkOpened('#/step/percpu-classic?cpus=64');
    expect(store.getState().session.scenario.id).toBe('percpu-classic');
    expect(store.getState().notice).toMatch(
      /cpus must be at most 8 in Step mode \(a colour and a digit key for each\), not 64; Live mode races up to 64/,
    );
    store.getState().linkOpened('#/step/percpu-classic?cpus=3&sched=9');
    expect(store.getState().session.scenario.id).toBe('percpu-classic');
    expect(store.getState().session.params.cpus).toBe(3);
    expect(store.getState().notice).toMatch(
      /^This link could not be opened: .*Showing percpu-classic instead/,
    );
  });

  it("a typed program's link honours a parameter written beside its packed part, or says why not", async () => {
    const text = 'C mine\nint x;\nint y;\nP0() { WRITE_ONCE(x, 1); }\nP1() { WRITE_ONCE(y, 1); }\n';
    const hash = encodeLink({
      scenario: 'program',
      params: {},
      schedule: '',
      cursor: 0,
      program: text,
    });
    const store = createStepStore();
    await linkedEntryLoaded(hash);
    store.getState().linkOpened(hash.replace('?z=', '?memory=tso&z='));
    expect(store.getState().session.scenario.title).toBe('mine');
    expect(store.getState().session.params.memory).toBe('tso');
    expect(store.getState().notice).toBeNull();
    store.getState().linkOpened(hash.replace('?z=', '?memory=arm&z='));
    expect(store.getState().session.scenario.title).toBe('mine');
    expect(store.getState().notice).toMatch(/memory must be one of sc, tso.*got 'arm'/);
  });

  it('reset and opening a link leave no witness behind (nor its question)', () => {
    const store = createStepStore();
    store.getState().scenarioChosen('percpu-classic');
    store.getState().witnessLoaded('sum-holds-the-lock');
    expect(store.getState().witness).toBe('sum-holds-the-lock');
    store.getState().revealToggled();
    store.getState().resetRequested();
    expect([store.getState().witness, store.getState().revealed]).toEqual([null, false]);
    store.getState().witnessLoaded('sum-holds-the-lock');
    store.getState().linkOpened('#/step/global-plain');
    expect(store.getState().witness).toBeNull();
  });

  it('a bad parameter is refused with its message; the session is kept', () => {
    const store = createStepStore();
    store.getState().eventRequested(step(0));
    store.getState().paramChanged('cpus', '99');
    expect(store.getState().notice).toMatch(/^cpus must be at most 8 in Step mode/);
    expect(store.getState().session.cursor).toBe(1);
    store.getState().paramChanged('iterations', '-1');
    expect(store.getState().notice).toMatch(/^iterations must be from \d+ to \d+, got -1$/);
    expect(store.getState().session.cursor).toBe(1);
  });

  it('play takes random legal events within the scenario bounds until the end', () => {
    const store = createStepStore();
    store.getState().scenarioChosen('irq-local-rmw');
    for (let i = 0; i < 100; i++) store.getState().playTicked();
    const s = store.getState().session;
    expect(s.events.filter((e) => eventType(e) === Ev.Irq).length).toBeLessThanOrEqual(
      (findScenario('irq-local-rmw') as Scenario).bounds.irqs,
    );
  });

  it('stepping back while playing pauses, so the run after the cursor stays to redo', () => {
    const store = createStepStore();
    store.getState().scenarioChosen('percpu-atomic64');
    store.getState().playToggled();
    for (let i = 0; i < 6; i++) store.getState().playTicked();
    const events = store.getState().session.events;
    expect(events.length).toBe(6);
    store.getState().backRequested();
    expect(store.getState().playing).toBe(false);
    expect(store.getState().session.cursor).toBe(5);
    expect(store.getState().session.events).toEqual(events);
    store.getState().forwardRequested();
    expect(store.getState().session.cursor).toBe(6);
  });

  it('a parameter change that set a run aside can be undone until the parameters change again', () => {
    const store = createStepStore();
    for (const ev of [step(0), step(1), step(0)]) store.getState().eventRequested(ev);
    store.getState().paramChanged('iterations', '2');
    expect(undoOf(store.getState())?.what).toBe(
      'iterations changed: the 3 events of the run so far were set aside.',
    );
    store.getState().undoRequested();
    expect(store.getState().session.cursor).toBe(3);
    expect(undoOf(store.getState())).toBeNull();
    // A change with nothing stepped sets nothing aside: no undo, not even the older one.
    store.getState().paramChanged('iterations', '2');
    store.getState().paramChanged('iterations', '3');
    expect(undoOf(store.getState())).toBeNull();
  });
});

describe('step links', () => {
  it('round-trip short and long links, and reject damaged ones', () => {
    const short = {
      scenario: 'global-plain',
      params: { iterations: '1' },
      schedule: '0 1 0 1',
      cursor: 3,
    };
    expect(encodeLink(short)).toBe('#/step/global-plain?iterations=1&sched=0+1+0+1&at=3');
    expect(decodeLink(encodeLink(short))).toEqual({ ok: true, link: short });
    const long = {
      ...short,
      schedule: Array.from({ length: 200 }, (_, i) => String(i % 2)).join(' '),
    };
    const h = encodeLink(long);
    expect(h).toMatch(/^#\/step\/global-plain\?z=/);
    expect(decodeLink(h, readPacked)).toEqual({ ok: true, link: long });
    expect(decodeLink('#/step/global-plain?z=%%%', readPacked)).toEqual({
      ok: false,
      message: 'the compressed part of this link is damaged',
    });
    expect(decodeLink('#/step/global-plain?at=-2')).toEqual({
      ok: false,
      message: "the link's position 'at=-2' is not a step number",
    });
  });

  it('loads a witness of a fault up to the event that faults, and says what it does', () => {
    const r = openProgram(`C divide
int x;
int y;
P0() { WRITE_ONCE(x, 2); }
P1() { int r; r = READ_ONCE(x); WRITE_ONCE(y, 10 / r); }
observe y = y;`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const step = createStepStore(startSession(r.scenario));
    step.getState().scheduleLoaded({}, '0 1');
    expect(step.getState().notice).toBeNull(); // P0 wrote 2 first: 10 / 2
    step.getState().scheduleLoaded({}, '1 0');
    const s = step.getState();
    expect(s.session.events).toHaveLength(0);
    expect(s.notice).toBe(
      'Event 1 of the schedule, 1, stops the machine: the program divides by zero at line 5. The schedule is loaded up to it.',
    );
  });
});
