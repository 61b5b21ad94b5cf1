// Which store overwrote an update it never saw, and whose add that update was: the lost update
// the lab is about, found step by step in a run. The race-word chart draws it (an arrow, a
// fading mark) and the room's "whose add is lost?" question asks it; both read it from here so
// the stage and the question can never disagree about which store lost what.
//
// A store overwrites when its context loaded the word, the word changed since, and the store
// writes back a value computed from the old load: every write to the word in between is gone.

import { Ev, eventType } from './events.ts';
import { executedAt, type Run } from './executed.ts';
import { Op } from './isa.ts';
import type { Machine } from './machine.ts';
import { cellValue, elementAddr, elementValue, globalCell, perCpuCell, wordValue } from './read.ts';
import { bufferOf, type BufferedStore, seenWord } from './tso.ts';

/** A word the run is watched on: its address and width. */
export interface WatchedWord {
  readonly addr: number;
  /** A 64-bit word (two machine words: a `long` on a 64-bit CPU). */
  readonly wide: boolean;
}

/** A counter word, with its label and its value in the state it was read from. */
export interface CounterWord extends WatchedWord {
  /** "nr_files", or "CPU0's c" for a per-CPU word. */
  readonly label: string;
  readonly value: number | bigint;
}

/** One step that touched a watched word. */
export interface WordStep {
  /** Index of the event: it took states[at] to states[at + 1]. */
  readonly at: number;
  readonly kind: 'load' | 'store' | 'atomic';
  readonly ctx: number;
  /** The CPU the context was on. */
  readonly cpu: number;
  /** Index into the watched words. */
  readonly word: number;
  /** A load its own CPU's buffered store answered (memory tso), not memory. */
  readonly fromBuffer: boolean;
  /** The value loaded (as the CPU saw it), or the word before a store or an atomic. */
  readonly before: number;
  /** The value a store put in its CPU's store buffer (memory unchanged), or null. */
  readonly entered: number | null;
  /** The value stored (or entered), or the word after. */
  readonly after: number;
  /** A store over a value its context never loaded: `before` is an update it wiped out. */
  readonly overwrote: boolean;
  /**
   * The contexts whose writes to the word since this store's load it wiped out, in the order
   * they wrote (empty unless `overwrote`): whose adds are lost.
   */
  readonly wiped: readonly number[];
}

/** A value a context loaded from a watched word and has not stored back yet. */
export interface Held {
  readonly word: number;
  readonly value: number;
  /** The event that loaded it. */
  readonly at: number;
}

export interface WordSteps {
  /**
   * One entry per event before the run's cursor: the step at a watched word, `flush` for a
   * store buffer's flush, or null for any other event.
   */
  readonly steps: readonly (WordStep | 'flush' | null)[];
  /** What each context holds at the cursor, by context, in the order they loaded. */
  readonly held: ReadonlyMap<number, Held>;
}

/** The value of the word (two, when wide) at addr, as a number to draw or compare. */
export const wordNumber = (s: Int32Array, addr: number, wide: boolean): number =>
  Number(wordValue(s, addr, wide ? 's64' : 's32'));

/**
 * The words a counter with no per-CPU batching races on, read in state `s`: its global count,
 * or its per-CPU words (one per CPU); null when the program declares no counter, or one with
 * both parts (that is the per-CPU counter's picture, not a race on one word).
 */
export function counterWords(m: Machine, s: Int32Array): CounterWord[] | null {
  const a = m.layout.counter;
  if (!a) return null;
  if (a.count !== null && a.deltas === null) {
    const c = globalCell(m, a.count);
    if (!c) return null;
    return [{ label: c.label, addr: c.addr, wide: c.type === 's64', value: cellValue(s, c) }];
  }
  if (a.deltas !== null && a.count === null) {
    const v = perCpuCell(m, a.deltas);
    if (!v) return null;
    const wide = v.type === 's64';
    return Array.from({ length: m.cpus }, (_, k) => ({
      label: `CPU${String(k)}'s ${v.label}`,
      addr: elementAddr(v, k),
      wide,
      value: elementValue(s, v, k),
    }));
  }
  return null;
}

/** Every step of `run` up to its cursor at the watched words, and what is held at the cursor. */
export function wordSteps(run: Run, words: readonly WatchedWord[]): WordSteps {
  const { m } = run;
  const indexOf = new Map(words.map((w, i) => [w.addr, i]));
  const loaded = new Map<number, Held>();
  // Who wrote each word, and when: the writes a late store wipes out.
  const writes = words.map(() => [] as { at: number; ctx: number }[]);
  const steps: (WordStep | 'flush' | null)[] = [];
  for (let at = 0; at < run.cursor; at++) {
    const before = run.states[at] as Int32Array;
    const after = run.states[at + 1] as Int32Array;
    const ev = run.events[at];
    if (ev !== undefined && eventType(ev) === Ev.Flush) {
      steps.push('flush');
      continue;
    }
    const x = executedAt(run, at);
    const word = x ? indexOf.get(x.addr) : undefined;
    if (!x || word === undefined) {
      steps.push(null);
      continue;
    }
    const wide = (words[word] as WatchedWord).wide;
    const op = x.ins.op;
    // One access a step: a load keeps a copy, a store or an atomic ends it.
    const kind =
      op === Op.Load || op === Op.Load64
        ? 'load'
        : op === Op.Store || op === Op.Store64
          ? 'store'
          : 'atomic';
    // Under tso a load reads the CPU's newest buffered store to the word, if any: what it saw.
    const seen = m.sbStride === 0 ? null : seenWord(m, before, x.cpu, x.addr);
    const memWas = wordNumber(before, x.addr, wide);
    const fromBuffer =
      kind === 'load' && !wide && seen !== null && seen !== (before[x.addr] as number);
    const was = fromBuffer ? seen : memWas;
    // A store that entered the buffer leaves memory as it was: its value is the newest entry.
    const entered = kind !== 'load' ? enteredBuffer(run, at, x.cpu, x.addr) : null;
    const now = entered ?? wordNumber(after, x.addr, wide);
    const had = loaded.get(x.ctx);
    // A store of a value computed from an old load: the change made since is gone.
    const overwrote =
      kind === 'store' &&
      entered === null &&
      had !== undefined &&
      had.word === word &&
      had.value !== was;
    const wiped = overwrote
      ? [...new Set((writes[word] ?? []).filter((w) => w.at > had.at).map((w) => w.ctx))]
      : [];
    if (kind === 'load') loaded.set(x.ctx, { word, value: was, at });
    else loaded.delete(x.ctx);
    if (kind !== 'load' && entered === null) writes[word]?.push({ at, ctx: x.ctx });
    steps.push({
      at,
      kind,
      ctx: x.ctx,
      cpu: x.cpu,
      word,
      fromBuffer,
      before: was,
      entered,
      after: now,
      overwrote,
      wiped,
    });
  }
  return { steps, held: loaded };
}

/** The value CPU k's step at `at` put in its store buffer for addr, or null if none entered. */
function enteredBuffer(run: Run, at: number, k: number, addr: number): number | null {
  const { m } = run;
  if (m.sbStride === 0) return null;
  const before = bufferOf(m, run.states[at] as Int32Array, k);
  const after = bufferOf(m, run.states[at + 1] as Int32Array, k);
  const newest = after[after.length - 1];
  // A FIFO only gains at its end (a full one first loses its oldest): a new last entry.
  const same = (a: BufferedStore | undefined, b: BufferedStore | undefined) =>
    a !== undefined && b !== undefined && a.addr === b.addr && a.value === b.value;
  const grew =
    after.length > before.length ||
    (after.length > 0 &&
      after.length === before.length &&
      after.slice(0, -1).every((e, i) => same(e, before[i + 1])));
  return newest && newest.addr === addr && grew ? Number(newest.value) : null;
}
