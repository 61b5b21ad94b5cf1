// Naming a word of a state for people: which cell, CPU field, context field or register it is.
// Lockstep replay names the first word where the workers and the model differ with it.

import { cellAt } from './layout.ts';
import {
  CPU_FIELDS,
  CPU_WORDS,
  CTX_REGS,
  CTX_WORDS,
  contextName,
  type Machine,
} from './machine.ts';

/** What word i of a state is, e.g. "fbc->count (lo)", "CPU1 preempt_count", "T0 register v". */
export function wordName(m: Machine, i: number): string {
  if (i < m.memWords) {
    const at = cellAt(m.layout, i);
    if (!at) return `padding word ${i}`;
    const cpu = at.cpu >= 0 ? ` of CPU${at.cpu}` : '';
    return `${at.cell.label}${cpu}${at.half ? ` (${at.half})` : ''}`;
  }
  if (i < m.ctxOff) {
    const rel = i - m.cpuOff;
    return `CPU${Math.floor(rel / CPU_FIELDS)} ${CPU_WORDS[rel % CPU_FIELDS]?.[1] ?? 'field'}`;
  }
  if (i < m.resOff) {
    const rel = i - m.ctxOff;
    const c = Math.floor(rel / m.ctxStride);
    const f = rel % m.ctxStride;
    const who = contextName(m, c);
    if (f < CTX_REGS) return `${who} ${CTX_WORDS[f]?.[1] ?? 'field'}`;
    const r = Math.floor((f - CTX_REGS) / 2);
    return `${who} register ${m.programs[c]?.regNames[r] ?? String(r)}`;
  }
  const slot = m.layout.results.find(
    (r) => i >= m.resOff + r.offset && i < m.resOff + r.offset + 1 + 2 * r.capacity,
  );
  return slot ? `result ${slot.label}` : `result word ${i - m.resOff}`;
}
