// herd7's litmus dialect as the lab reads it, and herd7's answer as the lab prints it: the forms
// the kernel's and herdtools7's tests use, every primitive of the kernel's linux-kernel.def, the
// condition reprinted as herd7 reprints it, and herd7's Hash= computed as herd7 computes it.

import { describe, expect, it } from 'vitest';
import { compileProgram } from './compile.ts';
import { herdProposition } from './herdAnswer.ts';
import { herdHash } from './herdHash.ts';

function compiles(source: string, memory: 'sc' | 'tso' | 'lkmm' = 'lkmm') {
  const r = compileProgram(source, { memory });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

const twoThreads = (init: string, p0: string, p1: string, cond: string, header = '') => `C test
${header}
{
${init}
}

P0(int *x, int *y)
{
${p0}
}

P1(int *x, int *y)
{
${p1}
}

${cond}
`;

describe("herd7's input", () => {
  it('takes the lines test generators write between the name and the init block', () => {
    const header = [
      '"PodWWOnce RfeOnceOnce PodRROnce FreOnceOnce"',
      'Cycle=Rfe PodRR Fre PodWW',
      'Relax=',
      'Safe=Rfe Fre PodWW PodRR',
      'Prefetch=0:x=F,0:y=W,1:y=F,1:x=T',
      'Com=Rf Fr',
      'Orig=PodWWOnce RfeOnceOnce PodRROnce FreOnceOnce',
    ].join('\n');
    const p = compiles(
      twoThreads(
        '',
        'WRITE_ONCE(*x, 1);\nWRITE_ONCE(*y, 1);',
        'int r0 = READ_ONCE(*y);\nint r1 = READ_ONCE(*x);',
        'exists (1:r0=1 /\\ 1:r1=0)',
        header,
      ),
    );
    expect(p.name).toBe('test');
  });
  it('takes OCaml comments in the init block and after the condition', () => {
    compiles(
      twoThreads(
        'int z = 1; (* a comment in the init block *)\nx = 2; (* another *)',
        'WRITE_ONCE(*x, 1);',
        'int r0 = (*y);',
        'exists (1:r0=0) (* a comment after *)',
      ),
    );
  });
  it('takes registers herd7 never declares, and a global named only as an init value', () => {
    const p = compiles(
      twoThreads(
        'int *p = &x;\nq = y;',
        'r1 = READ_ONCE(*x);\nr2 = r1 + 1;',
        'r3 = 0;',
        'exists (0:r2=1)',
      ),
    );
    expect(p.module.globals.has('q')).toBe(true);
  });
  it('reads `not` and `~` as the negation of the atom after them', () => {
    const p = compiles(
      twoThreads('', 'WRITE_ONCE(*x, 2);', '', 'exists (not (x=1 /\\ y=0) /\\ ~x=2)'),
    );
    const cond = p.clauses.condition;
    expect(cond && herdProposition(cond.prop)).toBe('not ([x]=1 /\\ [y]=0) /\\ not ([x]=2)');
  });
  it('accepts every primitive of the kernel memory model’s linux-kernel.def, under every model', () => {
    const accesses = [
      'r0 = READ_ONCE(*x);',
      'WRITE_ONCE(*x, 1);',
      'smp_store_release(x, 1);',
      'r0 = smp_load_acquire(x);',
      'rcu_assign_pointer(*p, x);',
      'r0 = rcu_dereference(*x);',
      'smp_store_mb(*x, 1);',
      'smp_mb();',
      'smp_rmb();',
      'smp_wmb();',
      'smp_mb__before_atomic();',
      'smp_mb__after_atomic();',
      'smp_mb__after_spinlock();',
      'smp_mb__after_unlock_lock();',
      'barrier();',
      ...['', '_relaxed', '_acquire', '_release'].flatMap((o) => [
        `r0 = xchg${o}(x, 1);`,
        `r0 = cmpxchg${o}(x, 0, 1);`,
        `r0 = atomic_xchg${o}(v, 1);`,
        `r0 = atomic_cmpxchg${o}(v, 0, 1);`,
        `r0 = atomic_add_return${o}(1, v);`,
        `r0 = atomic_fetch_add${o}(1, v);`,
        `r0 = atomic_fetch_and${o}(1, v);`,
        `r0 = atomic_fetch_or${o}(1, v);`,
        `r0 = atomic_fetch_xor${o}(1, v);`,
        `r0 = atomic_inc_return${o}(v);`,
        `r0 = atomic_fetch_inc${o}(v);`,
        `r0 = atomic_sub_return${o}(1, v);`,
        `r0 = atomic_fetch_sub${o}(1, v);`,
        `r0 = atomic_dec_return${o}(v);`,
        `r0 = atomic_fetch_dec${o}(v);`,
        `r0 = atomic_fetch_andnot${o}(1, v);`,
        `r0 = atomic_add_negative${o}(1, v);`,
      ]),
      'spin_lock(l);',
      'spin_unlock(l);',
      'r0 = spin_trylock(l);',
      'r0 = spin_is_locked(l);',
      'rcu_read_lock();',
      'rcu_read_unlock();',
      'synchronize_rcu();',
      'synchronize_rcu_expedited();',
      'r0 = srcu_read_lock(s);',
      'srcu_read_unlock(s, r0);',
      'r0 = srcu_down_read(s);',
      'srcu_up_read(s, r0);',
      'synchronize_srcu(s);',
      'synchronize_srcu_expedited(s);',
      'smp_mb__after_srcu_read_unlock();',
      'r0 = atomic_read(v);',
      'atomic_set(v, 1);',
      'r0 = atomic_read_acquire(v);',
      'atomic_set_release(v, 1);',
      ...['add', 'sub', 'and', 'or', 'xor', 'andnot'].map((op) => `atomic_${op}(1, v);`),
      'atomic_inc(v);',
      'atomic_dec(v);',
      'r0 = atomic_sub_and_test(1, v);',
      'r0 = atomic_dec_and_test(v);',
      'r0 = atomic_inc_and_test(v);',
      'r0 = atomic_add_unless(v, 1, 5);',
    ];
    for (const line of accesses) {
      const text = `C prim
{}
P0(int *x, int **p, atomic_t *v, spinlock_t *l, struct srcu_struct *s)
{
	int r0;
	${line}
}
exists (0:r0=0)
`;
      for (const memory of ['sc', 'tso', 'lkmm'] as const)
        expect(() => compiles(text, memory), line).not.toThrow();
    }
  });
});

describe("herd7's condition, reprinted", () => {
  const printed = (cond: string) => {
    const p = compiles(twoThreads('', 'WRITE_ONCE(*x, 1);', 'int r0 = READ_ONCE(*y);', cond));
    return p.clauses.condition ? herdProposition(p.clauses.condition.prop) : '';
  };
  it('brackets memory, leaves registers, and adds parentheses only around an or inside an and', () => {
    expect(printed('exists (x=1 /\\ 1:r0=0)')).toBe('[x]=1 /\\ 1:r0=0');
    expect(printed('exists (x=1 \\/ y=1 /\\ 1:r0=0)')).toBe('[x]=1 \\/ [y]=1 /\\ 1:r0=0');
    expect(printed('exists ((x=1 \\/ y=1) /\\ 1:r0=0)')).toBe('([x]=1 \\/ [y]=1) /\\ 1:r0=0');
    expect(printed('exists (1:r0=x)')).toBe('1:r0=x');
    expect(printed('exists (x!=1)')).toBe('not ([x]=1)');
  });
});

describe("herd7's hash", () => {
  const base = twoThreads(
    'int z = 1;',
    '\tWRITE_ONCE(*x, 1);',
    '\tint r0 = READ_ONCE(*y);',
    'exists (1:r0=0)',
  );
  it('is 32 hex digits, and the same text gives the same hash', () => {
    expect(herdHash(base)).toMatch(/^[0-9a-f]{32}$/);
    expect(herdHash(base)).toBe(herdHash(base));
  });
  it('ignores comments outside the threads and the values in the condition', () => {
    expect(herdHash(base.replace('C test\n', 'C test\n(* about it *)\n'))).toBe(herdHash(base));
    expect(herdHash(base.replace('1:r0=0', '1:r0=1'))).toBe(herdHash(base));
  });
  it('changes with a thread’s text, with the init values and with the locations shown', () => {
    expect(herdHash(base.replace('WRITE_ONCE(*x, 1);', 'WRITE_ONCE(*x,  1);'))).not.toBe(
      herdHash(base),
    );
    expect(herdHash(base.replace('int z = 1;', 'int z = 2;'))).not.toBe(herdHash(base));
    expect(herdHash(base.replace('exists (1:r0=0)', 'locations [x]\nexists (1:r0=0)'))).not.toBe(
      herdHash(base),
    );
  });
  it('is left out for the lab’s own programs, which herd7 would not read', () => {
    expect(herdHash('int x;\nP0() { WRITE_ONCE(x, 1); }\nexists (x=1)\n')).toBeNull();
  });
});
