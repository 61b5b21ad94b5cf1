// Reading a state the way observables and invariants need: cells by name, results, tallies.

import { ctxBase, CTX_TALLY, type Machine } from '../machine/machine.ts';
import { add64, pairValue } from '../machine/int64.ts';
import type { AnyCell } from '../machine/layout.ts';

function findCell(m: Machine, name: string): AnyCell {
  const cell = m.layout.cells.find((c) => c.name === name);
  if (!cell) throw new Error(`no cell named ${name}`);
  return cell;
}

function wordValue(s: Int32Array, addr: number, type: AnyCell['type']): number | bigint {
  return type === 's64' ? pairValue(s[addr] as number, s[addr + 1] as number) : (s[addr] as number);
}

/** A global cell's value. */
export function readCell(m: Machine, s: Int32Array, name: string): number | bigint {
  const cell = findCell(m, name);
  if (cell.perCpu) throw new Error(`${name} is per-CPU`);
  return wordValue(s, cell.addr, cell.type);
}

/** A per-CPU variable's values, CPU 0 first. */
export function readPerCpu(m: Machine, s: Int32Array, name: string): (number | bigint)[] {
  const cell = findCell(m, name);
  if (!cell.perCpu) throw new Error(`${name} is not per-CPU`);
  const out: (number | bigint)[] = [];
  for (let i = 0; i < cell.count; i++)
    out.push(wordValue(s, cell.base + i * cell.stride, cell.type));
  return out;
}

/** The values recorded in a result slot (what successive sum() or read() calls returned). */
export function readResults(m: Machine, s: Int32Array, name: string): (number | bigint)[] {
  const slot = m.layout.results.find((r) => r.name === name);
  if (!slot) throw new Error(`no result slot named ${name}`);
  const at = m.resOff + slot.offset;
  const n = s[at] as number;
  const out: (number | bigint)[] = [];
  for (let i = 0; i < n; i++)
    out.push(pairValue(s[at + 1 + 2 * i] as number, s[at + 2 + 2 * i] as number));
  return out;
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
