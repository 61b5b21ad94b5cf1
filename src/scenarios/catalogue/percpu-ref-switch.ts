// percpu-ref-switch: percpu_ref's switch back to per-CPU mode (lib/percpu-refcount.c,
// __percpu_ref_switch_to_percpu() and __ref_is_percpu(), Linux v4.4 onwards). The switcher zeroes
// every CPU's count, then publishes per-CPU mode with smp_store_release() on percpu_count_ptr; a
// getter reads the pointer with READ_ONCE() and increments through it, an address dependency.
// Release on one side and the dependency on the other make a getter that sees per-CPU mode see
// its CPU's count already zeroed. Here the mode is which counter the pointer points to (the
// kernel clears a flag bit in it); one CPU's count stands for every CPU's.
//
// Under sc and tso both variants are safe; under the kernel's memory model (memory lkmm) only the
// release is: with WRITE_ONCE() the pointer may propagate before the zeroing, and the getter's
// increment is lost or counted on a stale value.

import { variants } from '../define.ts';
import { PERCPU_REF_GROUP } from '../groups.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['release', 'once'],
  'release',
  "release: the kernel's smp_store_release() of percpu_count_ptr; once: a WRITE_ONCE() instead",
);
export const PERCPU_REF_SOURCE =
  'Linux v4.4+ lib/percpu-refcount.c: __percpu_ref_switch_to_percpu() (smp_store_release of percpu_count_ptr) and include/linux/percpu-refcount.h __ref_is_percpu() (READ_ONCE)';

function programOf(p: Params): string {
  const v = VARIANT.of(p);
  const publish =
    v === 'release'
      ? 'smp_store_release(ptr, pc);\t/* per-CPU mode, after the zeroing */'
      : 'WRITE_ONCE(*ptr, pc);\t\t/* per-CPU mode: nothing orders it after the zeroing */';
  return `C percpu-ref-switch-${v}

/*
 * percpu_ref switching back to per-CPU mode. CPU0 zeroes CPU1's per-CPU count (stale: 7) and
 * then publishes per-CPU mode in percpu_count_ptr. A get on CPU1 reads percpu_count_ptr and
 * increments the count it points to: the atomic count while in atomic mode, its CPU's once the
 * switch is seen. A get that sees per-CPU mode must leave CPU1's count at 1.
 */

{
int ac = 1;			/* ref->data->count: the atomic count */
int pc = 7;			/* CPU1's per-CPU count, stale until the switch zeroes it */
int *ptr = &ac;			/* ref->percpu_count_ptr: atomic mode */
}

P0(int **ptr, int *pc)			/* CPU0: __percpu_ref_switch_to_percpu() */
{
	WRITE_ONCE(*pc, 0);		/* zero every CPU's count (one here) */
	${publish}
}

P1(int **ptr)				/* CPU1: percpu_ref_get() */
{
	int *r0;
	int r1;

	r0 = READ_ONCE(*ptr);		/* __ref_is_percpu(): which count, atomic or this CPU's */
	r1 = READ_ONCE(*r0);		/* through the pointer: an address dependency */
	WRITE_ONCE(*r0, r1 + 1);	/* this_cpu_inc(*percpu_count), or the atomic count */
}

exists (1:r0=pc /\\ ~pc=1)

invariant final counted: !(1:r0 == pc && pc != 1) "A get that saw per-CPU mode counted on the zeroed count: 1";
`;
}

export default textScenario({
  id: 'percpu-ref-switch',
  title: 'percpu_ref back to per-CPU mode: release and a dependency',
  group: PERCPU_REF_GROUP,
  source: PERCPU_REF_SOURCE,
  summary:
    'The switch zeroes each CPU’s count and then publishes per-CPU mode with smp_store_release(); a get reads the mode and increments through it. Safe under sc and tso either way; under lkmm only with the release.',
  reconstruction: false,
  params: [VARIANT.param],
  text: programOf,
  underTso:
    'Under memory tso both variants are safe: x86 keeps the zeroing and the publication in order.',
  notes: () => [
    'Switch the memory model to lkmm (the kernel’s own) in the parameters: there the once variant loses the get’s increment or counts it on the stale 7, and Explore draws the execution.',
    'The kernel marks the mode with a flag bit in percpu_count_ptr; here the pointer points to the atomic count or to the CPU’s own. The switch also waits for an RCU grace period before it, which this leaves out.',
  ],
  guarantees: VARIANT.guarantees({ release: ['counted'], once: ['counted'] }),
  witnesses: [
    VARIANT.witness('release', {
      name: 'get-before-switch',
      description:
        'CPU1 reads percpu_count_ptr before the switch publishes per-CPU mode: it counts on the atomic count (2), and CPU0 zeroes CPU1’s per-CPU count and switches after. Nothing is lost: the get went to the atomic count.',
      schedule: '1 1 1 0 0',
      expect: { pc: 0 },
    }),
  ],
  lesson: {
    summary:
      'Publishing a mode with smp_store_release() orders everything the publisher did before it (the zeroing) before the publication; the getter’s read of the pointer and its use through it are ordered by the address dependency. Under sc and x86 the stores are in order anyway; under the kernel’s memory model, WRITE_ONCE() would let the mode arrive before the zeroing.',
    question:
      'Under the kernel’s memory model (memory lkmm), with WRITE_ONCE() publishing per-CPU mode, can a get that saw per-CPU mode leave CPU1’s count at something other than 1?',
    answer:
      'Yes: the publication may propagate before the zeroing, so the get increments the stale 7 to 8, or the zeroing lands after its increment and leaves 0. With smp_store_release() the zeroing propagates first, and the dependency orders the get’s read after its read of the mode.',
  },
});
