// What a Step-mode timeline did, instruction by instruction: the pure base of the charts that
// explain a step (the sweep of a sum, a fold's pour, a torn read). Derived from the states and
// events alone, so it holds for any scenario and is tested without a browser.

import { Ev, eventCpu, eventType } from '../machine/events.ts';
import { pairValue } from '../machine/int64.ts';
import { topContext } from '../machine/interpreter.ts';
import type { Instr } from '../machine/isa.ts';
import {
  type AnyCell,
  type Cell,
  type CounterAnatomy,
  type PerCpuCell,
} from '../machine/layout.ts';
import { ctxBase, CTX_CPU, CTX_PC, type Machine } from '../machine/machine.ts';
import { operandAddress } from '../machine/read.ts';

/** A timeline: the machine, every state (states[i + 1] follows events[i]) and the cursor. */
export interface Run {
  readonly m: Machine;
  readonly states: readonly Int32Array[];
  readonly events: readonly number[];
  /** How many events the state shown has taken. */
  readonly cursor: number;
}

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

/** A global cell by name, or null. */
export function globalCell(m: Machine, name: string): Cell | null {
  const c = m.layout.cells.find((x: AnyCell) => x.name === name);
  return c && !c.perCpu ? c : null;
}

/** A per-CPU cell by name, or null. */
export function perCpuCell(m: Machine, name: string): PerCpuCell | null {
  const c = m.layout.cells.find((x: AnyCell) => x.name === name);
  return c?.perCpu ? c : null;
}

/** A global cell's value in a state (s64 cells as one number, or a bigint past 2^53). */
export function cellValue(s: Int32Array, c: Cell): number | bigint {
  return c.type === 's64'
    ? pairValue(s[c.addr] as number, s[c.addr + 1] as number)
    : (s[c.addr] as number);
}

/** What the machine's counter is made of, as its program declares it (null: no counter). */
export function counterOf(m: Machine): CounterAnatomy | null {
  return m.layout.counter;
}

/** The counter parts the charts draw: the global count and the per-CPU deltas (or null). */
export function counterCells(m: Machine): { global: Cell; slots: PerCpuCell } | null {
  const a = counterOf(m);
  if (!a || a.count === null || a.deltas === null) return null;
  const slots = perCpuCell(m, a.deltas);
  const global = globalCell(m, a.count);
  return slots && global ? { global, slots } : null;
}

/** The word index CPU k's element of `v` lives at. */
export function slotAddr(v: PerCpuCell, k: number): number {
  return v.base + k * v.stride;
}
