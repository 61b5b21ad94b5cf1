// Where an add of the counter completes, on instructions emitted by hand: the counter's value is
// the cell `count`, and each case is one add call of amount 3 from pc 0 to the emitter's end.

import { describe, expect, it } from 'vitest';
import { Cond, Mode, Op } from '../machine/isa.ts';
import { Emitter, type Operand } from './emit.ts';
import { owners } from './gen.ts';
import { LineMap } from './source.ts';
import { type LoopRange, tallyAdd } from './tally.ts';

const CELLS: ReadonlySet<string> = new Set(['count']);
const at = (base: number): Operand => ({ mode: Mode.Abs, base, stride: 0, reg: null, width: 32 });

function emitter() {
  const e = new Emitter('P0', new LineMap(''));
  return { e, r: e.reg('r'), f: e.reg('f') };
}

/** A store to the counter's value (the anatomy names its cell). */
function storeCount(e: Emitter, r: { index: number; name: string }) {
  owners.set(e.store(at(0), r), 'count');
}

/** Each instruction's opcode and tally, in order. */
const listing = (e: Emitter) => e.drafts.map((d) => [d.op, d.tally]);

describe('tallyAdd', () => {
  it('puts the amount on the one store that writes the counter', () => {
    const { e, r } = emitter();
    e.load(r, at(0));
    e.arith(Op.Add, r, r, 3n);
    storeCount(e, r);
    tallyAdd(e, CELLS, { start: 0, amount: 3n }, []);
    expect(listing(e)).toEqual([
      [Op.Load, 0],
      [Op.Add, 0],
      [Op.Store, 3],
    ]);
  });

  it('puts it on the last write of each path', () => {
    const { e, r } = emitter();
    const other = e.label();
    const end = e.label();
    e.load(r, at(0));
    e.branch(Cond.Eq, r, 0n, other);
    storeCount(e, r);
    e.jump(end);
    e.bind(other);
    storeCount(e, r);
    e.bind(end);
    tallyAdd(e, CELLS, { start: 0, amount: 3n }, []);
    expect(listing(e)).toEqual([
      [Op.Load, 0],
      [Op.Branch, 0],
      [Op.Store, 3],
      [Op.Jump, 0],
      [Op.Store, 3],
    ]);
  });

  it("counts the add at the call's return when its write is a cmpxchg, which may fail", () => {
    const { e, r, f } = emitter();
    e.load(r, at(0));
    owners.set(e.cmpxchg(f, at(0), r, r), 'count');
    tallyAdd(e, CELLS, { start: 0, amount: 3n }, []);
    expect(listing(e)).toEqual([
      [Op.Load, 0],
      [Op.Cmpxchg, 0],
      [Op.Tally, 0],
    ]);
    expect(e.drafts[2]).toMatchObject({ useImm: true, immLo: 3, immHi: 0 });
  });

  it('counts it at the return when a path may write again after a write', () => {
    const { e, r } = emitter();
    const end = e.label();
    storeCount(e, r);
    e.branch(Cond.Eq, r, 0n, end);
    storeCount(e, r);
    e.bind(end);
    tallyAdd(e, CELLS, { start: 0, amount: 3n }, []);
    expect(listing(e)).toEqual([
      [Op.Store, 0],
      [Op.Branch, 0],
      [Op.Store, 0],
      [Op.Tally, 0],
    ]);
  });

  it('flags the write when a path may leave without one, and counts the add there', () => {
    const { e, r } = emitter();
    const end = e.label();
    e.load(r, at(0));
    e.branch(Cond.Eq, r, 0n, end);
    storeCount(e, r);
    e.bind(end);
    // A loop around the store: its range moves with the flag inserted after the store.
    const loop: LoopRange = { start: 1, end: 3, header: 1 };
    tallyAdd(e, CELLS, { start: 0, amount: 3n }, [loop]);
    expect(listing(e)).toEqual([
      [Op.Load, 0],
      [Op.Branch, 0],
      [Op.Store, 3],
      [Op.Mov, 0], // %added = 1
      [Op.Branch, 0], // if %added != 0, skip the tally
      [Op.Tally, 0],
      [Op.Mov, 0], // %added = 0
    ]);
    const flag = e.named('%added')?.index;
    expect(e.drafts[3]).toMatchObject({ dst: flag, useImm: true, immLo: 1 });
    expect(e.drafts[4]).toMatchObject({ cond: Cond.Ne, src: flag, useImm: true, immLo: 0 });
    expect(e.drafts[4]?.to?.pc).toBe(6);
    expect(e.drafts[6]).toMatchObject({ dst: flag, useImm: true, immLo: 0 });
    expect(e.drafts[1]?.to?.pc).toBe(4);
    expect(loop).toEqual({ start: 1, end: 4, header: 1 });
  });

  it('follows a branch on a register set to a constant only where it can go', () => {
    const { e, r, f } = emitter();
    const end = e.label();
    e.mov(f, 1n);
    // f is 1: the branch never skips the store, so no path leaves without the write.
    e.branch(Cond.Eq, f, 0n, end);
    storeCount(e, r);
    e.bind(end);
    tallyAdd(e, CELLS, { start: 0, amount: 3n }, []);
    expect(listing(e)).toEqual([
      [Op.Mov, 0],
      [Op.Branch, 0],
      [Op.Store, 3],
    ]);
  });

  it('leaves an add of nothing alone', () => {
    const { e, r } = emitter();
    storeCount(e, r);
    tallyAdd(e, CELLS, { start: 0, amount: 0n }, []);
    expect(listing(e)).toEqual([[Op.Store, 0]]);
  });
});
