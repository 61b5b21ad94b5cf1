// Two independent answers for sc and tso: the explorer steps the machine (interleavings, store
// buffers and flushes), the axiomatic engine judges whole executions (src/axiomatic/models.ts).
// On every program here they must reach the same end states. Neither knows the other's code.

import { describe, expect, it } from 'vitest';
import { explore } from '../explore/explore.ts';
import { exploredEnds } from '../explore/herd.ts';
import { compileProgram } from '../lang/compile.ts';
import { herdLine } from '../lang/herdAnswer.ts';
import { programScenario } from '../scenarios/program.ts';
import { candidatesOf } from './check.ts';
import { consistentUnder, countableUnder } from './models.ts';

/** Small programs of every shape the engines take: the classic tests, RMWs, locks, fences. */
const PROGRAMS: Record<string, string> = {
  sb: `C sb
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x); }
exists (0:r0=0 /\\ 1:r0=0)
`,
  'sb+mb': `C sb-mb
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); smp_mb(); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); smp_mb(); r0 = READ_ONCE(*x); }
exists (0:r0=0 /\\ 1:r0=0)
`,
  'sb+xchg': `C sb-xchg
{}
P0(int *x, int *y) { int r0; int r1; r1 = xchg(x, 1); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x); }
exists (0:r0=0 /\\ 1:r0=0)
`,
  mp: `C mp
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); r1 = READ_ONCE(*x); }
exists (1:r0=1 /\\ 1:r1=0)
`,
  lb: `C lb
{}
P0(int *x, int *y) { int r0; r0 = READ_ONCE(*x); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; r0 = READ_ONCE(*y); WRITE_ONCE(*x, 1); }
exists (0:r0=1 /\\ 1:r0=1)
`,
  '2+2w': `C w2
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 2); }
P1(int *x, int *y) { WRITE_ONCE(*y, 1); WRITE_ONCE(*x, 2); }
exists (x=1 /\\ y=1)
`,
  iriw: `C iriw
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*x); r1 = READ_ONCE(*y); }
P2(int *x, int *y) { WRITE_ONCE(*y, 1); }
P3(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); r1 = READ_ONCE(*x); }
exists (1:r0=1 /\\ 1:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)
`,
  corr: `C corr
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); WRITE_ONCE(*x, 2); }
P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*x); r1 = READ_ONCE(*x); }
exists (1:r0=2 /\\ 1:r1=1)
`,
  'inc+lock': `C lockinc
{}
P0(int *x, spinlock_t *l) { spin_lock(l); *x = *x + 1; spin_unlock(l); }
P1(int *x, spinlock_t *l) { spin_lock(l); *x = *x + 1; spin_unlock(l); }
exists (x=1)
`,
  'inc+atomic': `C atominc
{}
P0(atomic_t *v, int *y) { int r0; atomic_inc(v); r0 = READ_ONCE(*y); }
P1(atomic_t *v, int *y) { int r0; WRITE_ONCE(*y, 1); r0 = atomic_fetch_add(2, v); }
exists (1:r0=0 /\\ 0:r0=0)
`,
  cmpxchg: `C cas
{}
P0(int *x, int *y) { int r0; r0 = cmpxchg(x, 0, 1); WRITE_ONCE(*y, r0 + 1); }
P1(int *x, int *y) { int r0; int r1; r0 = cmpxchg(x, 0, 2); r1 = READ_ONCE(*y); }
exists (0:r0=0 /\\ 1:r0=0)
`,
  trylock: `C trylock
{}
P0(int *x, spinlock_t *l) { int r0; r0 = spin_trylock(l); if (r0) { WRITE_ONCE(*x, 1); spin_unlock(l); } }
P1(int *x, spinlock_t *l) { int r0; r0 = spin_trylock(l); if (r0) { WRITE_ONCE(*x, 2); spin_unlock(l); } }
exists (0:r0=1 /\\ 1:r0=1)
`,
  pointers: `C ptrs
{ int *p = &a; }
P0(int **p, int *b) { WRITE_ONCE(*b, 1); WRITE_ONCE(*p, b); }
P1(int **p) { int *r0; int r1; r0 = READ_ONCE(*p); r1 = READ_ONCE(*r0); }
exists (1:r0=b /\\ 1:r1=0)
`,
};

/** End states (herd7's lines) the axiomatic model allows. */
function axiomatic(source: string, model: 'sc' | 'tso'): string[] {
  const c = compileProgram(source, { memory: 'lkmm' });
  if (!c.ok) throw new Error(c.errors[0]?.message);
  const out = new Set<string>();
  for (const cand of candidatesOf(c.program).all)
    if (consistentUnder(model, cand.execution)) out.add(herdLine(c.program, cand.state).line);
  return [...out].sort();
}

/** End states (herd7's lines) the explorer reaches on the machine. */
function explored(source: string, memory: 'sc' | 'tso'): string[] {
  const s = programScenario(source);
  if (!s.ok) throw new Error(s.errors[0]?.message);
  const params = { memory };
  const p = s.scenario.program?.(params);
  if (!p) throw new Error('not a program');
  const r = explore(s.scenario, params, { ...s.scenario.bounds, switches: Infinity });
  expect(r.complete).toBe(true);
  const lines = exploredEnds(s.scenario.build(params).machine, r).map(
    (e) => herdLine(p, e.state).line,
  );
  return [...new Set(lines)].sort();
}

describe('the explorer and the axiomatic models reach the same end states', () => {
  it.each(Object.keys(PROGRAMS))('%s under sc and under tso', (name) => {
    const source = PROGRAMS[name] as string;
    for (const model of ['sc', 'tso'] as const)
      expect(explored(source, model)).toEqual(axiomatic(source, model));
  });
  it('tso allows store buffering and sc does not: the oracle is not trivially equal', () => {
    expect(axiomatic(PROGRAMS.sb as string, 'tso')).toContain('0:r0=0; 1:r0=0;');
    expect(axiomatic(PROGRAMS.sb as string, 'sc')).not.toContain('0:r0=0; 1:r0=0;');
  });
});

describe('which programs the axiomatic sc and tso count', () => {
  const compiled = (source: string) => {
    const c = compileProgram(source, { memory: 'lkmm' });
    if (!c.ok) throw new Error(c.errors[0]?.message);
    return c.program;
  };
  it('every program without RCU, under every model', () => {
    for (const model of ['sc', 'tso', 'lkmm'] as const)
      expect(countableUnder(model, compiled(PROGRAMS.sb as string))).toBe(true);
  });
  it('a program with RCU only under lkmm: under sc and tso the machine runs its grace periods', () => {
    const rcu = `C rcu
{}
P0(int *x) { WRITE_ONCE(*x, 1); synchronize_rcu(); }
P1(int *x) { int r0; rcu_read_lock(); r0 = READ_ONCE(*x); rcu_read_unlock(); }
exists (1:r0=1)
`;
    expect(['sc', 'tso', 'lkmm'].map((m) => countableUnder(m as 'sc', compiled(rcu)))).toEqual([
      false,
      false,
      true,
    ]);
  });
});
