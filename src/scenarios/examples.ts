// Programs to start from in the editor: a first counter of your own, two classic litmus tests in
// herd7's own form (a kernel litmus file runs as it is), and every catalogue entry's text.

import { catalogue } from './index.ts';
import { resolveParams } from './params.ts';

export interface Example {
  readonly id: string;
  readonly title: string;
  readonly text: () => string;
}

/** The program a new editor opens with: a counter that can lose an update, judged. */
export const FIRST_PROGRAM = `C my-counter

/*
 * A program of your own, in kernel-style C. Each P<n>() is a task on CPU n; the counter
 * clause says which variable is the counter and which function adds to it, so the charts
 * draw it and the invariants judge it. Step through it, explore it, or run it live.
 */

int hits;

void count_hit(void)
{
	int v;

	v = READ_ONCE(hits);
	WRITE_ONCE(hits, v + 1);	/* a read-modify-write in two steps */
}

P0()
{
	count_hit();
}

P1()
{
	count_hit();
}

counter {
	count hits;
	add count_hit;
}

observe hits = hits;
observe exact;

invariant final no-lost-update;
`;

/** Store buffering: with both stores before both loads in program order, can both loads read 0? */
const SB = `C SB

(*
 * Store buffering, as herd7's kernel litmus tests write it. The lab's machine is
 * sequentially consistent, so the outcome is never seen; on x86 without smp_mb() it is.
 *)

{}

P0(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*x, 1);
	smp_mb();
	r0 = READ_ONCE(*y);
}

P1(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*y, 1);
	smp_mb();
	r0 = READ_ONCE(*x);
}

exists (0:r0=0 /\\ 1:r0=0)
`;

/** Message passing: a reader that sees the flag must see the data. */
const MP = `C MP+wmb+rmb

{}

P0(int *data, int *flag)
{
	WRITE_ONCE(*data, 1);
	smp_wmb();
	WRITE_ONCE(*flag, 1);
}

P1(int *data, int *flag)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*flag);
	smp_rmb();
	r1 = READ_ONCE(*data);
}

exists (1:r0=1 /\\ 1:r1=0)
`;

export const examples: readonly Example[] = [
  {
    id: 'first',
    title: 'A counter of your own (two CPUs, one lost update)',
    text: () => FIRST_PROGRAM,
  },
  { id: 'SB', title: 'Litmus: SB (store buffering), herd7 form', text: () => SB },
  { id: 'MP', title: 'Litmus: MP (message passing), herd7 form', text: () => MP },
  ...catalogue.map((sc) => ({
    id: sc.id,
    title: `${sc.id}: ${sc.title}`,
    text: () => sc.text?.(resolveParams(sc, {})) ?? '',
  })),
];
