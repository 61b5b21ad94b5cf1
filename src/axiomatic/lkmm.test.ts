// The kernel's memory model on litmus programs written for the lab, each answer justified from
// the model's rules (tools/memory-model/Documentation/explanation.txt says the same in prose),
// and the same programs under sc and tso, where the machine answers: what each barrier is for
// shows as the difference between the models.

import { describe, expect, it } from 'vitest';
import { explore } from '../explore/explore.ts';
import { statesAnswer } from '../explore/herd.ts';
import { compileProgram } from '../lang/compile.ts';
import type { HerdAnswer } from '../lang/herdAnswer.ts';
import { programScenario } from '../scenarios/program.ts';
import { candidatesOf, checkLkmm } from './check.ts';
import { whyNot } from './explain.ts';
import { herdOf } from './herd.ts';

/** herd7's answer for a program under a model: lkmm by the axiomatic engine, sc/tso explored. */
function answer(source: string, memory: 'sc' | 'tso' | 'lkmm' = 'lkmm'): HerdAnswer {
  if (memory === 'lkmm') {
    const c = compileProgram(source, { memory: 'lkmm' });
    if (!c.ok) throw new Error(c.errors[0]?.message);
    const a = herdOf(c.program, checkLkmm(c.program));
    if (!a) throw new Error('no condition');
    return a;
  }
  const s = programScenario(source);
  if (!s.ok) throw new Error(s.errors[0]?.message);
  const params = { memory };
  const program = s.scenario.program?.(params);
  if (!program) throw new Error('not a program');
  const r = explore(s.scenario, params, { ...s.scenario.bounds, switches: Infinity });
  const a = statesAnswer(program, s.scenario.build(params).machine, r);
  if (!a) throw new Error('no condition');
  return a;
}

/** Message passing: P0 writes the data then the flag; P1 reads the flag then the data. */
const mp = (
  w: string,
  r: string,
  write = 'WRITE_ONCE(*flag, 1);',
  read = 'READ_ONCE(*flag)',
) => `C mp
{}
P0(int *data, int *flag)
{
	WRITE_ONCE(*data, 1);
	${w}
	${write}
}
P1(int *data, int *flag)
{
	int r0;
	int r1;
	r0 = ${read};
	${r}
	r1 = READ_ONCE(*data);
}
exists (1:r0=1 /\\ 1:r1=0)
`;

describe('the kernel memory model on message passing', () => {
  it('with no barrier, the flag can be seen before the data, in 1 of 4 executions', () => {
    // Nothing orders the two writes or the two reads: every rf choice is consistent.
    const a = answer(mp('', ''));
    expect(a.observation).toBe('Sometimes');
    expect([a.positive, a.negative]).toEqual([1, 3]);
    expect(a.text).toMatch(/^Model lkmm$/m);
  });
  it('smp_wmb() and smp_rmb() forbid it: wmb orders the writes, rmb the reads', () => {
    expect(answer(mp('smp_wmb();', 'smp_rmb();')).observation).toBe('Never');
  });
  it('smp_wmb() alone does not: the reader may still read out of order', () => {
    expect(answer(mp('smp_wmb();', '')).observation).toBe('Sometimes');
  });
  it('smp_rmb() alone does not: the writer may still propagate out of order', () => {
    expect(answer(mp('', 'smp_rmb();')).observation).toBe('Sometimes');
  });
  it('a release store and an acquire load forbid it without fences', () => {
    const a = answer(mp('', '', 'smp_store_release(flag, 1);', 'smp_load_acquire(flag)'));
    expect(a.observation).toBe('Never');
  });
  it('under sc the outcome never happens, barrier or not; under tso neither (x86 keeps order)', () => {
    for (const memory of ['sc', 'tso'] as const) {
      const a = answer(mp('', ''), memory);
      expect(a.observation).toBe('Never');
      expect(a.model).toBe(memory);
      expect(a.counts).toBe('states');
    }
  });
  it('Why not? names the happens-before cycle and the two barriers in it', () => {
    const c = compileProgram(mp('smp_wmb();', 'smp_rmb();'), { memory: 'lkmm' });
    if (!c.ok) throw new Error('compile');
    const p = c.program;
    const cond = p.clauses.condition;
    if (!cond) throw new Error('condition');
    const [g] = whyNot(p, candidatesOf(p).all, (s) => cond.holds(p.machine, s));
    expect(g?.consistent).toBe(false);
    expect(g?.why?.axiom).toBe('happens-before');
    const steps = g?.why?.cycle.map((s) => s.relation) ?? [];
    expect(steps).toEqual(expect.arrayContaining(['rmb', 'wmb', 'rfe', 'fre']));
    expect(g?.why?.sentence).toContain('smp_rmb()');
  });
});

const sb = (fence: string) => `C sb
{}
P0(int *x, int *y)
{
	int r0;
	WRITE_ONCE(*x, 1);
	${fence}
	r0 = READ_ONCE(*y);
}
P1(int *x, int *y)
{
	int r0;
	WRITE_ONCE(*y, 1);
	${fence}
	r0 = READ_ONCE(*x);
}
exists (0:r0=0 /\\ 1:r0=0)
`;

describe('the kernel memory model on store buffering', () => {
  it('both reads can miss both writes without a barrier, as on x86 (tso) and not under sc', () => {
    expect(answer(sb('')).observation).toBe('Sometimes');
    expect(answer(sb(''), 'tso').observation).toBe('Sometimes');
    expect(answer(sb(''), 'sc').observation).toBe('Never');
  });
  it('smp_mb() on both sides forbids it: the propagation axiom, with a strong fence each', () => {
    expect(answer(sb('smp_mb();')).observation).toBe('Never');
    expect(answer(sb('smp_mb();'), 'tso').observation).toBe('Never');
  });
  it('smp_wmb() is not enough: it orders writes with writes, not a write with a read', () => {
    expect(answer(sb('smp_wmb();')).observation).toBe('Sometimes');
  });
});

describe('RCU under every model', () => {
  // An updater that unpublishes y, waits for a grace period, then marks x; a reader inside one
  // read-side section reads x then y. If the reader saw x marked, its section ended after the
  // grace period began... so it began before the updater's write to y could be missed? No: the
  // guarantee is the reverse. A section that sees the post-grace-period write (x=1) cannot also
  // miss the pre-grace-period write (y=1): it would have to both precede and follow the grace
  // period.
  const rcu = (gp: string) => `C rcu-gp
{}
P0(int *x, int *y)
{
	WRITE_ONCE(*y, 1);
	${gp}
	WRITE_ONCE(*x, 1);
}
P1(int *x, int *y)
{
	int r0;
	int r1;
	rcu_read_lock();
	r0 = READ_ONCE(*x);
	r1 = READ_ONCE(*y);
	rcu_read_unlock();
}
exists (1:r0=1 /\\ 1:r1=0)
`;
  it('with synchronize_rcu(), no model lets the section see the later write and miss the earlier', () => {
    for (const memory of ['lkmm', 'sc', 'tso'] as const)
      expect(answer(rcu('synchronize_rcu();'), memory).observation).toBe('Never');
  });
  it('without it, the kernel model allows it (nothing orders the writes)', () => {
    expect(answer(rcu('')).observation).toBe('Sometimes');
  });
  it('the grace period is not a barrier for a thread outside any section', () => {
    // The same reads outside rcu_read_lock(): under sc they still cannot be reordered, but the
    // kernel model gives no guarantee, since no read-side section orders them.
    const text = rcu('synchronize_rcu();')
      .replace('\trcu_read_lock();\n', '')
      .replace('\trcu_read_unlock();\n', '');
    expect(answer(text).observation).toBe('Sometimes');
    expect(answer(text, 'sc').observation).toBe('Never');
  });
});

describe('locks and plain accesses', () => {
  it('a spinlock makes a plain increment exact: both increments land, one execution per order', () => {
    const text = `C lock-inc
{}
P0(int *x, spinlock_t *l)
{
	spin_lock(l);
	*x = *x + 1;
	spin_unlock(l);
}
P1(int *x, spinlock_t *l)
{
	spin_lock(l);
	*x = *x + 1;
	spin_unlock(l);
}
exists (x=1)
`;
    const a = answer(text);
    expect(a.observation).toBe('Never');
    expect(a.states).toEqual(['[x]=2;']);
    expect([a.positive, a.negative]).toEqual([0, 2]);
    expect(a.flags).toEqual([]);
  });
  it('the same increment without the lock loses one and is flagged as a data race', () => {
    const text = `C plain-inc
{}
P0(int *x)
{
	*x = *x + 1;
}
P1(int *x)
{
	*x = *x + 1;
}
exists (x=1)
`;
    const a = answer(text);
    expect(a.observation).toBe('Sometimes');
    expect(a.flags).toEqual(['data-race']);
    expect(a.text).toMatch(/^Flag data-race$/m);
  });
});

describe('what the engine refuses, with the reason', () => {
  it("an interrupt handler's events go into the program order of the task it interrupts", () => {
    const source = `int x;
P0() { WRITE_ONCE(x, 1); }
IRQ0() { WRITE_ONCE(x, 2); }
exists (x=1)
`;
    // The handler may come before the task's write or after it (one IRQ, the default bound for
    // a program with a handler), as Explore's machine finds under sc.
    const lkmm = answer(source);
    expect(lkmm.states).toEqual(['[x]=1;', '[x]=2;']);
    expect(lkmm.states).toEqual(answer(source, 'sc').states);
    // …and never both orders in one execution: the write that comes last in the thread wins.
    const c = compileProgram(source, { memory: 'lkmm' });
    if (!c.ok) throw new Error(c.errors[0]?.message);
    expect(checkLkmm(c.program).executions).toBe(3);
  });
  it('takes CPU hotplug: the dead callbacks run after the offline, on the control CPU', () => {
    const c = compileProgram(
      `#pragma lab bounds hotplugs=1
DEFINE_PER_CPU(int, c);
{ per_cpu(c, 1) = 3; }
int total;
P0() { WRITE_ONCE(total, 0); }
DEAD1() { WRITE_ONCE(total, per_cpu(c, 1)); per_cpu(c, 1) = 0; }
exists (total=3)
`,
      { memory: 'lkmm' },
    );
    if (!c.ok) throw new Error(c.errors[0]?.message);
    const r = checkLkmm(c.program);
    // No offline (total 0), or the offline's fold after P0's write (3) or before it (0).
    const cell = c.program.machine.layout.cells.find((x) => x.name === 'total');
    if (!cell || cell.perCpu) throw new Error('no cell total');
    const totals = r.states.map((s) => s.state[cell.addr]);
    expect(new Set(totals)).toEqual(new Set([0, 3]));
  });
  it('a loop past its bound is left out, and the answer says Loop', () => {
    const text = `C spin
{}
P0(int *x)
{
	int r0;
	r0 = READ_ONCE(*x);
	while (r0 == 0)
		r0 = READ_ONCE(*x);
}
P1(int *x)
{
	WRITE_ONCE(*x, 1);
}
exists (0:r0=1)
`;
    const a = answer(text);
    expect(a.loop).toBe(true);
    expect(a.text).toMatch(/^Loop Ok$/m);
  });
});

describe('pointers, as herd7 prints and compares them', () => {
  it('a published pointer is printed by name and compared with a location', () => {
    const text = `C publish
{
int *p = &a;
}
P0(int **p, int *b)
{
	WRITE_ONCE(*b, 1);
	rcu_assign_pointer(*p, b);
}
P1(int **p)
{
	int *r0;
	int r1;
	r0 = rcu_dereference(*p);
	r1 = READ_ONCE(*r0);
}
exists (1:r0=b /\\ 1:r1=0)
`;
    const a = answer(text);
    // The address dependency orders the dereference after the pointer's read, and the release
    // orders b's write before the publication: never the new pointer with the old contents.
    expect(a.observation).toBe('Never');
    expect(a.states).toEqual(['1:r0=a; 1:r1=0;', '1:r0=b; 1:r1=1;']);
    expect(a.condition).toBe('exists (1:r0=b /\\ 1:r1=0)');
  });
});
