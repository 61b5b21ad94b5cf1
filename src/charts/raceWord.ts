// The picture of a counter with no per-CPU batching (nr_files++ on one shared int, an atomic or
// a spinlocked one, a per-CPU word a task and its interrupt both update): the word they race on,
// the copy each context has loaded and not yet stored back (stale once someone else has
// written), the last load or store as an arrow, an update a store overwrote, and the adds made
// against the adds the word counts. Under memory tso each CPU's store buffer is part of the
// picture: a store that waits there is drawn there, with memory unchanged, and a load that a
// buffered store answers is drawn from the buffer. A program that declares no counter (a herd7
// litmus test, a typed program of plain shared variables) gets the same picture of its shared
// variables, without the tally: there is no count to keep. Pure: RaceWord.tsx draws it.

import { plus } from '../machine/int64.ts';
import { eventCpu } from '../machine/events.ts';
import type { Run } from '../machine/executed.ts';
import { tallyOf } from '../machine/isa.ts';
import { CTX_CPU, CtxKind } from '../machine/machine.ts';
import { actorName } from '../machine/narrate.ts';
import { counterWords, wordNumber, wordSteps } from '../machine/overwrites.ts';
import { cellValue, ctxField, totalTally, valueText } from '../machine/read.ts';
import { bufferOf } from '../machine/tso.ts';

export interface RaceWordCell {
  /** "nr_files", or "CPU0's c" for a per-CPU word. */
  readonly label: string;
  readonly addr: number;
  /** A 64-bit word (two machine words: a `long` on a 64-bit CPU). */
  readonly wide: boolean;
  readonly value: number;
  /** The value as the lanes print it: a pointer by the name it points at (`&x`). */
  readonly shown: string;
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
  /** The value as the lanes print it (a pointer by name). */
  readonly shown: string;
  /** The word has changed since: storing this copy's result loses that change. */
  readonly stale: boolean;
}

/** The step shown, when it touched a word. */
export interface WordAccess extends AtWord {
  /** `flush`: the CPU's store buffer wrote its oldest store to the word. */
  readonly kind: 'load' | 'store' | 'atomic' | 'flush';
  /**
   * Where the value went or came from: `buffer` for a store that waits in the CPU's store
   * buffer (memory unchanged) or a load its own buffered store answered; else `memory`.
   */
  readonly via: 'memory' | 'buffer';
  /** The value loaded (as the CPU saw it) or the word before; the value stored or after. */
  readonly before: number;
  readonly after: number;
  /** The two as the lanes print them: a pointer by the name it points at (`&pc`). */
  readonly beforeShown: string;
  readonly afterShown: string;
  /** A store over a value its context never loaded: `before` is an update it wiped out. */
  readonly overwrote: boolean;
}

/** A store waiting in a CPU's store buffer (memory tso) to one of the words. */
export interface BufferedWord {
  readonly cpu: number;
  readonly word: number;
  readonly value: number;
  readonly shown: string;
}

/** One bar of the tally: what it counts, and how many. */
export interface TallyRow {
  readonly kind: 'made' | 'counted' | 'buffered';
  readonly label: string;
  readonly value: number;
}

/** A context that can touch the words, drawn as a box under the word it updates. */
export interface Racer extends AtWord {
  /** An interrupt handler (drawn dashed). */
  readonly irq: boolean;
}

export interface RaceWordView {
  readonly words: readonly RaceWordCell[];
  /**
   * The words are the program's shared variables, not a counter's: each is labelled by its
   * name, the contexts share the row below in order, and there is no tally.
   */
  readonly shared: boolean;
  readonly racers: readonly Racer[];
  readonly holders: readonly Holder[];
  readonly last: WordAccess | null;
  /** Every store so far that overwrote an update, for the fading marks (at: event index). */
  readonly lostAt: readonly number[];
  /** Memory tso: each CPU has a store buffer, drawn with its racers. */
  readonly tso: boolean;
  /** Stores to the words waiting in the CPUs' store buffers, each CPU's oldest first. */
  readonly buffers: readonly BufferedWord[];
  /**
   * Adds the program's add operation has made (null when the counter declares none: percpu-rwsem
   * only increments and decrements its words), what memory counts of them (the words' sum less
   * the start), and what waits in store buffers (their values less memory's).
   */
  readonly made: number | null;
  readonly counted: number;
  readonly buffered: number;
  /** The tally's bars, in the order drawn: only the ones that mean something here. */
  readonly tally: readonly TallyRow[];
  /** Adds made that neither memory nor a store buffer holds: overwritten. */
  readonly lost: number;
}

const num = (v: number | bigint) => Number(v);

/** The value of the word (two, when wide) at addr, as a number to draw. */
const valueAt = wordNumber;

/**
 * At most this many shared variables are drawn as words: a litmus test has two to four; a
 * program with more keeps its memory table.
 */
const MAX_SHARED = 4;

/**
 * The words a run races on: the counter's global count, else its per-CPU words; with no counter
 * declared, the program's shared variables when it has no per-CPU ones (those are drawn as bars);
 * or null.
 */
function wordsOf(run: Run): { words: RaceWordCell[]; shared: boolean } | null {
  const { m } = run;
  const s = run.states[run.cursor] as Int32Array;
  const cellOf = (label: string, addr: number, wide: boolean, v: number | bigint) => ({
    label,
    addr,
    wide,
    value: num(v),
    shown: valueText(m, v),
  });
  if (!m.layout.counter) {
    const cells = m.layout.cells;
    if (cells.some((c) => c.perCpu && c.type !== 'lock')) return null;
    const shared = cells.flatMap((c) => (c.perCpu || c.type === 'lock' ? [] : [c]));
    if (shared.length === 0 || shared.length > MAX_SHARED) return null;
    return {
      words: shared.map((c) => cellOf(c.label, c.addr, c.type === 's64', cellValue(s, c))),
      shared: true,
    };
  }
  const counter = counterWords(m, s);
  if (!counter) return null;
  return {
    words: counter.map((w) => cellOf(w.label, w.addr, w.wide, w.value)),
    shared: false,
  };
}

/** The race-word view of the state shown, or null for scenarios it does not draw. */
export function raceWord(run: Run): RaceWordView | null {
  const found = wordsOf(run);
  if (!found) return null;
  const { words, shared } = found;
  const { m } = run;
  const indexOf = new Map(words.map((w, i) => [w.addr, i]));
  const { steps, held: loaded } = wordSteps(run, words);
  const lostAt: number[] = [];
  let last: WordAccess | null = null;
  for (let at = 0; at < run.cursor; at++) {
    const step = steps[at];
    if (step === 'flush') {
      last = flushOf(run, at, words, indexOf);
      continue;
    }
    if (!step) {
      last = null;
      continue;
    }
    if (step.overwrote) lostAt.push(at);
    const after = run.states[at + 1] as Int32Array;
    last = {
      kind: step.kind,
      via: step.fromBuffer || step.entered !== null ? 'buffer' : 'memory',
      ctx: step.ctx,
      who: actorName(m, after, step.ctx),
      cpu: step.cpu,
      word: step.word,
      before: step.before,
      after: step.after,
      beforeShown: valueText(m, step.before),
      afterShown: valueText(m, step.after),
      overwrote: step.overwrote,
    };
  }
  const s = run.states[run.cursor] as Int32Array;
  const holders: Holder[] = [...loaded].map(([ctx, h]) => ({
    ctx,
    who: actorName(m, s, ctx),
    cpu: ctxField(m, s, ctx, CTX_CPU),
    word: h.word,
    value: h.value,
    shown: valueText(m, h.value),
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
  const tso = m.sbStride !== 0;
  const buffers: BufferedWord[] = [];
  let buffered = 0;
  for (let cpu = 0; tso && cpu < m.cpus; cpu++) {
    const newest = new Map<number, number>();
    for (const e of bufferOf(m, s, cpu)) {
      const word = indexOf.get(e.addr);
      if (word === undefined) continue;
      buffers.push({ cpu, word, value: num(e.value), shown: valueText(m, e.value) });
      newest.set(word, num(e.value));
    }
    // What this CPU's buffer will add to memory once it drains: its newest value of each word.
    for (const [word, value] of newest) buffered += value - (words[word] as RaceWordCell).value;
  }
  const counts = m.code.some((code) => code.some((ins) => tallyOf(ins) !== 0));
  const made = counts ? num(plus(0, totalTally(m, s))) : null;
  const counted = sum - startSum;
  const tally: TallyRow[] = shared
    ? []
    : [
        ...(made === null ? [] : [{ kind: 'made' as const, label: 'adds made', value: made }]),
        {
          kind: 'counted',
          // With no adds to count against, and under tso, the bar says where its figure is.
          label: made !== null && !tso ? 'counted' : 'in memory',
          value: counted,
        },
        ...(tso ? [{ kind: 'buffered' as const, label: 'in store buffers', value: buffered }] : []),
      ];
  return {
    words,
    shared,
    racers,
    holders,
    last,
    lostAt,
    tso,
    buffers,
    made,
    counted,
    buffered,
    tally,
    lost: made === null || shared ? 0 : Math.max(0, made - counted - buffered),
  };
}

/** A flush event that wrote a store to one of the words: drawn from the buffer to the word. */
function flushOf(
  run: Run,
  at: number,
  words: readonly RaceWordCell[],
  indexOf: ReadonlyMap<number, number>,
): WordAccess | null {
  const { m } = run;
  const ev = run.events[at] as number;
  const k = eventCpu(ev);
  const before = run.states[at] as Int32Array;
  const oldest = bufferOf(m, before, k)[0];
  const word = oldest ? indexOf.get(oldest.addr) : undefined;
  if (!oldest || word === undefined) return null;
  const w = words[word] as RaceWordCell;
  const after = run.states[at + 1] as Int32Array;
  // The buffer drawn is the CPU's: its first context on that CPU stands for it.
  let ctx = 0;
  while (ctx < m.contexts - 1 && ctxField(m, after, ctx, CTX_CPU) !== k) ctx++;
  return {
    kind: 'flush',
    via: 'buffer',
    ctx,
    who: `CPU${String(k)}'s store buffer`,
    cpu: k,
    word,
    before: valueAt(before, w.addr, w.wide),
    after: valueAt(after, w.addr, w.wide),
    beforeShown: valueText(m, valueAt(before, w.addr, w.wide)),
    afterShown: valueText(m, valueAt(after, w.addr, w.wide)),
    overwrote: false,
  };
}

/** The view in words: the chart's text equivalent. */
export function raceWordText(v: RaceWordView): string {
  const words = v.words.map((w) => `${w.label} = ${w.shown}`).join(', ');
  const held = v.holders.map(
    (h) =>
      `${h.who} holds ${h.shown} loaded from ${(v.words[h.word] as RaceWordCell).label}${h.stale ? ' (stale: the word has changed since)' : ''}`,
  );
  const buffered = v.buffers.map(
    (b) =>
      `${(v.words[b.word] as RaceWordCell).label} = ${b.shown} waits in CPU${String(b.cpu)}'s store buffer`,
  );
  const tally =
    v.tally
      .map(
        (r) =>
          `${String(r.value)} ${r.label === 'adds made' ? `add${r.value === 1 ? '' : 's'} made` : r.label}`,
      )
      .join(', ') + (v.lost > 0 ? `: ${String(v.lost)} lost` : '');
  const last =
    v.last?.overwrote === true
      ? `${v.last.who} stored ${v.last.afterShown} over ${v.last.beforeShown}, an update it never saw`
      : null;
  return (
    [words, ...buffered, ...held, ...(last ? [last] : []), ...(tally ? [tally] : [])].join('. ') +
    '.'
  );
}
