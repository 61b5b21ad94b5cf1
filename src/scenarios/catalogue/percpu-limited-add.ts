// percpu-limited-add: __percpu_counter_limited_add() (Hugh Dickins, Linux v6.7 lib/percpu_counter.c,
// commit beb986862844 and its 9/8 follow-up for negative amounts), shmem's one user: add only if
// the value stays within a limit. Its fast path compares fbc->count + batch × CPUs with the limit
// without fbc->lock, so another CPU's slow path can raise fbc->count between that test and the
// per-CPU add: both adds succeed and the value passes the limit (Mateusz Guzik, May 2024).
// - as-merged: the code as merged.
// - lock-first: fbc->lock taken before fbc->count is read (Jeongjun Park's proposal after a KCSAN
//   report, May 2025, which Guzik and Andrew Morton turned down: it serialises every add).

import { PERCPU_MAINLINE_GROUP } from '../groups.ts';
import { type VariantOf, variants } from '../define.ts';
import { intParam, intSpec, listParam, ParamError } from '../params.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['as-merged', 'lock-first'],
  'as-merged',
  'as-merged: the fast path reads fbc->count without fbc->lock (v6.7); lock-first: fbc->lock is taken before fbc->count is read (the May 2025 proposal)',
);
type Variant = VariantOf<typeof VARIANT>;

export const LIMITED_ADD_SOURCE =
  'Linux v6.7 lib/percpu_counter.c __percpu_counter_limited_add() (Hugh Dickins, commit beb986862844; negative amounts <8f86083b-c452-95d4-365b-f16a2e4ebcd4@google.com>); the overshoot: Mateusz Guzik <5eemkb4lo5eefp7ijgncgogwmadyzmvjfjmmmvfiki6cwdskfs@hi2z4drqeuz6>; lock-first: Jeongjun Park <20250506102402.88141-1-aha310510@gmail.com>, answered by Andrew Morton <20250506171051.7c9a4bed6ff799e8060ca0d7@linux-foundation.org>';

/** The amount CPU k adds (the last value repeats). */
function amountOf(p: Params, k: number): number {
  const a = listParam(p, 'amounts');
  return a.length === 0 ? 0 : (a[Math.min(k, a.length - 1)] as number);
}

/**
 * The function, as merged or with the lock first. The merged text is the kernel's but for
 * for_each_online_cpu(), which stands for for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask):
 * no CPU goes offline here.
 */
function limitedAdd(v: Variant): string {
  const early =
    v === 'lock-first'
      ? '\traw_spin_lock(&fbc->lock);\t/* lock-first: before fbc->count is read */\n'
      : '';
  const fastUnlock = v === 'lock-first' ? '\t\traw_spin_unlock(&fbc->lock);\n' : '';
  const lateLock = v === 'lock-first' ? '' : '\traw_spin_lock(&fbc->lock);\n';
  const test =
    v === 'lock-first'
      ? '\t/* Skip the slow path when safe: fbc->count cannot change now */'
      : '\t/* Skip taking the lock when safe: fbc->count is read without it */';
  return `/*
 * Add amount if the total stays at or below limit (amount > 0), or at or above it (amount < 0).
 * Returns true if amount was added, false if the total would be beyond the limit.
 */
bool __percpu_counter_limited_add(struct percpu_counter *fbc, s64 limit, s64 amount, s32 batch)
{
	s64 count;
	s64 unknown;
	unsigned long flags;
	bool good = false;
	int cpu;

	if (amount == 0)
		return true;

	local_irq_save(flags);
${early}	unknown = batch * num_online_cpus();
	count = __this_cpu_read(*fbc->counters);

${test}
	if (abs(count + amount) <= batch &&
	    ((amount > 0 && fbc->count + unknown <= limit) ||
	     (amount < 0 && fbc->count - unknown >= limit))) {
		this_cpu_add(*fbc->counters, amount);
${fastUnlock}		local_irq_restore(flags);
		return true;
	}

${lateLock}	count = fbc->count + amount;

	/* Skip the percpu loop when safe */
	if (amount > 0) {
		if (count - unknown > limit)
			goto out;
		if (count + unknown <= limit)
			good = true;
	} else {
		if (count + unknown < limit)
			goto out;
		if (count - unknown >= limit)
			good = true;
	}

	if (!good) {
		for_each_online_cpu(cpu)	/* for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask) */
			count += *per_cpu_ptr(fbc->counters, cpu);
		if (amount > 0) {
			if (count > limit)
				goto out;
		} else {
			if (count < limit)
				goto out;
		}
		good = true;
	}

	count = __this_cpu_read(*fbc->counters);
	fbc->count += count + amount;
	__this_cpu_sub(*fbc->counters, count);
out:
	raw_spin_unlock(&fbc->lock);
	local_irq_restore(flags);
	return good;
}`;
}

function programOf(p: Params): string {
  const v = VARIANT.of(p);
  const cpus = intParam(p, 'cpus');
  const count = intParam(p, 'count');
  const slots = listParam(p, 'slots');
  const batch = intParam(p, 'batch');
  if (slots.length > cpus)
    throw new ParamError(`slots has ${slots.length} values for ${cpus} CPUs`);
  const far = slots.find((s) => Math.abs(s) > batch);
  if (far !== undefined)
    throw new ParamError(`an initial delta must be within ±batch = ±${batch}, got ${far}`);
  const initial = slots.reduce((a, s) => a + s, count);
  const ks = Array.from({ length: cpus }, (_, k) => k);
  const value = ['fbc.count', ...ks.map((k) => `per_cpu(fbc.counters, ${k})`)].join(' + ');
  const init = slots
    .map((s, k) => (s === 0 ? null : `\tper_cpu(fbc.counters, ${k}) = ${s};`))
    .filter((l): l is string => l !== null);
  const threads = ks.map((k) => {
    const a = amountOf(p, k);
    return `P${k}()\t\t\t\t/* shmem charges ${a} blocks: percpu_counter_limited_add(&used_blocks, max_blocks, ${a}) */
{
	bool ok;

	ok = __percpu_counter_limited_add(&fbc, LIMIT, ${a}, BATCH);
	record(ok${k}, ok);
}`;
  });
  const amounts = ks.map((k) => amountOf(p, k));
  // The limit is a ceiling for adds and a floor for subtractions; with both, neither.
  const down = amounts.some((a) => a < 0);
  const up = amounts.some((a) => a > 0);
  const within =
    up && down
      ? '1 "The value never passes the limit (judged when every amount has one sign)"'
      : `${value} ${down ? '>=' : '<='} LIMIT "The value never passes the limit (judged at the end)"`;
  const added = ks.map((k) => `(ok${k} ? ${amountOf(p, k)} : 0)`).join(' + ');
  return `C percpu-limited-add-${v}

/*
 * __percpu_counter_limited_add() (${v === 'as-merged' ? 'as merged for v6.7' : 'with fbc->lock taken first'}): each CPU
 * adds its amount only if the value stays within LIMIT. unknown = batch × CPUs bounds what the
 * per-CPU deltas can hold, so fbc->count + unknown <= LIMIT lets an add skip the lock.
 */

#define NR_CPUS ${cpus}
#define BATCH ${batch}\t\t\t/* the counter's batch */
#define LIMIT ${intParam(p, 'limit')}\t\t\t/* sbinfo->max_blocks */

struct percpu_counter {
	raw_spinlock_t lock;
	s64 count;
	s32 __percpu *counters;
};

struct percpu_counter fbc = { .count = ${count} };\t/* sbinfo->used_blocks */
${init.length > 0 ? `\n{\n${init.join('\n')}\n}\n` : ''}
${limitedAdd(v)}

${threads.join('\n\n')}

counter {
	count fbc.count;
	deltas fbc.counters;
	batch BATCH;
}

observe count = fbc.count;
${ks.map((k) => `observe slot${k} = per_cpu(fbc.counters, ${k});`).join('\n')}
observe value = ${value};
${ks.map((k) => `observe ok${k};`).join('\n')}

invariant final within-limit: ${within};
invariant final counted: ${value} == ${initial} + ${added} "Each add that succeeded is counted once, and one that failed adds nothing";
`;
}

/** The case Guzik's mail describes: batch 32, 2 CPUs (unknown 64), limit 994, fbc->count 930. */
const DOCUMENTED = { cpus: 2, batch: 32, limit: 994, count: 930, amounts: [40, 32], slots: [] };

export default textScenario({
  id: 'percpu-limited-add',
  title: 'percpu_counter_limited_add passes its limit',
  group: PERCPU_MAINLINE_GROUP,
  source: LIMITED_ADD_SOURCE,
  summary:
    'The fast path tests fbc->count + batch × CPUs against the limit without the lock; another CPU’s slow path raises fbc->count in between, both adds succeed and the value passes the limit. Taking the lock first closes it, at the cost of the fast path.',
  reconstruction: false,
  params: [
    VARIANT.param,
    intSpec('cpus', DOCUMENTED.cpus, [1, 8], 'Number of CPUs (each makes one limited add)'),
    intSpec('batch', DOCUMENTED.batch, [1, 1_000_000], 'The batch passed to the limited add'),
    intSpec(
      'limit',
      DOCUMENTED.limit,
      [-1_000_000_000, 1_000_000_000],
      'The limit (sbinfo->max_blocks)',
    ),
    intSpec('count', DOCUMENTED.count, [-1_000_000_000, 1_000_000_000], 'Initial fbc->count'),
    {
      name: 'amounts',
      kind: 'list',
      default: DOCUMENTED.amounts,
      min: -1_000_000,
      max: 1_000_000,
      maxLength: 8,
      description: 'What each CPU adds, CPU0 first (the last value repeats)',
    },
    {
      name: 'slots',
      kind: 'list',
      default: DOCUMENTED.slots,
      min: -1_000_000,
      max: 1_000_000,
      maxLength: 8,
      description: 'Initial per-CPU deltas, CPU0 first (missing ones are 0)',
    },
  ],
  text: programOf,
  underTso:
    'Under memory tso the outcomes are those under sc: the overshoot needs no reordering, only the unlocked read of fbc->count.',
  notes: () => [
    'The defaults are the documented case: batch 32 on 2 CPUs (unknown = 64), limit 994, fbc->count 930; CPU0 charges 40 and CPU1 charges 32.',
    'for_each_online_cpu() stands for the kernel’s for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask): no CPU goes offline here.',
    'Only shmem calls it (shmem_inode_acct_blocks()); Andrew Morton’s answer to the lock-first proposal was to move the check into shmem.c instead.',
  ],
  guarantees: VARIANT.guarantees({
    'as-merged': ['counted'],
    'lock-first': ['within-limit', 'counted'],
  }),
  witnesses: [
    VARIANT.witness('as-merged', {
      name: 'overshoot',
      description:
        'CPU1’s fast path reads fbc->count 930: 930 + 64 ≤ 994, so it will add. CPU0 charges 40 on the slow path: 970 + 64 > 994, so it sums precisely (970 ≤ 994) and sets fbc->count to 970. CPU1 then adds its 32: the value is 1002, past the limit.',
      params: DOCUMENTED,
      schedule: '1*3 0*13 1*3',
      expect: { count: 970, slot0: 0, slot1: 32, value: 1002, ok0: 1, ok1: 1 },
      violates: ['within-limit'],
    }),
    VARIANT.witness('lock-first', {
      name: 'second-add-refused',
      description:
        'The same start with the lock first: CPU1 holds fbc->lock before it reads fbc->count, so CPU0 waits. CPU1 adds 32 (930 + 64 ≤ 994); CPU0 then sums precisely: 930 + 40 + 32 = 1002 > 994, and its charge is refused.',
      params: DOCUMENTED,
      schedule: '1*3 0*2 1*5 0*7',
      expect: { count: 930, slot0: 0, slot1: 32, value: 962, ok0: 0, ok1: 1 },
    }),
  ],
  lesson: {
    summary:
      'A limit check that reads the global part without the lock decides on a value another CPU may change before the add lands. The fast path trusts that the per-CPU deltas can hide at most batch × CPUs, but not that fbc->count itself stays put: a slow path on another CPU can validate its own add and raise fbc->count in between, and both adds succeed. Taking the lock first makes the test and the add one unit, and every add then serialises on fbc->lock.',
    question:
      'batch 32 on 2 CPUs, limit 994, fbc->count 930, no deltas. CPU1 charges 32 and CPU0 charges 40 at the same time. Can both succeed?',
    answer:
      'Yes, as merged: CPU1 passes the fast-path test with 930 + 64 ≤ 994; CPU0’s slow path finds 930 + 40 ≤ 994 and sets fbc->count to 970; CPU1 then adds 32. The value is 1002, past 994. With the lock taken first, CPU0’s precise sum sees CPU1’s 32 and refuses.',
  },
});
