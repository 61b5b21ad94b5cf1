// Reading a state the way people see it: where an instruction's memory operand is, the fields
// of a CPU or a context, and the program's variables by name. The one home of "which word does
// this instruction touch" (the interpreter, the narration, Explore's reductions and the charts
// all ask here) and of "what does variable x hold": the language's clauses, the scenarios'
// observables, Live's readings, the Step view and the charts all read cells, per-CPU elements,
// result slots and tallies here. Hot loops in explore/ and live/ may still read raw offsets
// (cpuBase, ctxBase and the field constants).
//
// Values are exact: a number, or a bigint past 2^53 (a 64-bit cell); a chart that draws one
// takes Number() of it, the language's clauses BigInt().

import { add64, pairValue } from './int64.ts';
import type { Instr } from './isa.ts';
import { Mode, POINTER_BASE, pointerAddress } from './isa.ts';
import {
  type AnyCell,
  type Cell,
  cellAt,
  type CellType,
  type PerCpuCell,
  type ResultSlot,
} from './layout.ts';
import { ctxBase, CTX_CPU, CTX_PC, CTX_REGS, CTX_TALLY, cpuBase, type Machine } from './machine.ts';
import { memo } from './memo.ts';

/**
 * The word address of `ins`'s memory operand when the context whose record starts at `cb` runs
 * it in state s (a per-CPU operand is the element of the CPU the context is on now), or −1 when
 * it has none. Not bounds-checked: the interpreter checks before it touches memory.
 */
export function operandAddress(s: Int32Array, cb: number, ins: Instr): number {
  switch (ins.mode) {
    case Mode.Abs:
      return ins.base;
    case Mode.ThisCpu:
      return ins.base + (s[cb + CTX_CPU] as number) * ins.stride;
    case Mode.Reg:
      return pointerAddress(s[cb + CTX_REGS + 2 * ins.areg] as number);
    case Mode.Indexed:
      return ins.base + (s[cb + CTX_REGS + 2 * ins.areg] as number) * ins.stride;
    default:
      return -1;
  }
}

/** Field `field` (CPU_PREEMPT, CPU_IRQ_ON…) of CPU k in state s. */
export function cpuField(m: Machine, s: Int32Array, k: number, field: number): number {
  return s[cpuBase(m, k) + field] as number;
}

/** Field `field` (CTX_PC, CTX_CPU…) of context c in state s. */
export function ctxField(m: Machine, s: Int32Array, c: number, field: number): number {
  return s[ctxBase(m, c) + field] as number;
}

/** Register r of context c in state s, as a number (or a bigint beyond 2^53). */
export function registerValue(m: Machine, s: Int32Array, c: number, r: number): number | bigint {
  return pairAt(s, ctxBase(m, c) + CTX_REGS + 2 * r);
}

/** The instruction context c runs next, or undefined when it has finished. */
/**
 * What a register's value points to, when it is a pointer into the program's memory: the cell
 * and, for a per-CPU variable, whose element (`{ name: 'nr_files', cpu: 0 }`); else null.
 * Pointers are biased by POINTER_BASE (isa.ts), so a small number is never taken for one; a
 * number that happens to equal a biased address (2^30 and more) is read as the pointer.
 */
export function pointee(
  m: Machine,
  v: number | bigint | null,
): { readonly name: string; readonly cpu: number } | null {
  if (v === null) return null;
  const n = Number(v) - POINTER_BASE;
  if (n < 0 || n >= m.memWords || !Number.isInteger(n)) return null;
  const at = cellAt(m.layout, n);
  return at ? { name: at.cell.name, cpu: at.cpu } : null;
}

/** A register's value as C would name it: `&x`, `&per_cpu(x, 1)` for a pointer, else the number. */
export function valueText(m: Machine, v: number | bigint): string {
  const p = pointee(m, v);
  if (!p) return String(v);
  return p.cpu >= 0 ? `&per_cpu(${p.name}, ${String(p.cpu)})` : `&${p.name}`;
}

/**
 * A cpumask as the set of CPUs it holds, `{0,2}` (`{}`: none): cpu_online_mask and
 * cpu_dying_mask are sets of CPUs, and 5 says CPU 0 and CPU 2 only to someone who decodes bits.
 * No spaces, so it stays one token in a `name=value` line.
 */
export function cpuSetText(mask: number | bigint): string {
  const bits = Number(mask) >>> 0;
  const cpus: number[] = [];
  for (let k = 0; k < 32; k++) if ((bits & (2 ** k)) !== 0) cpus.push(k);
  return `{${cpus.join(',')}}`;
}

/** Whether the word at `addr` is cpu_online_mask or cpu_dying_mask (a hotplug machine's masks). */
export function isCpuMask(m: Machine, addr: number): boolean {
  const hp = m.hotplug;
  return hp !== null && (addr === hp.online || addr === hp.dying);
}

export function nextInstr(m: Machine, s: Int32Array, c: number): Instr | undefined {
  return m.code[c]?.[ctxField(m, s, c, CTX_PC)];
}

/** Asked for a variable or a result slot by a name this machine does not have. */
export class MissingCell extends Error {
  override readonly name = 'MissingCell';
  constructor(
    readonly cell: string,
    readonly wanted: 'global variable' | 'per-CPU variable' | 'result slot',
  ) {
    super(`this machine has no ${wanted} named ${cell}`);
  }
}

/** The 64-bit value whose low word is at `at` (a number, or a bigint past 2^53). */
export function pairAt(s: Int32Array, at: number): number | bigint {
  return pairValue(s[at] as number, s[at + 1] as number);
}

/** The value of a cell of type `type` whose (first) word is at `addr`. */
export function wordValue(s: Int32Array, addr: number, type: CellType): number | bigint {
  return type === 's64' ? pairAt(s, addr) : (s[addr] as number);
}

const cellCache = new WeakMap<Machine, ReadonlyMap<string, AnyCell>>();
const cellsByName = (m: Machine): ReadonlyMap<string, AnyCell> =>
  new Map(m.layout.cells.map((c) => [c.name, c]));

/** A global variable by name, or null. */
export function globalCell(m: Machine, name: string): Cell | null {
  const c = memo(cellCache, m, cellsByName).get(name);
  return c && !c.perCpu ? c : null;
}

/** A per-CPU variable by name, or null. */
export function perCpuCell(m: Machine, name: string): PerCpuCell | null {
  const c = memo(cellCache, m, cellsByName).get(name);
  return c?.perCpu ? c : null;
}

/** A global variable by name; throws MissingCell. */
export function globalNamed(m: Machine, name: string): Cell {
  const c = globalCell(m, name);
  if (!c) throw new MissingCell(name, 'global variable');
  return c;
}

/** A per-CPU variable by name; throws MissingCell. */
export function perCpuNamed(m: Machine, name: string): PerCpuCell {
  const c = perCpuCell(m, name);
  if (!c) throw new MissingCell(name, 'per-CPU variable');
  return c;
}

/** A global cell's value in state s. */
export function cellValue(s: Int32Array, c: Cell): number | bigint {
  return wordValue(s, c.addr, c.type);
}

/** The word CPU k's element of per-CPU variable v starts at. */
export function elementAddr(v: PerCpuCell, k: number): number {
  return v.base + k * v.stride;
}

/** CPU k's element of per-CPU variable v in state s. */
export function elementValue(s: Int32Array, v: PerCpuCell, k: number): number | bigint {
  return wordValue(s, elementAddr(v, k), v.type);
}

/** Every CPU's element of per-CPU variable v in state s, CPU 0 first. */
export function perCpuValues(s: Int32Array, v: PerCpuCell): (number | bigint)[] {
  return Array.from({ length: v.count }, (_, k) => elementValue(s, v, k));
}

/** Global variable `name`'s value in state s. */
export function readCell(m: Machine, s: Int32Array, name: string): number | bigint {
  return cellValue(s, globalNamed(m, name));
}

/** CPU k's element of per-CPU variable `name` in state s. */
export function readElement(m: Machine, s: Int32Array, name: string, k: number): number | bigint {
  return elementValue(s, perCpuNamed(m, name), k);
}

/** Per-CPU variable `name`'s values in state s, CPU 0 first. */
export function readPerCpu(m: Machine, s: Int32Array, name: string): (number | bigint)[] {
  return perCpuValues(s, perCpuNamed(m, name));
}

const slotCache = new WeakMap<Machine, ReadonlyMap<string, ResultSlot>>();
const slotsByName = (m: Machine): ReadonlyMap<string, ResultSlot> =>
  new Map(m.layout.results.map((r) => [r.name, r]));

/** A result slot by name; throws MissingCell. */
export function resultSlot(m: Machine, name: string): ResultSlot {
  const slot = memo(slotCache, m, slotsByName).get(name);
  if (!slot) throw new MissingCell(name, 'result slot');
  return slot;
}

/** Where result slot `name` starts in a state (its count word; the values follow, two words each). */
export function resultAt(m: Machine, name: string): number {
  return m.resOff + resultSlot(m, name).offset;
}

/** The values recorded in result slot `name` (what successive record(), sum() or read() gave). */
export function readResults(m: Machine, s: Int32Array, name: string): (number | bigint)[] {
  const at = resultAt(m, name);
  const n = s[at] as number;
  return Array.from({ length: n }, (_, i) => pairAt(s, at + 1 + 2 * i));
}

/** Sum of every context's tally (what all tasks and handlers added), exact at 64 bits. */
export function totalTally(m: Machine, s: Int32Array): number | bigint {
  const acc = new Int32Array(2);
  for (let c = 0; c < m.contexts; c++) {
    const t = ctxBase(m, c) + CTX_TALLY;
    add64(acc, 0, acc[0] as number, acc[1] as number, s[t] as number, s[t + 1] as number);
  }
  return pairValue(acc[0] as number, acc[1] as number);
}
