// Which instruction each `step` event of a run executed: the base of everything that explains a
// run after the fact (the charts, and the room's questions about lost adds). Derived from the
// states and events alone, so it holds for any scenario and needs no browser.

import { Ev, eventCpu, eventType } from './events.ts';
import { topContext } from './interpreter.ts';
import type { Instr } from './isa.ts';
import { ctxBase, CTX_CPU, CTX_PC } from './machine.ts';
import { operandAddress } from './read.ts';
import type { Timeline } from './timeline.ts';

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
