// The names the Promela model gives the machine's state, one array per kind of word, and the
// 64-bit arithmetic the machine does on (low, high) word pairs, written as Promela statements
// over those arrays. Every value is the machine's own word: a register is a pair of ints, as
// in the lab's state vector, so a load, a store and a carry are the same bits in both.

import { CTX_REGS, type Machine } from '../../machine/machine.ts';

/** Thrown where a program or a request has something the export cannot write faithfully. */
export class PromelaRefusal extends Error {
  override readonly name = 'PromelaRefusal';
}

/** The most negative int: x ^ MINI turns an unsigned comparison into a signed one. */
export const MINI = 'MINI';

/** Where each part of the machine's state lives in the model. */
export class Words {
  /** Registers per context (the machine's widest program). */
  readonly regs: number;

  constructor(readonly m: Machine) {
    this.regs = (m.ctxStride - CTX_REGS) / 2;
  }

  /** Register r of context c: its low word. */
  lo(c: number, r: number): string {
    return `reg[${String((c * this.regs + r) * 2)}]`;
  }

  hi(c: number, r: number): string {
    return `reg[${String((c * this.regs + r) * 2 + 1)}]`;
  }

  /** Context c's tally (what it added), low and high words. */
  tallyLo(c: number): string {
    return `tly[${String(2 * c)}]`;
  }

  tallyHi(c: number): string {
    return `tly[${String(2 * c + 1)}]`;
  }
}

/** Signed 32-bit literal of a word. */
export function lit(n: number): string {
  return n === -2147483648 ? 'MINI' : String(n | 0);
}

/** d = a + b on word pairs (wrapping at 64 bits); the destination may be an operand. */
export function add64(dl: string, dh: string, al: string, ah: string, bl: string, bh: string) {
  return [
    `hx = ${al} + ${bl};`,
    `hy = ${ah} + ${bh} + (((hx ^ MINI) < (${al} ^ MINI)) -> 1 : 0);`,
    `${dl} = hx; ${dh} = hy;`,
  ];
}

/** d = a − b on word pairs. */
export function sub64(dl: string, dh: string, al: string, ah: string, bl: string, bh: string) {
  return [
    `hx = ${al} - ${bl};`,
    `hy = ${ah} - ${bh} - (((${al} ^ MINI) < (${bl} ^ MINI)) -> 1 : 0);`,
    `${dl} = hx; ${dh} = hy;`,
  ];
}

/** a < b, signed, on word pairs. */
function less(al: string, ah: string, bl: string, bh: string, orEqual: boolean): string {
  const low = `((${al} ^ MINI) ${orEqual ? '<=' : '<'} (${bl} ^ MINI))`;
  return `((${ah} < ${bh}) || (${ah} == ${bh} && ${low}))`;
}

/**
 * A branch condition (isa.ts's Cond) on word pairs, as a Promela expression. |a| for AbsGe and
 * AbsLt is taken into hn/hm first (`absFirst`), as the machine's cmpAbs64 does.
 */
export function condition(cond: number, al: string, ah: string, bl: string, bh: string): string {
  switch (cond) {
    case 0:
      return `(${al} == ${bl} && ${ah} == ${bh})`;
    case 1:
      return `(${al} != ${bl} || ${ah} != ${bh})`;
    case 2:
      return less(al, ah, bl, bh, false);
    case 3:
      return less(al, ah, bl, bh, true);
    case 4:
      return `!${less(al, ah, bl, bh, true)}`;
    case 5:
      return `!${less(al, ah, bl, bh, false)}`;
    case 6:
      return `!${less('hn', 'hm', bl, bh, false)}`;
    case 7:
      return less('hn', 'hm', bl, bh, false);
    case 8:
      return `((${al} & ${bl}) != 0 || (${ah} & ${bh}) != 0)`;
    default:
      return `((${al} & ${bl}) == 0 && (${ah} & ${bh}) == 0)`;
  }
}

/** Statements that put |a| in hn/hm, for the Abs conditions. */
export function absFirst(cond: number, al: string, ah: string): string[] {
  if (cond !== 6 && cond !== 7) return [];
  return [
    `if :: ${ah} < 0 -> hn = -${al}; hm = ~${ah} + ((${al} == 0) -> 1 : 0)`,
    `   :: else -> hn = ${al}; hm = ${ah} fi;`,
  ];
}

/** The high word a sign-extended 32-bit value has. */
export function signOf(v: string): string {
  return `((${v} < 0) -> -1 : 0)`;
}
