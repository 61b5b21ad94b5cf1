// Why a state that is not finished can go no further.

import { Op } from '../machine/isa.ts';
import { contextName, ctxBase, CTX_DONE, CTX_PC, type Machine } from '../machine/machine.ts';
import type { Violation } from '../scenarios/outcome.ts';

/** A deadlock, or a typed program's loop bound reached (#pragma lab loop_bound). */
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
  return { id: 'deadlock', reason: 'no CPU can make progress' };
}
