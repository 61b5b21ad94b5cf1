// "Ask the room": questions a teacher puts to the class about the Step moment on the projector,
// with their choices and their answer computed by the engine, never written by hand. The
// choices are what the machine can do (the outcomes Explore finds reachable within the
// scenario's bounds), the answer what this schedule does (its run replayed to the end), and the
// reveal a moment the stage can step to (the run's end, the store that loses an add, or the
// witness that breaks an invariant).
//
// It runs on a click on the teacher's page, so every exploration is small (MAX_STATES) and a
// question the engine cannot settle within it is refused with the reason, not guessed.

import { isTerminal } from '../machine/events.ts';
import { tallyOf } from '../machine/isa.ts';
import { CtxKind, type Machine } from '../machine/machine.ts';
import { actorName } from '../machine/narrate.ts';
import { counterWords, type WordStep, wordSteps } from '../machine/overwrites.ts';
import { formatSchedule } from '../machine/schedule.ts';
import { replay, ReplayError } from '../machine/replay.ts';
import { explore } from '../explore/explore.ts';
import type { ExploreResult, Outcome } from '../explore/result.ts';
import { judgeRun } from '../scenarios/judge.ts';
import { observableText, observablesLine, shownObservables } from '../scenarios/outcome.ts';
import { isAxiomatic } from '../scenarios/textScenario.ts';
import type { Observables, Params, Scenario } from '../scenarios/types.ts';
import { MAX_CHOICES } from './protocol.ts';

/** The Step moment a question is about: what a Step link holds. */
export interface StepMoment {
  readonly scenario: Scenario;
  /** The parameters, resolved (a Session's). */
  readonly params: Params;
  /** The whole schedule, its redo tail included. */
  readonly events: readonly number[];
  /** How many of them the stage shows applied. */
  readonly cursor: number;
}

/** Where the reveal takes the stage: a schedule and how far into it (same parameters). */
export interface RevealAt {
  readonly schedule: string;
  readonly cursor: number;
}

export type QuestionKind = 'outcome' | 'value' | 'lost' | 'breaks';

export interface RoomQuestion {
  readonly kind: QuestionKind;
  /** Stable among one moment's questions: what the teacher picks in the list. */
  readonly id: string;
  readonly prompt: string;
  readonly choices: readonly string[];
  /** The right choice's index. */
  readonly answer: number;
  readonly reveal: RevealAt;
}

/** A question the engine could not settle for this moment, and why (for the teacher). */
export interface Refusal {
  readonly kind: QuestionKind;
  readonly why: string;
}

export interface RoomQuestions {
  readonly questions: readonly RoomQuestion[];
  readonly refused: readonly Refusal[];
}

/** The most states a question's exploration expands: a fraction of a second on a laptop. */
export const MAX_STATES = 40_000;
const MAX_MEMORY_MB = 64;

/** The run's end as a person reads it: observables, then what it broke. */
function endText(sc: Scenario, p: Params, o: Observables, broken: readonly string[]): string {
  const line = observablesLine(shownObservables(sc, p, o));
  return broken.length === 0 ? line : `${line} (breaks ${broken.join(', ')})`;
}

/** Broken invariant ids of an Explore outcome, sorted, as judgeRun's are. */
function outcomeBroken(o: Outcome): string[] {
  return [...new Set(o.violations.map((v) => v.id))].sort();
}

function explored(m: StepMoment, simplest: boolean): ExploreResult {
  return explore(
    m.scenario,
    m.params,
    { ...m.scenario.bounds, switches: Infinity },
    { maxStates: MAX_STATES, maxMemoryMB: MAX_MEMORY_MB, simplest },
  );
}

const tooBig = (r: ExploreResult) =>
  `Explore stopped after ${String(r.stats.states)} states (${r.stopped ?? 'limit'}): too big to settle in a click; lower the parameters`;

/**
 * Up to MAX_CHOICES choices that hold `right`: the others in the order given (Explore's
 * cheapest first), then all sorted, so the right one is not always first.
 */
function pick(right: string, others: readonly string[], order: (a: string, b: string) => number) {
  const rest = [...new Set(others)].filter((x) => x !== right).slice(0, MAX_CHOICES - 1);
  const choices = [right, ...rest].sort(order);
  return { choices, answer: choices.indexOf(right) };
}

/** The protocol's caps: a choice of at most 120 characters, a prompt of at most 300. */
function cut(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Explore's bounds in words: "with no interventions", "with at most 1 IRQ and 1 migration". */
export function boundsText(b: Scenario['bounds']): string {
  const kinds: [number, string][] = [
    [b.irqs, 'IRQ'],
    [b.nmis, 'NMI'],
    [b.preemptions, 'preemption'],
    [b.migrations, 'migration'],
    [b.hotplugs ?? 0, 'hotplug event'],
  ];
  const some = kinds
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${String(n)} ${what}${n === 1 ? '' : 's'}`);
  if (some.length === 0) return 'with no interventions';
  const last = some.pop() as string;
  return `with at most ${some.length ? `${some.join(', ')} and ${last}` : last}`;
}

/** The lost-add question's last choice: the rest of the schedule loses no add. */
export const NONE_LOST = 'none is lost';

/**
 * Whose add the rest of the schedule loses first: the context whose write the first store
 * after the cursor overwrote (a store of a value loaded before that write), or NONE_LOST.
 * The choices are the contexts that make adds, named as the stage names them at the cursor.
 * A string is the reason it cannot be asked.
 */
function lostQuestion(
  m: StepMoment,
  machine: Machine,
  states: readonly Int32Array[],
  schedule: string,
): RoomQuestion | string {
  const words = counterWords(machine, states[0] as Int32Array);
  if (!words)
    return 'this program has no counter word its contexts race on, so no add to lose (a per-CPU counter with a global count, or a program with no counter)';
  // Under tso a store enters its CPU's buffer and overwrites memory only at a flush, which the
  // stage does not mark as a lost update: a question about it would have no store to reveal.
  if (machine.sbStride !== 0)
    return 'under memory tso an add is lost at a store buffer flush, which the stage does not mark: switch to sc to ask it';
  if (m.cursor >= m.events.length)
    return 'the stage already shows where the schedule ends: step back first';
  const run = { m: machine, states, events: m.events, cursor: m.events.length };
  const lost = wordSteps(run, words).steps.find(
    (x): x is WordStep => x !== null && x !== 'flush' && x.overwrote && x.at >= m.cursor,
  );
  const shown = states[m.cursor] as Int32Array;
  const name = (ctx: number) => actorName(machine, shown, ctx);
  if (!lost && !isTerminal(machine, states[states.length - 1] as Int32Array))
    return 'the schedule stops before the run finishes, and loses no add before then: load a witness, or step to the end and back';
  const right = lost?.wiped[0] ?? null;
  if (lost && (right === null || lost.wiped.length > 1)) {
    const whose = lost.wiped.map(name).join(' and ') || 'no context of the run';
    return `the store at step ${String(lost.at + 1)} overwrites the adds of ${whose}: not one answer`;
  }
  // The contexts that make adds (the program's add operation counts them), and the right one.
  const adders = Array.from({ length: machine.contexts }, (_, ctx) => ctx).filter(
    (ctx) => ctx === right || (machine.code[ctx] ?? []).some((ins) => tallyOf(ins) !== 0),
  );
  const others = adders.filter((ctx) => ctx !== right);
  const room = MAX_CHOICES - 1 - (right === null ? 0 : 1);
  const ctxs = [...others.slice(0, room), ...(right === null ? [] : [right])].sort((a, b) => a - b);
  const choices = [...ctxs.map((ctx) => cut(name(ctx))), NONE_LOST];
  const tasksOnly = ctxs.every((ctx) => machine.ctxKind[ctx] === CtxKind.Task);
  const left = m.events.length - m.cursor;
  return {
    kind: 'lost',
    id: 'lost',
    prompt: `${tasksOnly ? "Which CPU's" : 'Whose'} add does the rest of this schedule lose first? (${String(left)} more step${left === 1 ? '' : 's'})`,
    choices,
    answer: right === null ? choices.length - 1 : ctxs.indexOf(right),
    reveal: { schedule, cursor: lost ? lost.at + 1 : m.events.length },
  };
}

/**
 * The questions the engine can ask about moment `m`, and the ones it refuses with a reason.
 *
 * - `outcome`: where does this schedule end? (needs a schedule that finishes beyond the cursor)
 * - `value`: what does observable X read at the end? one per observable whose value differs
 *   between the reachable outcomes
 * - `lost`: whose add does the rest of this schedule lose first? (needs a counter word)
 * - `breaks`: can any schedule within the bounds break an invariant of these parameters?
 */
export function roomQuestions(m: StepMoment): RoomQuestions {
  const { scenario: sc, params: p } = m;
  if (isAxiomatic(p)) {
    const why =
      'under memory lkmm the stage shows executions, not steps: switch to sc or tso to ask the room';
    return {
      questions: [],
      refused: (['outcome', 'value', 'lost', 'breaks'] as const).map((kind) => ({ kind, why })),
    };
  }
  const questions: RoomQuestion[] = [];
  const refused: Refusal[] = [];
  const built = sc.build(p);
  const machine = built.machine;
  const schedule = formatSchedule(m.events);
  // Explored once, and only if a question needs every outcome.
  let every: ExploreResult | null = null;
  const all = () => (every ??= explored(m, false));

  // Where the schedule ends.
  let states: readonly Int32Array[] | null = null;
  try {
    states = replay(machine, m.events).states;
  } catch (e) {
    if (!(e instanceof ReplayError)) throw e;
    const why = `the schedule does not replay: ${e.message}`;
    refused.push({ kind: 'outcome', why }, { kind: 'lost', why });
  }
  const last = states?.[states.length - 1];
  if (states && last) {
    const whyNot = !isTerminal(machine, last)
      ? 'the schedule stops before the run finishes: load a witness, or step to the end and back'
      : m.cursor >= m.events.length
        ? 'the stage already shows where the schedule ends: step back first'
        : !all().complete
          ? tooBig(all())
          : null;
    if (whyNot) {
      refused.push({ kind: 'outcome', why: whyNot });
      refused.push({ kind: 'value', why: whyNot });
    } else {
      const j = judgeRun(sc, machine, states, p);
      const broken = [...new Set(j.violations.map((v) => v.id))].sort();
      const ends = all().outcomes.filter((o) => o.terminal);
      const reveal = { schedule, cursor: m.events.length };
      const right = endText(sc, p, j.observables, broken);
      const { choices, answer } = pick(
        right,
        ends.map((o) => endText(sc, p, o.observables, outcomeBroken(o))),
        byText,
      );
      const left = m.events.length - m.cursor;
      questions.push({
        kind: 'outcome',
        id: 'outcome',
        prompt: `Where does this schedule end? (${String(left)} more step${left === 1 ? '' : 's'})`,
        choices: choices.map((c) => cut(c)),
        answer,
        reveal,
      });
      // One question per observable the outcomes disagree on: what it reads at the end.
      for (const spec of sc.observables(p)) {
        const key = (o: Observables) => observableText(shownObservables(sc, p, o)[spec.name]);
        const values = [...new Set(ends.map((o) => key(o.observables)))];
        if (values.length < 2) continue;
        const numeric = values.every((t) => t !== '' && Number.isFinite(Number(t)));
        const order = numeric ? (a: string, b: string) => Number(a) - Number(b) : byText;
        const picked = pick(key(j.observables), values, order);
        questions.push({
          kind: 'value',
          id: `value:${spec.name}`,
          prompt: cut(
            `What is ${spec.name} at the end of this schedule? (${spec.description})`,
            300,
          ),
          choices: picked.choices.map((c) => cut(c)),
          answer: picked.answer,
          reveal,
        });
      }
    }
  }

  if (states) {
    const lost = lostQuestion(m, machine, states, schedule);
    if (typeof lost === 'string') refused.push({ kind: 'lost', why: lost });
    else questions.push(lost);
  }

  // Whether these parameters can break an invariant within the bounds: every outcome if they
  // were explored already, else a search that stops at the first (and simplest) break.
  // (`every` is set inside all(); read it through a cast, as TS cannot see the closure write.)
  const before = every as ExploreResult | null;
  const first = before?.complete ? before : explored(m, true);
  const ids = sc.invariants.map((i) => i.id);
  const witness = [...first.outcomes.flatMap((o) => (o.violations.length ? [o] : []))]
    .map((o) => ({ events: o.witness.events, ids: outcomeBroken(o) }))
    .concat(first.always.map((a) => ({ events: a.witness.events, ids: [a.id] })))
    .sort((a, b) => a.events.length - b.events.length)[0];
  if (ids.length === 0) {
    refused.push({ kind: 'breaks', why: 'this program states no invariant' });
  } else if (!witness && !first.complete) {
    refused.push({ kind: 'breaks', why: tooBig(first) });
  } else {
    questions.push({
      kind: 'breaks',
      id: 'breaks',
      prompt: cut(
        `Can any schedule ${boundsText(sc.bounds)} break ${ids.length === 1 ? (ids[0] as string) : `one of ${ids.join(', ')}`}?`,
        300,
      ),
      choices: ['Yes', 'No'],
      answer: witness ? 0 : 1,
      reveal: witness
        ? { schedule: formatSchedule(witness.events), cursor: witness.events.length }
        : { schedule, cursor: m.cursor },
    });
  }
  return { questions, refused };
}
