// Partial-order reduction (`--por`): when CPU k's next step touches only words no other CPU can
// touch, running it first loses nothing, so the explorer expands that one step instead of every
// event (an ample set of one, Peled's conditions C0–C3):
// - independent: the words the step reads and writes (its context, CPU k's fields, memory that
//   only CPU k's contexts can ever address) are touched by no event of another CPU, and no other
//   event of CPU k (IRQ, NMI, preemption, migration) is possible now or later before the step:
//   its budget is spent or CPU k's own state rules it out (interrupts or preemption off, in a
//   handler), which only CPU k's own steps change;
// - invisible: the step records no result, and writes memory only when every always-invariant
//   reads results alone (`reads: 'results'`), so no invariant can change with it;
// - the step does not end a task that another CPU could still migrate a task to;
// - cycles: the explorer expands every event when the one step leads to a node it has already
//   met (every cycle then holds a fully expanded node).
// Outcomes are those of the full exploration (tested on every scenario); witnesses are real
// schedules but need not be the cheapest.

import {
  cpuBase,
  ctxBase,
  CtxKind,
  CPU_IRQ_ON,
  CTX_PC,
  type Machine,
  sbBase,
} from '../machine/machine.ts';
import { type Instr, Mode, Op, touchesMemory } from '../machine/isa.ts';
import { topContext } from '../machine/interpreter.ts';
import { operandAddress } from '../machine/read.ts';
import { Legal, legalOn } from '../machine/events.ts';
import type { Scenario } from '../scenarios/types.ts';

/** The local code after a visible instruction may record a result. */
const RECORDS = 1;
/** ... or run off the end of the program. */
const ENDS = 2;
/** ... or add to the context's tally (Op.Tally: an add completing at its call's return). */
const TALLIES = 4;

export interface PrivateSteps {
  /** A CPU whose next step may be explored alone in state s, or −1. `used`: budget spent. */
  pick(s: Int32Array, used: readonly number[], limits: readonly number[]): number;
}

/** The analysis for machine m, or why the reduction does not apply. */
export function privateSteps(sc: Scenario, m: Machine, migrations: number): PrivateSteps | string {
  if (m.cpus > 31) return 'more than 31 CPUs';
  const all = m.cpus === 31 ? 0x7fffffff : (1 << m.cpus) - 1;
  const cpusOf = (c: number) =>
    m.ctxKind[c] !== CtxKind.Task || migrations === 0 ? 1 << (m.ctxHome[c] as number) : all;
  // Which CPUs may address each memory word.
  const who = new Int32Array(m.memWords);
  const mark = (a: number, cpus: number) => {
    if (a >= 0 && a < m.memWords) who[a] = (who[a] as number) | cpus;
  };
  let recordsTotal = false;
  m.code.forEach((code, c) => {
    const cpus = cpusOf(c);
    for (const ins of code) {
      if (ins.op === Op.RecordTotal) recordsTotal = true;
      if (!touchesMemory(ins.op)) continue;
      const words = ins.width === 64 ? 2 : 1;
      if (ins.mode === Mode.Abs) for (let w = 0; w < words; w++) mark(ins.base + w, cpus);
      else if (ins.mode === Mode.ThisCpu) {
        for (let j = 0; j < m.cpus; j++) {
          if ((cpus & (1 << j)) === 0) continue;
          for (let w = 0; w < words; w++) mark(ins.base + j * ins.stride + w, cpus);
        }
      } else {
        // Through a register: any word (a per_cpu_ptr walk reaches every CPU's element).
        for (let a = 0; a < m.memWords; a++) mark(a, cpus);
      }
    }
  });
  const memoryInvisible = sc.invariants.every((i) => i.when !== 'always' || i.reads === 'results');
  const after = m.code.map((code) => code.map((_, pc) => localsAfter(code, pc + 1)));
  const { code: programs, ctxKind } = m;

  const alone = (s: Int32Array, k: number, used: readonly number[], limits: readonly number[]) => {
    const top = topContext(m, s, k);
    if (top < 0) return false;
    const cb = ctxBase(m, top);
    const pc = s[cb + CTX_PC] as number;
    const ins = (programs[top] as readonly Instr[])[pc] as Instr;
    if (ins.op === Op.Halt) return false;
    // Under TSO, a CPU with stores waiting could flush one before or after the step, and a flush
    // writes memory other CPUs read: with its buffer empty, no flush of it can come first.
    if (m.sbStride !== 0 && s[sbBase(m, k)] !== 0) return false;
    const flags = (after[top] as number[])[pc] as number;
    if ((flags & RECORDS) !== 0) return false;
    // A tally changes the exact total that another CPU's RecordTotal may be about to read.
    if (recordsTotal && (flags & TALLIES) !== 0) return false;
    const ends = (flags & ENDS) !== 0;
    if (ends && ctxKind[top] === CtxKind.Task && (used[3] as number) < (limits[3] as number))
      return false;
    if (touchesMemory(ins.op)) {
      if (writesMemory(ins) && (!memoryInvisible || (recordsTotal && ins.tally !== 0)))
        return false;
      const a = operandAddress(s, cb, ins);
      const me = 1 << k;
      if (a < 0 || who[a] !== me) return false;
      if (ins.width === 64 && who[a + 1] !== me) return false;
    } else if (!schedulingOnly(ins)) return false;
    // Other events of CPU k, by the machine's own legality rules (events.ts): each must be
    // out of budget, or (an IRQ with interrupts off) only able to wait for CPU k's own step.
    const legal = legalOn(m, s, k);
    const left = (slot: number) => (used[slot] as number) < (limits[slot] as number);
    if ((legal & Legal.Nmi) !== 0 && left(1)) return false;
    if ((legal & Legal.Irq) !== 0 && left(0)) {
      const enables = ins.op === Op.IrqEnable || ins.op === Op.IrqRestore;
      if (s[cpuBase(m, k) + CPU_IRQ_ON] !== 0 || enables || ends) return false;
    }
    // A preemption, or a migration (which could also bring k a second task to preempt to).
    if ((legal & Legal.Preempt) !== 0 && left(2)) return false;
    if ((legal & Legal.Migrate) !== 0 && left(3)) return false;
    return true;
  };

  return {
    pick(s, used, limits) {
      for (let k = 0; k < m.cpus; k++) if (alone(s, k, used, limits)) return k;
      return -1;
    },
  };
}

function writesMemory(ins: Instr): boolean {
  return !(
    ins.op === Op.Load ||
    ins.op === Op.Load64 ||
    ins.op === Op.LoadLo ||
    ins.op === Op.LoadHi
  );
}

/** Visible instructions that touch only the CPU's own fields and the context's registers. */
function schedulingOnly(ins: Instr): boolean {
  return !touchesMemory(ins.op) && ins.op < Op.FirstLocal;
}

/** What the local code from `start` up to the next visible instruction may do (RECORDS…). */
function localsAfter(code: readonly Instr[], start: number): number {
  let flags = 0;
  const seen = new Set<number>();
  const todo = [start];
  while (todo.length > 0) {
    const pc = todo.pop() as number;
    if (seen.has(pc)) continue;
    seen.add(pc);
    if (pc >= code.length) {
      flags |= ENDS;
      continue;
    }
    const ins = code[pc] as Instr;
    if (ins.op < Op.FirstLocal) continue;
    if (ins.op === Op.Record || ins.op === Op.RecordTotal) flags |= RECORDS;
    if (ins.op === Op.Tally) flags |= TALLIES;
    if (ins.op === Op.Branch) todo.push(pc + 1, ins.target);
    else if (ins.op === Op.Jump) todo.push(ins.target);
    else todo.push(pc + 1);
  }
  return flags;
}
