// What a Step-mode timeline did, instruction by instruction: the pure base of the charts that
// explain a step (the sweep of a sum, a fold's pour, a torn read). Derived from the states and
// events alone, so it holds for any scenario and is tested without a browser.

import { Ev, eventCpu, eventType } from '../machine/events.ts';
import { topContext } from '../machine/interpreter.ts';
import type { Instr } from '../machine/isa.ts';
import type { Cell, CounterAnatomy, PerCpuCell } from '../machine/layout.ts';
import { ctxBase, CTX_CPU, CTX_PC, type Machine } from '../machine/machine.ts';
import { cellValue, globalCell, operandAddress, perCpuCell } from '../machine/read.ts';
import type { Timeline } from '../machine/timeline.ts';

/** A timeline without its narration: the machine, every state and event, and the cursor. */
export type Run = Pick<Timeline, 'm' | 'states' | 'events' | 'cursor'>;

/** The visible instruction one `step` event ran. */
export interface Executed {
  /** Index of the event (0-based): it took states[at] to states[at + 1]. */
  readonly at: number;
  readonly ctx: number;
  /** The CPU the context was on when it ran the instruction. */
  readonly cpu: number;
  readonly ins: Instr;
  /** Word address of its memory operand, or −1. */
  readonly addr: number;
}

/** The instruction event `at` ran, or null for IRQ, NMI, preemption and migration events. */
export function executedAt(run: Run, at: number): Executed | null {
  const ev = run.events[at];
  if (ev === undefined || eventType(ev) !== Ev.Step) return null;
  const { m } = run;
  const s = run.states[at] as Int32Array;
  const ctx = topContext(m, s, eventCpu(ev));
  if (ctx < 0) return null;
  const cb = ctxBase(m, ctx);
  const ins = (m.code[ctx] as readonly Instr[])[s[cb + CTX_PC] as number];
  if (!ins) return null;
  const cpu = s[cb + CTX_CPU] as number;
  return { at, ctx, cpu, ins, addr: operandAddress(s, cb, ins) };
}

/** What the machine's counter is made of, as its program declares it (null: no counter). */
export function counterOf(m: Machine): CounterAnatomy | null {
  return m.layout.counter;
}

/**
 * The counter's global part as the chart draws it: fbc->count, or, while a tagged word is in
 * atomic mode (bit 0 set), that word's value (shifted right by one), which is where the count is.
 */
export function globalPart(
  m: Machine,
  s: Int32Array,
  global: Cell,
): { label: string; value: number | bigint; atomic: boolean } {
  const name = m.layout.counter?.tagged;
  const tagged = name ? globalCell(m, name) : undefined;
  if (tagged) {
    const t = BigInt(cellValue(s, tagged));
    if ((t & 1n) === 1n) return { label: tagged.label, value: t >> 1n, atomic: true };
  }
  return { label: global.label, value: cellValue(s, global), atomic: false };
}

/** The counter parts the charts draw: the global count and the per-CPU deltas (or null). */
export function counterCells(m: Machine): { global: Cell; slots: PerCpuCell } | null {
  const a = counterOf(m);
  if (!a || a.count === null || a.deltas === null) return null;
  const slots = perCpuCell(m, a.deltas);
  const global = globalCell(m, a.count);
  return slots && global ? { global, slots } : null;
}
