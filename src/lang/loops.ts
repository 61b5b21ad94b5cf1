// Which loops need a bound. A loop whose turns carry nothing from one to the next in registers
// (a retry that reloads what it tests, a spin on a flag) returns to a state already met, so
// Explore terminates on it without help; a loop that carries a register across turns (a counter,
// an accumulator) could make every turn a new state, so it gets a hidden counter and stops at the
// program's loop bound. Decided on the first pass's instructions by liveness: a loop carries state
// when a register it writes is live at its head.

import { Mode, Op } from '../machine/isa.ts';
import type { Draft } from './emit.ts';

/** Registers an instruction reads. */
function uses(d: Draft): number[] {
  const out: number[] = [];
  if (d.src >= 0) out.push(d.src);
  if (!d.useImm && d.src2 >= 0) out.push(d.src2);
  if ((d.mode === Mode.Reg || d.mode === Mode.Indexed) && d.areg >= 0) out.push(d.areg);
  // A half load writes one word of its register and keeps the other.
  if ((d.op === Op.LoadLo || d.op === Op.LoadHi) && d.dst >= 0) out.push(d.dst);
  return out;
}

/** The register an instruction overwrites whole, or −1. */
function kills(d: Draft): number {
  if (d.dst < 0 || d.op === Op.LoadLo || d.op === Op.LoadHi) return -1;
  return d.dst;
}

function successors(drafts: readonly Draft[], pc: number): number[] {
  const d = drafts[pc] as Draft;
  const target = d.to ? d.to.pc : -1;
  if (d.op === Op.Jump) return [target];
  if (d.op === Op.Halt) return [];
  if (d.op === Op.Branch) return [pc + 1, target];
  return [pc + 1];
}

/** The registers live before each instruction (backward dataflow to a fixed point). */
function liveness(drafts: readonly Draft[]): Set<number>[] {
  const n = drafts.length;
  const live: Set<number>[] = Array.from({ length: n + 1 }, () => new Set());
  let changed = true;
  while (changed) {
    changed = false;
    for (let pc = n - 1; pc >= 0; pc--) {
      const d = drafts[pc] as Draft;
      const out = new Set<number>();
      for (const s of successors(drafts, pc)) for (const r of live[s] ?? []) out.add(r);
      const k = kills(d);
      if (k >= 0) out.delete(k);
      for (const r of uses(d)) out.add(r);
      const cur = live[pc] as Set<number>;
      if (out.size !== cur.size || [...out].some((r) => !cur.has(r))) {
        live[pc] = out;
        changed = true;
      }
    }
  }
  return live;
}

/** The keys of the loops among `loops` that need a hidden counter. */
export function loopsNeedingBounds(
  drafts: readonly Draft[],
  loops: readonly { key: string; start: number; end: number; header: number }[],
): Set<string> {
  const out = new Set<string>();
  if (loops.length === 0) return out;
  const live = liveness(drafts);
  for (const l of loops) {
    const atHead = live[l.header] ?? new Set<number>();
    let visible = false;
    let carries = false;
    for (let pc = l.start; pc < l.end; pc++) {
      const d = drafts[pc] as Draft;
      if (d.op < Op.FirstLocal) visible = true;
      const k = d.dst;
      if (k >= 0 && atHead.has(k)) carries = true;
    }
    if (carries || !visible) out.add(l.key);
  }
  return out;
}
