// percpu-upgrade: a counter that is atomic until a second thread needs it, then per-CPU. After
// v6.2 put the mm's RSS counters on percpu_counter (f1a7941243c1), every task paid for per-CPU
// counters at fork and exit (Jan Kara: 20,000 runs of /bin/true went from 6.81 s to 7.63 s on
// 192 CPUs); Peng Zhang's RFC gave percpu_counter an atomic mode, and Gabriel Krisman Bertazi's
// lazy_percpu_counter (krisman/linux, include/linux/distcounter.h) keeps the value shifted left
// by one in `remote`, bit 0 set, until an upgrade xchg()s the per-CPU pointer into the same word.
// An adder's cmpxchg that loses to the upgrade must go round again and find per-CPU mode:
// - retry: the tree's lazy_pcpu_counter_add_atomic(), which tests bit 0 on every pass;
// - no-retry: a loop that tests the mode once and retries its cmpxchg on whatever the word now
//   holds: the add goes into the pointer, and is lost.

import { type VariantOf, variants } from '../define.ts';
import { MM_RSS_GROUP } from '../groups.ts';
import * as percpu from '../percpu/index.ts';
import { intParam, intSpec, listParam, ParamError } from '../params.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['retry', 'no-retry'],
  'retry',
  'retry: an adder whose cmpxchg loses tests the mode again and adds in per-CPU mode (lazy_pcpu_counter_add_atomic); no-retry: it tests the mode once and retries its cmpxchg on the word',
);
type Variant = VariantOf<typeof VARIANT>;

export const UPGRADE_SOURCE =
  'Linux v6.2 mm RSS on percpu_counter (f1a7941243c1, Shakeel Butt <20221024052841.3291983-1-shakeelb@google.com>); Jan Kara <20230608111408.s2minsenlcjow7q3@quack3>; Peng Zhang, RFC v2 "percpu_counter: introduce atomic mode" (Apr 2024); Gabriel Krisman Bertazi, krisman/linux include/linux/distcounter.h';

/** The body of the add's retry loop, with and without the test of the mode. */
const RETRY_LOOP: Record<Variant, string> = {
  retry: `
		counter = atomic_long_read(&fbc->remote);
		if (!(counter & LAZY_INIT_BIAS)) {	/* upgraded since: add per-CPU */
			percpu_counter_add(fbc, amount);
			return;
		}`,
  'no-retry': `
		counter = atomic_long_read(&fbc->remote);	/* the mode is not tested again */`,
};

/** The add in atomic mode: a cmpxchg loop on fbc->remote, per-CPU once upgraded. */
function addAtomic(v: Variant): string {
  return `void lazy_pcpu_counter_add_atomic(struct percpu_counter *fbc, s64 amount)
{
	long x = amount << 1;
	long counter;

	if (lazy_pcpu_counter_initialized(fbc)) {
		percpu_counter_add(fbc, amount);
		return;
	}

	do {${RETRY_LOOP[v]}
	} while (atomic_long_cmpxchg_relaxed(&fbc->remote, counter, counter + x) != counter);
}`;
}

const FUNCTIONS = `
bool lazy_pcpu_counter_initialized(struct percpu_counter *fbc)
{
	return !(atomic_long_read(&fbc->remote) & LAZY_INIT_BIAS);
}

/* v6.11 percpu_counter_add_batch(), CONFIG_HAVE_CMPXCHG_LOCAL */
${percpu.addBatchCmpxchg('')}

void percpu_counter_add(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add_batch(fbc, amount, BATCH);
}

int lazy_pcpu_counter_upgrade(struct percpu_counter *fbc)
{
	unsigned long flags;
	s64 remote;

	if (lazy_pcpu_counter_initialized(fbc))
		return 0;

	/* __alloc_percpu_gfp(): the lab's per-CPU counters are there from the start */
	raw_spin_lock_irqsave(&fbc->lock, flags);
	if (lazy_pcpu_counter_initialized(fbc)) {	/* WARN_ON: lost a race */
		raw_spin_unlock_irqrestore(&fbc->lock, flags);
		return -12;
	}
	/* After the xchg, fbc behaves as a regular percpu counter. */
	remote = atomic_long_xchg(&fbc->remote, PCPU_PTR);
	raw_spin_unlock_irqrestore(&fbc->lock, flags);

	remote = remote >> 1;				/* remove_bias() */
	this_cpu_add(*fbc->counters, remote);		/* percpu_counter_add_local(): batch INT_MAX */
	return 0;
}
`;

/** Per-CPU value of a list whose last entry repeats. */
function perCpu(list: readonly number[], k: number): number {
  return list.length === 0 ? 0 : (list[Math.min(k, list.length - 1)] as number);
}

function programOf(p: Params): string {
  const v = VARIANT.of(p);
  const cpus = intParam(p, 'cpus');
  const upgrader = intParam(p, 'upgrader');
  if (upgrader >= cpus)
    throw new ParamError(`upgrader must be a CPU below ${cpus} (or −1), got ${upgrader}`);
  const ks = Array.from({ length: cpus }, (_, k) => k);
  const threads = ks.map((k) => {
    const amount = perCpu(listParam(p, 'amounts'), k);
    const adds = amount === 0 ? 0 : perCpu(listParam(p, 'adds'), k);
    const upgrade = k === upgrader;
    const what = [
      upgrade ? 'a second thread: upgrades' : null,
      adds === 0 ? null : adds === 1 ? `adds ${amount}` : `adds ${amount}, ${adds} times`,
    ].filter((x): x is string => x !== null);
    const body = [
      ...(upgrade ? ['\tlazy_pcpu_counter_upgrade(&fbc);'] : []),
      ...(adds === 0
        ? []
        : adds === 1
          ? [`\tlazy_pcpu_counter_add_atomic(&fbc, ${amount});`]
          : [
              `\tfor (i = 0; i < ${adds}; i++)`,
              `\t\tlazy_pcpu_counter_add_atomic(&fbc, ${amount});`,
            ]),
    ];
    return [
      `P${k}()\t\t\t\t/* ${what.length > 0 ? what.join(', then ') : 'does nothing'} */`,
      '{',
      ...(adds > 1 ? ['\tint i;', ''] : []),
      ...body,
      '}',
    ].join('\n');
  });
  return `C percpu-upgrade-${v}

/*
 * A counter that is atomic until a second thread uses it: fbc->remote holds the value shifted
 * left by one with bit 0 (LAZY_INIT_BIAS) set. The upgrade xchg()s the per-CPU pointer into the
 * same word (in the kernel a union of remote and counters; PCPU_PTR stands for the pointer
 * here, even, so bit 0 is clear) and adds the old value to its CPU's delta. An add that finds
 * bit 0 clear is an ordinary percpu_counter_add().
 */

#define NR_CPUS ${cpus}
#define BATCH ${intParam(p, 'batch')}\t\t\t/* percpu_counter_batch */
#define INITIAL ${intParam(p, 'initial')}\t\t/* the value while atomic */
#define LAZY_INIT_BIAS 1
#define PCPU_PTR 4096\t\t\t/* the per-CPU pointer, as a number */

struct percpu_counter {
	raw_spinlock_t lock;
	s64 count;			/* the owner's add_fast() while atomic; fbc->count after */
	s32 __percpu *counters;
	atomic_long_t remote;		/* a union with counters in the kernel */
};

struct percpu_counter fbc = { .remote = (INITIAL << 1) | LAZY_INIT_BIAS };

${FUNCTIONS.trim()}

${addAtomic(v)}

${threads.join('\n\n')}

counter {
	count fbc.count;
	deltas fbc.counters;
	tagged fbc.remote;		/* part of the value while bit 0 is set */
	batch BATCH;
	add lazy_pcpu_counter_add_atomic;
}

observe count = fbc.count;
${ks.map((k) => `observe slot${k} = per_cpu(fbc.counters, ${k});`).join('\n')}
observe remote = fbc.remote;
observe exact;

invariant final no-lost-update;
invariant final pointer-intact: (fbc.remote & LAZY_INIT_BIAS) || fbc.remote == PCPU_PTR "fbc->remote holds the value (bit 0 set) or the per-CPU pointer, as the upgrade left it";
`;
}

/** The moment of the reference's race: CPU0 adds 5 while CPU1 upgrades a counter at 100. */
const ADD_DURING_UPGRADE = { cpus: 2, initial: 100, amounts: [5, 0], adds: [1], upgrader: 1 };

export default textScenario({
  id: 'percpu-upgrade',
  title: 'Atomic until a second thread, then per-CPU',
  group: MM_RSS_GROUP,
  source: UPGRADE_SOURCE,
  summary:
    'A counter starts as one atomic word (value << 1, bit 0 set) and upgrades to per-CPU when a second thread appears, with an xchg of the per-CPU pointer into the same word. An adder whose cmpxchg loses to the upgrade must test the mode again and add per-CPU; retrying the cmpxchg on the word adds into the pointer and loses the add.',
  reconstruction: false,
  params: [
    VARIANT.param,
    intSpec('cpus', 2, [1, 64], 'Number of CPUs'),
    intSpec('batch', 32, [1, 1_000_000_000], 'percpu_counter_batch, once per-CPU'),
    intSpec('initial', 100, [-1_000_000, 1_000_000], 'The value while atomic, at the start'),
    intSpec(
      'upgrader',
      1,
      [-1, 63],
      'The CPU whose task upgrades the counter before its adds (−1: none)',
    ),
    {
      name: 'adds',
      kind: 'list',
      default: [1],
      min: 0,
      max: 10_000,
      maxLength: 64,
      description: 'How many adds each CPU makes, CPU0 first (the last value repeats)',
    },
    {
      name: 'amounts',
      kind: 'list',
      default: [5, 0],
      min: -1_000_000,
      max: 1_000_000,
      maxLength: 64,
      description: 'The amount of each CPU’s adds, CPU0 first (the last value repeats; 0: no adds)',
    },
  ],
  presets: { kernel: percpu.kernelPreset },
  text: programOf,
  underTso:
    'Under memory tso the outcomes are those under sc: the mode lives in the word the cmpxchg and the xchg both LOCK.',
  notes: () => [
    'In the kernel remote and counters are one word (a union): the upgrade’s xchg stores the per-CPU pointer where the value was. Here PCPU_PTR stands for the pointer and the per-CPU deltas are allocated from the start.',
    'The owner’s lazy_pcpu_counter_add_fast() (a plain fbc->count += amount, its task only) is left out: every add here is add_atomic(), from another CPU.',
    'The counter’s value is fbc->count + Σ deltas, plus fbc->remote >> 1 while bit 0 is set; between the xchg and the add to the delta the upgrader holds the old value in a register.',
  ],
  guarantees: VARIANT.guarantees({
    retry: ['no-lost-update', 'pointer-intact'],
    'no-retry': [],
  }),
  witnesses: [
    VARIANT.witness('retry', {
      name: 'loser-retries-per-cpu',
      description:
        'CPU0’s add of 5 reads remote = (100 << 1) | 1; CPU1 upgrades (xchg, unlock, 100 into its delta); CPU0’s cmpxchg fails, it reads the pointer, sees bit 0 clear and adds 5 to its own delta. Nothing is lost: 100 + 5.',
      params: ADD_DURING_UPGRADE,
      schedule: '0 0 1*9 0*5',
      expect: { count: 0, slot0: 5, slot1: 100, remote: 4096, exact: 105 },
    }),
    VARIANT.witness('no-retry', {
      name: 'add-into-the-pointer',
      description:
        'The same moment without the test in the loop: CPU0’s cmpxchg fails, it reads the pointer and retries the cmpxchg on it: 4096 + 10. The 5 is lost, and the per-CPU pointer is off by 10.',
      params: ADD_DURING_UPGRADE,
      schedule: '0 1*9 0 0',
      expect: { count: 0, slot0: 0, slot1: 100, remote: 4106, exact: 105 },
      violates: ['no-lost-update', 'pointer-intact'],
    }),
  ],
  lesson: {
    summary:
      'A counter that is one atomic word until a second thread needs it saves every single-threaded task the per-CPU allocation (the mm RSS counters after v6.2 cost fork and exit several percent). The upgrade swaps the per-CPU pointer into the very word the atomic adds cmpxchg, so an add in flight finds its cmpxchg failing. That is only safe if the loser tests the mode again and adds per-CPU: retrying the cmpxchg on what the word now holds adds into the pointer, and the add is lost.',
    question:
      'CPU0’s atomic-mode add of 5 has read remote = (100 << 1) | 1 when CPU1 upgrades the counter. CPU0’s cmpxchg then fails. If CPU0 simply retries its cmpxchg with the new value of remote, where do its 5 go?',
    answer:
      'Into the per-CPU pointer: remote now holds it, so the cmpxchg turns it into pointer + 10. The value (fbc->count + Σ deltas) never sees the 5, and the pointer is corrupt. Testing bit 0 on every pass sends the add to percpu_counter_add() instead.',
  },
});
