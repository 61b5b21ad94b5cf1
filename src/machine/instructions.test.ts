import { describe, expect, it } from 'vitest';
import { abs, cpuOf, deref, type ProgramBuilder, thisCpu } from './builder.ts';
import { enabledEvents, formatEvent, isTerminal } from './events.ts';
import { Cond, Kind } from './isa.ts';
import { CPU_FIELDS, CPU_PREEMPT, CTX_RETRIES } from './machine.ts';
import { kit, type Kit } from './testkit.ts';
import type { Cell, CellType, ResultSlot } from './layout.ts';
import { pairValue } from './int64.ts';

/** Value of result slot 0's first entry. */
function firstResult(k: ReturnType<typeof kit>): number | bigint {
  const at = k.m.resOff;
  return pairValue(k.s[at + 1] as number, k.s[at + 2] as number);
}

function legal(k: ReturnType<typeof kit>): string[] {
  const out: number[] = [];
  const n = enabledEvents(k.m, k.s, out);
  return out.slice(0, n).map(formatEvent);
}

type Body = (b: ProgramBuilder) => void;
/** One CPU's task, written over the machine's one cell and its result slot. */
type Task = (x: Cell, out: ResultSlot) => Body;

/** `x += by` as C compiles it: a load, an add in a register, a store. */
const increment = (by: number) => (x: Cell) => (b: ProgramBuilder) => {
  const r = b.reg('r');
  b.load(r, abs(x)).add(r, r, by).store(abs(x), r);
};

/** `read()`: loads the cell and returns it. */
const read: Task = (x, out) => (b) => {
  const r = b.reg('r');
  b.load(r, abs(x)).record(out, r);
};

/** Three atomic adds of 1, each returning the new value. */
const threeAdds: Task = (x, out) => (b) => {
  const r = b.reg('r');
  b.repeat(3, () => void b.atomicAdd(abs(x), 1, { dst: r }).record(out, r));
};

/**
 * A machine whose CPUs run one task each over one cell `x` (shown as `label`), with a result slot
 * the tasks return through (`returns`, keeping `capacity` values).
 */
function cellKit(
  [label, type, init]: readonly [string, CellType, number],
  tasks: readonly Task[],
  more: {
    wordBits?: 32 | 64;
    loadOrder?: 'lo-hi' | 'hi-lo';
    returns?: string;
    capacity?: number;
  } = {},
): Kit {
  return kit(tasks.length, (L) => {
    const x = L.cell('x', label, type, init);
    const out = L.result('r', more.returns ?? 'read()', more.capacity);
    return {
      wordBits: more.wordBits,
      loadOrder: more.loadOrder,
      tasks: tasks.map((t) => t(x, out)),
    };
  });
}

describe('plain loads and stores', () => {
  it('x++ on shared memory is two steps: load, then store', () => {
    const k = cellKit(['x', 's32', 41], [increment(1)]);
    expect(k.run('0')).toEqual(['CPU0 reads x: 41']);
    expect(k.word(0)).toBe(41);
    expect(k.run('0')).toEqual(['CPU0 writes x = 42; T0 finishes']);
    expect(isTerminal(k.m, k.s)).toBe(true);
  });

  it('a 32-bit load sign-extends into a 64-bit register', () => {
    const k = cellKit(['x', 's32', -5], [read]);
    expect(k.run('0')).toEqual(['CPU0 reads x: -5; read() returns -5; T0 finishes']);
    expect(firstResult(k)).toBe(-5);
  });

  it('a 32-bit store keeps only the low word (s32 wraps)', () => {
    const k = cellKit(['x', 's32', 0x7fffffff], [increment(1)]);
    k.run('0 0');
    expect(k.word(0)).toBe(-0x80000000);
  });

  it('a 64-bit load and store are one step each on a 64-bit machine', () => {
    const k = cellKit(['fbc->count', 's64', 0xffffffff], [increment(1)]);
    expect(k.run('0 0')).toEqual([
      'CPU0 reads fbc->count: 4294967295',
      'CPU0 writes fbc->count = 4294967296; T0 finishes',
    ]);
  });

  /** CPU1 adds 32 to G = 0xFFFFFFF0 (stores lo then hi) while CPU0 reads it, on a 32-bit CPU. */
  const tornRead = (loadOrder: 'lo-hi' | 'hi-lo') =>
    cellKit(['fbc->count', 's64', 0xfffffff0], [read, increment(32)], { wordBits: 32, loadOrder });

  it('on a 32-bit machine a 64-bit load takes two steps, so a reader can see a torn value', () => {
    // CPU0 reads lo first, then hi.
    const k = tornRead('lo-hi');
    const said = k.run('0 1 1 1 1 0');
    expect(said[0]).toBe('CPU0 reads the low half of fbc->count: 0xFFFFFFF0');
    expect(said[3]).toBe('CPU1 writes the low half of fbc->count = 0x00000010: it now holds 16');
    expect(said[4]).toBe(
      'CPU1 writes the high half of fbc->count = 0x00000001: it now holds 4294967312; T1 finishes',
    );
    expect(firstResult(k)).toBe(8589934576);
  });

  it('the hi-lo load order tears the other way: 16', () => {
    const k = tornRead('hi-lo');
    // CPU1's own load is hi-lo too (two steps), then its store lo, hi.
    k.run('0 1 1 1 1 0');
    expect(firstResult(k)).toBe(16);
  });
});

describe('LOCK-prefixed read-modify-writes are one step', () => {
  it('atomic add carries into the high word of a 64-bit cell and returns the new value', () => {
    const addReturn: Task = (g, out) => (b) => {
      const r = b.reg('r');
      b.atomicAdd(abs(g), 1, { dst: r }).record(out, r);
    };
    const k = cellKit(['count', 's64', 0xffffffff], [addReturn], {
      wordBits: 32,
      returns: 'atomic64_add_return()',
    });
    expect(k.run('0')).toEqual([
      'CPU0 atomically adds 1 to count: 4294967296; atomic64_add_return() returns 4294967296; T0 finishes',
    ]);
    expect(firstResult(k)).toBe(4294967296);
  });

  it('xchg returns the old value and leaves the new one', () => {
    const swapZero: Task = (x, out) => (b) => {
      const r = b.reg('r');
      const n = b.reg('n');
      b.mov(n, 0).xchg(r, abs(x), n).record(out, r);
    };
    const k = cellKit(['x', 's32', 7], [swapZero], { returns: 'xchg()' });
    expect(k.run('0')[0]).toContain('CPU0 exchanges x: takes 7, leaves 0');
    expect(firstResult(k)).toBe(7);
    expect(k.word(0)).toBe(0);
  });

  it('cmpxchg stores only when the cell holds the expected value', () => {
    const twoTries: Task = (x) => (b) => {
      const old = b.reg('old');
      const e = b.reg('e');
      const n = b.reg('n');
      b.mov(e, 9).mov(n, 99).cmpxchg(old, abs(x), e, n);
      b.mov(e, 10).cmpxchg(old, abs(x), e, n);
    };
    const k = cellKit(['x', 's32', 10], [twoTries]);
    expect(k.run('0')).toEqual(["CPU0's cmpxchg on x fails: expected 9, found 10"]);
    expect(k.word(0)).toBe(10);
    expect(k.run('0')).toEqual(["CPU0's cmpxchg on x succeeds: 10 → 99; T0 finishes"]);
    expect(k.word(0)).toBe(99);
  });

  it('atomic or sets bits (the sequence low bit)', () => {
    const k = cellKit(['fbc->sequence', 's32', 4], [(seq) => (b) => void b.atomicOr(abs(seq), 1)]);
    k.run('0');
    expect(k.word(0)).toBe(5);
  });
});

describe('spinlocks and preemption', () => {
  const twoLockers = () =>
    kit(2, (L) => {
      const lock = L.cell('lock', 'fbc->lock', 'lock');
      const body = (b: import('./builder.ts').ProgramBuilder) =>
        void b.spinLock(lock).spinUnlock(lock);
      return { tasks: [body, body] };
    });

  it('spin_lock takes a free lock and disables preemption', () => {
    const k = twoLockers();
    expect(k.run('0')).toEqual(['CPU0 takes fbc->lock (preemption off)']);
    expect(k.s[k.m.cpuOff + CPU_PREEMPT]).toBe(1);
  });

  it('a held lock makes the other CPU spin, changing nothing, until it is released', () => {
    const k = twoLockers();
    k.run('0');
    const before = k.s.slice();
    expect(k.run('1')).toEqual(['CPU1 spins on fbc->lock, held by CPU0']);
    expect(k.s).toEqual(before);
    expect(k.run('0 1')).toEqual([
      'CPU0 releases fbc->lock; T0 finishes',
      'CPU1 takes fbc->lock (preemption off)',
    ]);
    expect(k.s[k.m.cpuOff + CPU_PREEMPT]).toBe(0);
    expect(k.s[k.m.cpuOff + CPU_FIELDS + CPU_PREEMPT]).toBe(1);
  });

  it('preempt_disable and preempt_enable move preempt_count', () => {
    const k = kit(1, () => ({
      tasks: [(b) => void b.preemptDisable().preemptDisable().preemptEnable().preemptEnable()],
    }));
    expect(k.run('0 0 0 0')).toEqual([
      'CPU0 disables preemption (preempt_count 1)',
      'CPU0 disables preemption (preempt_count 2)',
      'CPU0 enables preemption (preempt_count 1)',
      'CPU0 enables preemption (preempt_count 0); T0 finishes',
    ]);
  });
});

describe('per-CPU addressing', () => {
  it('__this_cpu_read uses the slot of the CPU the context is on at that step', () => {
    const k = kit(2, (L) => {
      const slot = L.perCpu('slot', 'slot', 's32', [1001, 640]);
      const out = L.result('v', 'read');
      return {
        tasks: [
          (b) => {
            const r = b.reg('r');
            b.load(r, thisCpu(slot)).record(out, r);
          },
        ],
      };
    });
    k.run('mig0>1');
    expect(k.run('1')).toEqual(['CPU1 (T0) reads its slot: 640; read returns 640; T0 finishes']);
  });

  it('this_cpu_ptr() fixes the address: a migration after it makes the access hit another CPU', () => {
    const k = kit(2, (L) => {
      const slot = L.perCpu('slot', 'slot', 's32', [10, 20]);
      return {
        tasks: [
          (b) => {
            const p = b.reg('p');
            const r = b.reg('r');
            b.addrGen(p, slot).load(r, deref(p)).add(r, r, 1).store(deref(p), r);
          },
        ],
      };
    });
    expect(k.run('0 mig0>1 1 1')).toEqual([
      "CPU0 computes this_cpu_ptr(&slot): the address of CPU0's element",
      'T0 is preempted on CPU0 and migrated to CPU1: it runs there now; CPU0 is idle',
      "CPU1 (T0) reads CPU0's slot: 10",
      "CPU1 (T0) writes CPU0's slot = 11; T0 finishes",
    ]);
    expect(k.word(0)).toBe(11);
    expect(k.word(1)).toBe(20);
  });

  it("per_cpu_ptr(p, i) reads CPU i's element, and smp_processor_id() reads the CPU", () => {
    const k = kit(2, (L) => {
      const slot = L.perCpu('slot', 'slot', 's32', [3, 4]);
      const out = L.result('v', 'sum', 2);
      return {
        tasks: [
          (b) => {
            const i = b.reg('i');
            const r = b.reg('r');
            b.mov(i, 1).load(r, cpuOf(slot, i)).record(out, r).cpuId(r).record(out, r);
          },
        ],
      };
    });
    expect(k.run('0 0')).toEqual([
      "CPU0 reads CPU1's slot: 4; sum returns 4",
      'CPU0 reads its CPU number: 0; sum returns 0; T0 finishes',
    ]);
  });
});

describe('local-atomic instructions (non-LOCK single x86 instructions)', () => {
  const localAdder = () =>
    kit(2, (L) => {
      const c = L.perCpu('c', 'c', 's32', [10, 0]);
      const x = L.cell('x', 'x', 's32');
      return {
        tasks: [
          (b) => {
            const t = b.reg('t');
            b.localAdd(thisCpu(c), 1, t, { tally: 1 });
          },
          (b) => {
            const r = b.reg('r');
            b.load(r, abs(x));
          },
        ],
        irq: [(b) => void b.localAdd(thisCpu(c), 5, b.reg('t'))],
        nmi: [(b) => void b.localAdd(thisCpu(c), 7, b.reg('t'))],
      };
    });

  it('no IRQ, NMI, preemption or migration may split it, but another CPU may step', () => {
    const k = localAdder();
    expect(legal(k)).toContain('irq0');
    const said = k.run('0');
    expect(said[0]).toBe(
      'CPU0 reads its c: 10 (first half of one instruction: no interrupt can come before its second half)',
    );
    expect(legal(k)).toEqual(['0', '1', 'mig1>0']);
    expect(k.run('0')).toEqual([
      'CPU0 writes its c = 11, completing one instruction that no interrupt could split; T0 finishes',
    ]);
  });

  it('an IRQ between two local-atomic adds sees a consistent value', () => {
    const k = localAdder();
    k.run('irq0 0 0 0 0');
    expect(k.word(0)).toBe(16);
  });

  it('on a 64-bit cell both halves are written: 5 − 20 is −15, not 2^32 − 15', () => {
    const k = kit(1, (L) => {
      const c = L.perCpu('c', 'c', 's64', [5]);
      const d = L.cell('d', 'd', 's64', 3);
      return {
        tasks: [
          (b) => {
            const t = b.reg('t');
            const e = b.reg('e');
            const n = b.reg('n');
            b.localAdd(thisCpu(c), -20, t);
            b.mov(e, 3).mov(n, -1);
            b.cmpxchgLocal(t, abs(d), e, n);
          },
        ],
      };
    });
    k.run('0 0 0 0');
    expect(pairValue(k.word(0), k.word(1))).toBe(-15);
    expect(pairValue(k.word(2), k.word(3))).toBe(-1);
  });
});

describe('interrupts', () => {
  const irqMachine = () =>
    kit(1, (L) => {
      const c = L.cell('c', 'c', 's32', 10);
      return {
        tasks: [
          (b) => {
            const f = b.reg('flags');
            const r = b.reg('r');
            b.irqSave(f).load(r, abs(c)).add(r, r, 1).store(abs(c), r).irqRestore(f);
          },
        ],
        irq: [increment(5)(c)],
        nmi: [increment(100)(c)],
      };
    });

  it('an IRQ raised with interrupts off stays pending and is delivered on restore', () => {
    const k = irqMachine();
    expect(k.run('0 0 irq0')).toEqual([
      'CPU0 saves the interrupt state and disables interrupts',
      'CPU0 reads c: 10',
      'IRQ on CPU0 while its interrupts are off: the IRQ stays pending until they are back on',
    ]);
    expect(legal(k)).not.toContain('irq0');
    expect(isTerminal(k.m, k.s)).toBe(false);
    expect(k.run('0 0')).toEqual([
      'CPU0 writes c = 11',
      "CPU0 restores interrupts: on; T0 finishes; the pending IRQ is delivered now: CPU0's IRQ handler starts",
    ]);
    expect(isTerminal(k.m, k.s)).toBe(false);
    expect(k.run('0 0')).toEqual([
      "CPU0's IRQ handler reads c: 11",
      "CPU0's IRQ handler writes c = 16; the IRQ handler returns",
    ]);
    expect(isTerminal(k.m, k.s)).toBe(true);
  });

  it('an IRQ with interrupts on pushes the handler, which runs with interrupts off', () => {
    const k = irqMachine();
    expect(k.run('irq0')).toEqual(['IRQ on CPU0: the IRQ handler starts, with interrupts off']);
    // Inside the handler a second IRQ can only become pending.
    expect(k.run('irq0')).toEqual([
      'IRQ on CPU0 while its interrupts are off: the IRQ stays pending until they are back on',
    ]);
    expect(k.run('0 0')[1]).toBe(
      "CPU0's IRQ handler writes c = 15; the IRQ handler returns; the pending IRQ is delivered now: CPU0's IRQ handler starts",
    );
  });

  it('an NMI runs even with interrupts off, may nest in an IRQ handler, and never in itself', () => {
    const k = irqMachine();
    k.run('0');
    expect(k.run('nmi0')).toEqual([
      'NMI on CPU0: the NMI handler starts (disabling interrupts does not stop an NMI)',
    ]);
    expect(legal(k)).not.toContain('nmi0');
    k.run('0 0');
    const k2 = irqMachine();
    k2.run('irq0 nmi0');
    expect(k2.run('0')).toEqual(["CPU0's NMI handler reads c: 10"]);
  });

  it('an IRQ raised inside an NMI waits until the NMI handler returns', () => {
    const k = irqMachine();
    k.run('nmi0 irq0');
    expect(k.run('0 0')[1]).toBe(
      "CPU0's NMI handler writes c = 110; the NMI handler returns; the pending IRQ is delivered now: CPU0's IRQ handler starts",
    );
  });
});

describe('local instructions', () => {
  it('branches, loops and recorded results cost no step; a taken retry branch counts', () => {
    const retryAboveOne: Task = (x, out) => (b) => {
      const r = b.reg('r');
      const top = b.label();
      b.bind(top).load(r, abs(x)).record(out, r);
      b.branch(Cond.Gt, r, 1, top, { kind: Kind.SumRetry });
    };
    const k = cellKit(['x', 's32', 3], [retryAboveOne], { returns: 'sum()', capacity: 4 });
    expect(k.run('0')).toEqual(['CPU0 reads x: 3; sum() returns 3; the sum starts over']);
    expect(k.s[k.m.ctxOff + CTX_RETRIES]).toBe(1);
  });

  it('a result slot keeps every value in order', () => {
    const k = cellKit(['x', 's32', 3], [threeAdds], { returns: 'sum()', capacity: 3 });
    k.run('0 0 0');
    const at = k.m.resOff;
    expect(k.s[at]).toBe(3);
    expect([k.s[at + 1], k.s[at + 3], k.s[at + 5]]).toEqual([4, 5, 6]);
  });
});

describe('bookkeeping instructions', () => {
  it('recordTotal appends the exact total of every context, and pause costs no step', () => {
    const k = cellKit(
      ['x', 's32', 0],
      [
        (x, out) => (b) =>
          void b.recordTotal(out).atomicAdd(abs(x), 1, { tally: 1 }).pause().recordTotal(out),
        (x) => (b) => void b.atomicAdd(abs(x), 5, { tally: 5 }),
      ],
      { returns: 'totals', capacity: 3 },
    );
    k.run('1 0');
    const at = k.m.resOff;
    expect(k.s[at]).toBe(2);
    // Before anything ran: 0. After CPU1's +5 and CPU0's +1 (the pause took no step): 6.
    expect([k.s[at + 1], k.s[at + 3]]).toEqual([0, 6]);
  });

  it('a full result slot keeps its newest value instead of stopping the machine', () => {
    const k = cellKit(['x', 's32', 0], [threeAdds], { capacity: 2 });
    k.run('0 0 0');
    const at = k.m.resOff;
    expect([k.s[at], k.s[at + 1], k.s[at + 3]]).toEqual([2, 1, 3]);
  });
});
