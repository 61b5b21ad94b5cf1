// The picture of a counter with no per-CPU batching (nr_files++ on one shared int, an atomic or
// a spinlocked one, a per-CPU word a task and its interrupt both update): the word they race on,
// the copy each context has loaded and not yet stored back (stale once someone else has
// written), the last load or store as an arrow, an update a store overwrote, and the adds made
// against the adds the word counts. Pure: RaceWord.tsx draws it.

import { plus } from '../machine/int64.ts';
import { Op } from '../machine/isa.ts';
import { CTX_CPU, CtxKind } from '../machine/machine.ts';
import { actorName } from '../machine/narrate.ts';
import { ctxField } from '../machine/read.ts';
import {
  cellValue,
  elementAddr,
  elementValue,
  globalCell,
  perCpuCell,
  totalTally,
  wordValue,
} from '../machine/read.ts';
import { counterOf, executedAt, type Run } from './history.ts';

export interface RaceWordCell {
  /** "nr_files", or "CPU0's c" for a per-CPU word. */
  readonly label: string;
  readonly addr: number;
  /** A 64-bit word (two machine words: a `long` on a 64-bit CPU). */
  readonly wide: boolean;
  readonly value: number;
}

/** A context at one of the words, as the chart names and colours it. */
export interface AtWord {
  readonly ctx: number;
  /** "CPU0", "CPU0's IRQ handler". */
  readonly who: string;
  /** The CPU it is on now (its colour). */
  readonly cpu: number;
  /** Index into `words`: the word it touched, holds, or updates (its CPU's own, per CPU). */
  readonly word: number;
}

/** A value a context loaded from a word and has not stored back yet. */
export interface Holder extends AtWord {
  readonly value: number;
  /** The word has changed since: storing this copy's result loses that change. */
  readonly stale: boolean;
}

/** The step shown, when it touched a word. */
export interface WordAccess extends AtWord {
  readonly kind: 'load' | 'store' | 'atomic';
  /** The word before and after the step. */
  readonly before: number;
  readonly after: number;
  /** A store over a value its context never loaded: `before` is an update it wiped out. */
  readonly overwrote: boolean;
}

/** A context that can touch the words, drawn as a box under the word it updates. */
export interface Racer extends AtWord {
  /** An interrupt handler (drawn dashed). */
  readonly irq: boolean;
}

export interface RaceWordView {
  readonly words: readonly RaceWordCell[];
  readonly racers: readonly Racer[];
  readonly holders: readonly Holder[];
  readonly last: WordAccess | null;
  /** Every store so far that overwrote an update, for the fading marks (at: event index). */
  readonly lostAt: readonly number[];
  /** Adds the CPUs have made, and what the words count of them (their sum less the start). */
  readonly made: number;
  readonly counted: number;
}

const num = (v: number | bigint) => Number(v);

/** The value of the word (two, when wide) at addr, as a number to draw. */
const valueAt = (s: Int32Array, addr: number, wide: boolean): number =>
  num(wordValue(s, addr, wide ? 's64' : 's32'));

/** The words a run races on: the counter's global count, else its per-CPU words; or null. */
function wordsOf(run: Run): RaceWordCell[] | null {
  const { m } = run;
  const a = counterOf(m);
  if (!a) return null;
  const s = run.states[run.cursor] as Int32Array;
  if (a.count !== null && a.deltas === null) {
    const c = globalCell(m, a.count);
    if (!c) return null;
    return [{ label: c.label, addr: c.addr, wide: c.type === 's64', value: num(cellValue(s, c)) }];
  }
  if (a.deltas !== null && a.count === null) {
    const v = perCpuCell(m, a.deltas);
    if (!v) return null;
    const wide = v.type === 's64';
    return Array.from({ length: m.cpus }, (_, k) => ({
      label: `CPU${String(k)}'s ${v.label}`,
      addr: elementAddr(v, k),
      wide,
      value: num(elementValue(s, v, k)),
    }));
  }
  return null;
}

/** The race-word view of the state shown, or null for scenarios it does not draw. */
export function raceWord(run: Run): RaceWordView | null {
  const words = wordsOf(run);
  if (!words) return null;
  const { m } = run;
  const indexOf = new Map(words.map((w, i) => [w.addr, i]));
  const loaded = new Map<number, { word: number; value: number }>();
  const lostAt: number[] = [];
  let last: WordAccess | null = null;
  for (let at = 0; at < run.cursor; at++) {
    const x = executedAt(run, at);
    const word = x ? indexOf.get(x.addr) : undefined;
    if (!x || word === undefined) {
      last = null;
      continue;
    }
    const before = run.states[at] as Int32Array;
    const after = run.states[at + 1] as Int32Array;
    const wide = (words[word] as RaceWordCell).wide;
    const was = valueAt(before, x.addr, wide);
    const now = valueAt(after, x.addr, wide);
    const who = actorName(m, after, x.ctx);
    const op = x.ins.op;
    // One access a step: a load keeps a copy, a store or an atomic ends it.
    const kind =
      op === Op.Load || op === Op.Load64
        ? 'load'
        : op === Op.Store || op === Op.Store64
          ? 'store'
          : 'atomic';
    const had = loaded.get(x.ctx);
    // A store of a value computed from an old load: the change made since is gone.
    const overwrote =
      kind === 'store' && had !== undefined && had.word === word && had.value !== was;
    if (overwrote) lostAt.push(at);
    if (kind === 'load') loaded.set(x.ctx, { word, value: was });
    else loaded.delete(x.ctx);
    last = { kind, ctx: x.ctx, who, cpu: x.cpu, word, before: was, after: now, overwrote };
  }
  const s = run.states[run.cursor] as Int32Array;
  const holders: Holder[] = [...loaded].map(([ctx, h]) => ({
    ctx,
    who: actorName(m, s, ctx),
    cpu: ctxField(m, s, ctx, CTX_CPU),
    word: h.word,
    value: h.value,
    stale: (words[h.word] as RaceWordCell).value !== h.value,
  }));
  const start = run.states[0] as Int32Array;
  const startSum = words.reduce((t, w) => t + valueAt(start, w.addr, w.wide), 0);
  const sum = words.reduce((t, w) => t + w.value, 0);
  const racers: Racer[] = Array.from({ length: m.contexts }, (_, ctx) => {
    const cpu = ctxField(m, s, ctx, CTX_CPU);
    return {
      ctx,
      who: actorName(m, s, ctx),
      cpu,
      word: words.length === 1 ? 0 : Math.min(cpu, words.length - 1),
      irq: m.ctxKind[ctx] !== CtxKind.Task,
    };
  });
  return {
    words,
    racers,
    holders,
    last,
    lostAt,
    made: num(plus(0, totalTally(m, s))),
    counted: sum - startSum,
  };
}

/** The view in words: the chart's text equivalent. */
export function raceWordText(v: RaceWordView): string {
  const words = v.words.map((w) => `${w.label} = ${String(w.value)}`).join(', ');
  const held = v.holders.map(
    (h) =>
      `${h.who} holds ${String(h.value)} loaded from ${(v.words[h.word] as RaceWordCell).label}${h.stale ? ' (stale: the word has changed since)' : ''}`,
  );
  const lost = v.made - v.counted;
  const tally = `${String(v.made)} add${v.made === 1 ? '' : 's'} made, ${String(v.counted)} counted${lost > 0 ? `: ${String(lost)} lost` : ''}`;
  const last =
    v.last?.overwrote === true
      ? `${v.last.who} stored ${String(v.last.after)} over ${String(v.last.before)}, an update it never saw`
      : null;
  return [words, ...held, ...(last ? [last] : []), tally].join('. ') + '.';
}
