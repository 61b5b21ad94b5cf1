// Why a state that is not finished can go no further.

import { Op } from '../machine/isa.ts';
import {
  contextName,
  cpuBase,
  ctxBase,
  CPU_CUR,
  CPU_IN_IRQ,
  CPU_IN_NMI,
  CTX_DONE,
  CTX_PC,
  type Machine,
} from '../machine/machine.ts';
import type { Violation } from '../scenarios/outcome.ts';

/** The context running on CPU k (its NMI or IRQ handler when in one), or -1 for none. */
function topOf(m: Machine, s: Int32Array, k: number): number {
  const b = cpuBase(m, k);
  if (s[b + CPU_IN_NMI] !== 0) return m.nmiCtx[k] as number;
  if (s[b + CPU_IN_IRQ] !== 0) return m.irqCtx[k] as number;
  return s[b + CPU_CUR] as number;
}

/**
 * A deadlock (a CPU waits for a spin lock nobody will release), a spin that never finishes (a
 * CPU waits for a value nothing left running will write: no lock, so not a deadlock), or a typed
 * program's loop bound reached (#pragma lab loop_bound).
 */
export function stuck(m: Machine, s: Int32Array): Violation {
  for (let c = 0; c < m.contexts; c++) {
    const ins = m.code[c]?.[s[ctxBase(m, c) + CTX_PC] as number];
    if (ins?.op === Op.Halt && (m.ctxKind[c] !== 0 || s[ctxBase(m, c) + CTX_DONE] === 0)) {
      return {
        id: 'loop-bound',
        reason: `${contextName(m, c)} stopped at the bound of the loop on line ${ins.line}: raise #pragma lab loop_bound to see further`,
      };
    }
  }
  const locked: string[] = [];
  const spinning: string[] = [];
  for (let k = 0; k < m.cpus; k++) {
    const c = topOf(m, s, k);
    if (c < 0) continue;
    const ins = m.code[c]?.[s[ctxBase(m, c) + CTX_PC] as number];
    if (!ins) continue;
    const where = `${contextName(m, c)} (line ${ins.line})`;
    if (ins.op === Op.SpinLock) locked.push(where);
    else spinning.push(where);
  }
  if (locked.length > 0 || spinning.length === 0)
    return {
      id: 'deadlock',
      reason: `no CPU can make progress${locked.length ? `: ${locked.join(' and ')} ${locked.length === 1 ? 'waits' : 'wait'} for a lock that is never released` : ''}`,
    };
  const one = spinning.length === 1;
  return {
    id: 'never-finishes',
    reason: `${spinning.join(' and ')} ${one ? 'spins' : 'spin'} forever: nothing left running can change what ${one ? 'it waits' : 'they wait'} for (no lock is held: a livelock, not a deadlock)`,
  };
}
