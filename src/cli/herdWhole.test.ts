// herd7's whole input and answer: litmus tests in the forms the kernel community writes (its
// collection at github.com/paulmckrcu/litmus, herdtools7's generators), each small, written for
// this file, and answered here as herd7 7.58 answers it under the Linux-kernel memory model. Each
// expected text is what herd7 printed for the same file (its Time line aside), so a difference
// in the reader, the engine or the printing shows as a changed line.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCommand } from './commands/check.ts';

const dir = mkdtempSync(join(tmpdir(), 'lab-herd-whole-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
/** The lab's answer for a litmus text, without the lines herd7 does not print alike. */
function answer(text: string): string {
  const path = join(dir, `t${files++}.litmus`);
  writeFileSync(path, text);
  return checkCommand([path])
    .split('\n')
    .filter((l) => !/^(Time|Model) /.test(l))
    .join('\n');
}

/** herd7's answer as printed, its Time line aside. */
const herd7 = (...lines: string[]) => lines.join('\n');

describe("herd7's text", () => {
  it('names a test whose `C` line ends in .litmus without the ending, as herd7 does', () => {
    const text = `C C-name+o-o.litmus

{}

P0(int *x)
{
	WRITE_ONCE(*x, 1);
}

P1(int *x)
{
	int r0;

	r0 = READ_ONCE(*x);
}

exists (1:r0=1)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test C-name+o-o Allowed',
        'States 2',
        '1:r0=0;',
        '1:r0=1;',
        'Ok',
        'Witnesses',
        'Positive: 1 Negative: 1',
        'Condition exists (1:r0=1)',
        'Observation C-name+o-o Sometimes 1 1',
        'Hash=1f5c75196d5b33e80dc84fbb6870d911',
      ),
    );
  });

  it('hashes `volatile int*` parameters, ATOMIC_INIT and a filter as herd7 does', () => {
    const text = `C vol+filter

{
	atomic_t v = ATOMIC_INIT(1);
}

P0(volatile int* x, int const *y, atomic_t *v)
{
	int r0;

	r0 = atomic_xchg(v, 2);
	WRITE_ONCE(*x, r0);
}

P1(volatile int *x)
{
	int r1;

	r1 = READ_ONCE(*x);
}

filter (0:r0=1)
exists (1:r1=1)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test vol+filter Allowed',
        'States 2',
        '1:r1=0;',
        '1:r1=1;',
        'Ok',
        'Witnesses',
        'Positive: 1 Negative: 1',
        'Condition exists (1:r1=1)',
        'Observation vol+filter Sometimes 1 1',
        'Hash=712dcf14f23db8bb756930355e006474',
      ),
    );
  });
});

describe("herd7's input", () => {
  it('reads intptr_t parameters and locals that hold pointers, and casts between them', () => {
    const text = `C intptr+rcu

{
	p=y;
}

P0(intptr_t *x, intptr_t *p)
{
	intptr_t r1=x;

	WRITE_ONCE(*x, 1);
	rcu_assign_pointer(*(intptr_t **)p, (intptr_t *)r1);
}

P1(intptr_t *p, intptr_t *y)
{
	rcu_read_lock();
	intptr_t r1 = (intptr_t)rcu_dereference(*(intptr_t **)p);
	intptr_t r2 = READ_ONCE(*(intptr_t *)r1);
	rcu_read_unlock();
}

exists (1:r1=x /\\ 1:r2=0)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test intptr+rcu Allowed',
        'States 2',
        '1:r1=x; 1:r2=1;',
        '1:r1=y; 1:r2=0;',
        'No',
        'Witnesses',
        'Positive: 0 Negative: 2',
        'Condition exists (1:r1=x /\\ 1:r2=0)',
        'Observation intptr+rcu Never 0 2',
        'Hash=4ea23e473b3c2d73fcb1fbfee7b671bd',
      ),
    );
  });

  it('reads pointer arithmetic in an address dependency', () => {
    const text = `C addr+arith

{}

P0(int *y, int *x)
{
	int r0 = READ_ONCE(*x);
	WRITE_ONCE(*(y + (r0 & 128)), 1);
}

P1(int *y, int *x)
{
	int r0 = READ_ONCE(*y);
	smp_mb();
	WRITE_ONCE(*x, 1);
}

exists (0:r0=1 /\\ 1:r0=1)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test addr+arith Allowed',
        'States 3',
        '0:r0=0; 1:r0=0;',
        '0:r0=0; 1:r0=1;',
        '0:r0=1; 1:r0=0;',
        'No',
        'Witnesses',
        'Positive: 0 Negative: 3',
        'Condition exists (0:r0=1 /\\ 1:r0=1)',
        'Observation addr+arith Never 0 3',
        'Hash=7345462c6f7c2e1fddd38ebc92ff18c1',
      ),
    );
  });

  it('reads typed and located register initial values, a register only `locations` names, a condition comparing two registers, and a `;` after it', () => {
    const text = `C reg-init+locations

{
	int 0:r1;
	int 1:r3 = 2;
	c=y;
	1:r2=b;
}

P0(int *b, int **c)
{
	r1 = READ_ONCE(*b);
	WRITE_ONCE(*c, b);
}

P1(int *b, int **c)
{
	int *r4;

	r4 = READ_ONCE(*c);
	WRITE_ONCE(*r2, r3);
}

locations [0:r5; 1:r4]
exists (0:r1=2 \\/ 0:r1=1:r3);
`;
    expect(answer(text)).toBe(
      herd7(
        'Test reg-init+locations Allowed',
        'States 4',
        '0:r1=0; 0:r5=0; 1:r3=2; 1:r4=b;',
        '0:r1=0; 0:r5=0; 1:r3=2; 1:r4=y;',
        '0:r1=2; 0:r5=0; 1:r3=2; 1:r4=b;',
        '0:r1=2; 0:r5=0; 1:r3=2; 1:r4=y;',
        'Ok',
        'Witnesses',
        'Positive: 2 Negative: 2',
        'Condition exists (0:r1=2 \\/ 0:r1=1:r3)',
        'Observation reg-init+locations Sometimes 2 2',
        'Hash=a635226e8ddeb2dd92d1bc59e783fc57',
      ),
    );
  });

  it('reads an int register holding a pointer, an int and an srcu_struct of one name, and atomic_cmpxchg on an int', () => {
    const text = `C srcu-int+cmpxchg-int

{
	a=1;
	p=a;
}

P0(int *a, int *s, int *p)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*p);
	r1 = READ_ONCE(*r0);
	WRITE_ONCE(*s, 1);
}

P1(int *a, struct srcu_struct *s)
{
	int r0;
	int r1;

	r1 = srcu_read_lock(s);
	r0 = atomic_cmpxchg(a, 1, 2);
	srcu_read_unlock(s, r1);
}

exists (0:r1=2 /\\ 1:r0=1)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test srcu-int+cmpxchg-int Allowed',
        'States 2',
        '0:r1=1; 1:r0=1;',
        '0:r1=2; 1:r0=1;',
        'Ok',
        'Witnesses',
        'Positive: 3 Negative: 3',
        'Flag mixed-lock-accesses',
        'Condition exists (0:r1=2 /\\ 1:r0=1)',
        'Observation srcu-int+cmpxchg-int Sometimes 3 3',
        'Hash=cf2a5328d4407f13de71d80148809f9f',
      ),
    );
  });
});

describe("herd7's symbolic values", () => {
  it('finds a value only a branch’s other way writes, self-justified through control', () => {
    const text = `C LB+ctrl-chosen
{}
P0(int *x, int *y)
{
	int r1;
	r1 = *x;
	if (r1 == 1)
		*y = 1;
}
P1(int *x, int *y)
{
	int r1;
	r1 = *y;
	if (r1 == 1)
		*x = 1;
}
exists (0:r1=1 /\\ 1:r1=1)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test LB+ctrl-chosen Allowed',
        'States 2',
        '0:r1=0; 1:r1=0;',
        '0:r1=1; 1:r1=1;',
        'Ok',
        'Witnesses',
        'Positive: 1 Negative: 1',
        'Flag data-race',
        'Condition exists (0:r1=1 /\\ 1:r1=1)',
        'Observation LB+ctrl-chosen Sometimes 1 1',
        'Hash=860dc6930de5f3aead18be1ee7d6cdad',
      ),
    );
  });

  it('finds a constant a branch chooses and a copy carries back', () => {
    const text = `C branch-chosen-value

{}

P0(int *x, int *y)
{
	int r1 = 2;

	if (READ_ONCE(*x) != 0)
		r1 = 3;
	WRITE_ONCE(*y, r1);
}

P1(int *x, int *y)
{
	int r2 = READ_ONCE(*y);

	WRITE_ONCE(*x, r2);
}

exists (0:r1=3)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test branch-chosen-value Allowed',
        'States 2',
        '0:r1=2;',
        '0:r1=3;',
        'Ok',
        'Witnesses',
        'Positive: 1 Negative: 3',
        'Condition exists (0:r1=3)',
        'Observation branch-chosen-value Sometimes 1 3',
        'Hash=0be4ff88f0cfb3d988bd781f6440fae8',
      ),
    );
  });

  it('counts a candidate whose values only copy one another', () => {
    const text = `C copy-cycle-counted

{}

P0(int *x, int *y, int *z)
{
	int r1;

	r1 = *x;
	*y = r1;
	WRITE_ONCE(*z, 1);
}

P1(int *x, int *y)
{
	int r1;

	r1 = *y;
	*x = r1;
}

exists (z=1)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test copy-cycle-counted Allowed',
        'States 1',
        '[z]=1;',
        'Ok',
        'Witnesses',
        'Positive: 4 Negative: 0',
        'Flag data-race',
        'Condition exists ([z]=1)',
        'Observation copy-cycle-counted Always 4 0',
        'Hash=4124aa4bef7af9c40c144153fbda09f4',
      ),
    );
  });
});

describe("herd7's names for unresolved values", () => {
  it('numbers the code after a branch once for each way, the way not taken first', () => {
    const text = `C S-names+if-else
{}
P0(int *x, int *y, int *z)
{
	int r1;
	int r2;
	r1 = READ_ONCE(*z);
	if (r1 == 1) {
		r2 = *x;
	} else {
		r2 = *x;
		WRITE_ONCE(*z, 2);
	}
	if (r1 != 2)
		*y = r2;
	else
		*y = 7;
}
P1(int *x, int *y)
{
	int r1;
	int r3;
	r1 = *y;
	r3 = r1;
	*x = r3;
}
locations [0:r2; 1:r3]
exists (0:r1=0)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test S-names+if-else Allowed',
        'States 2',
        '0:r1=0; 0:r2=S24; 1:r3=S24;',
        '0:r1=0; 0:r2=0; 1:r3=0;',
        'Ok',
        'Witnesses',
        'Positive: 4 Negative: 0',
        'Flag data-race',
        'Condition exists (0:r1=0)',
        'Observation S-names+if-else Always 4 0',
        'Hash=5f089ecc94794fce78cf66c9c66910e3',
      ),
    );
  });

  it('names two unknowns apart, and takes + 0 for a copy', () => {
    const text = `C S-names+two-unknowns
{}
P0(int *x, int *y, int *a, int *b)
{
	int r1;
	int r2;
	r1 = *x;
	r2 = *a;
	*y = r1;
	*b = r2 + 0;
}
P1(int *x, int *y, int *a, int *b)
{
	int r1;
	int r2;
	r1 = *y;
	r2 = *b;
	*x = r1;
	*a = r2;
}
exists (0:r1=0)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test S-names+two-unknowns Allowed',
        'States 2',
        '0:r1=S14;',
        '0:r1=0;',
        'Ok',
        'Witnesses',
        'Positive: 12 Negative: 4',
        'Flag data-race',
        'Condition exists (0:r1=0)',
        'Observation S-names+two-unknowns Sometimes 12 4',
        'Hash=c233b080e048902ff11413b58f6211e9',
      ),
    );
  });

  it('drops a candidate whose unknown a branch tests, though nothing follows in the branch', () => {
    const text = `C unknown-tested
{}
P0(int *x, int *y)
{
	int r1;
	r1 = *x;
	*y = r1;
}
P1(int *y, int *z)
{
	int r1;
	r1 = *y;
	if (r1 == 0)
		WRITE_ONCE(*z, 1);
	*z = r1;
}
P2(int *z, int *x)
{
	int r1;
	r1 = *z;
	*x = r1;
}
exists (0:r1=0)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test unknown-tested Allowed',
        'States 2',
        '0:r1=0;',
        '0:r1=1;',
        'Ok',
        'Witnesses',
        'Positive: 9 Negative: 1',
        'Flag data-race',
        'Flag mixed-accesses',
        'Condition exists (0:r1=0)',
        'Observation unknown-tested Sometimes 9 1',
        'Hash=fea00bbb45b31baf6fec2671698d13e8',
      ),
    );
  });

  it('numbers an exchange’s location, value and read', () => {
    const text = `C S-names+xchg
{}
P0(int *x, int *y)
{
	int r1;
	int r2;
	r1 = *x;
	r2 = xchg(y, r1);
}
P1(int *x, int *y)
{
	int r1;
	r1 = *y;
	*x = r1;
}
exists (0:r1=0)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test S-names+xchg Allowed',
        'States 2',
        '0:r1=S9;',
        '0:r1=0;',
        'Ok',
        'Witnesses',
        'Positive: 3 Negative: 1',
        'Flag data-race',
        'Condition exists (0:r1=0)',
        'Observation S-names+xchg Sometimes 3 1',
        'Hash=1a51c0b39a019591a2dae14d1fb0e90d',
      ),
    );
  });
});

describe("herd7's input: what its splitter skips", () => {
  it('skips a second name line and a comment with braces before the init block, and casts through char *', () => {
    const text = `C char-casts
C (a second name line, which herd7 skips)

(*
 * A comment before the init block, with braces: { x = 2; }
 *)

{
	x = 0;
}

P0(int *x, int *y)
{
	int r1 = READ_ONCE(*x);
	rcu_assign_pointer(*(char **)y, (char *)1);
}

P1(int *y, int *x)
{
	int r3 = READ_ONCE(*y);
	WRITE_ONCE(*x, r3);
}

exists (0:r1=1 /\\ 1:r3=1)
`;
    expect(answer(text)).toBe(
      herd7(
        'Test char-casts Allowed',
        'States 2',
        '0:r1=0; 1:r3=0;',
        '0:r1=0; 1:r3=1;',
        'No',
        'Witnesses',
        'Positive: 0 Negative: 3',
        'Condition exists (0:r1=1 /\\ 1:r3=1)',
        'Observation char-casts Never 0 3',
        'Hash=30025f48da7fc0c0ac86f8ce0592d17b',
      ),
    );
  });
});

describe("herd7's default condition", () => {
  it('checks forall (true) when a file has no condition', () => {
    const text = `C no-condition

{}

P0(int *x)
{
	int r0;

	r0 = READ_ONCE(*x);
}

P1(int *x)
{
	WRITE_ONCE(*x, 1);
}

locations [0:r0]
`;
    expect(answer(text)).toBe(
      herd7(
        'Test no-condition Required',
        'States 2',
        '0:r0=0;',
        '0:r0=1;',
        'Ok',
        'Witnesses',
        'Positive: 2 Negative: 0',
        'Condition forall (true)',
        'Observation no-condition Always 2 0',
        'Hash=336ebd5db15bed1ffd29a2ce533f3b82',
      ),
    );
  });

  it('prints the one empty state of a file with no final section', () => {
    const text = `C no-final-section

{}

P0(spinlock_t *sl)
{
	spin_lock(sl);
	spin_unlock(sl);
}
`;
    expect(answer(text)).toBe(
      herd7(
        'Test no-final-section Required',
        'States 1',
        '',
        'Ok',
        'Witnesses',
        'Positive: 1 Negative: 0',
        'Condition forall (true)',
        'Observation no-final-section Always 1 0',
        'Hash=be0644e3238fac5d92a25bbe2e1064b9',
      ),
    );
  });
});
