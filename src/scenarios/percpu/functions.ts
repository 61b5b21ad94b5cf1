// The C functions that several percpu_counter entries share, as the kernel shares them: one text
// each, which every entry that runs that code interpolates, so two entries never drift apart on
// code they mean to be the same. Where the entries differ (what guards the delta, how it folds,
// how the sum walks the CPUs) the function takes that part; the rest is written once.

/** How a 2.6.39-shaped add (`batchAdd`) differs from the 2.6.39 one. */
export interface BatchAdd {
  /** What keeps the task on its CPU, with the call that ends it (preemption off by default). */
  readonly guard?: readonly [enter: string, leave: string];
  /**
   * A test made first, that sends the add to fbc->slowcount while a sum is in flight (the 2011
   * designs of Eric Dumazet): the condition, and what the line says after its brace.
   */
  readonly inFlight?: { readonly test: string; readonly comment: string };
  /** The fold, once the delta reaches ±batch: its statements, one a line. */
  readonly fold: readonly string[];
}

const PREEMPT_OFF = ['preempt_disable();', 'preempt_enable();'] as const;

/**
 * Linux 2.6.39's __percpu_counter_add() (lib/percpu_counter.c): the delta plus the amount stays
 * on the CPU until it reaches ±batch, then folds into fbc->count. Every 2011 design kept this
 * shape and changed the guard, the fold, or what comes first.
 */
export function batchAdd(d: BatchAdd): string {
  const [enter, leave] = d.guard ?? PREEMPT_OFF;
  const inFlight = d.inFlight
    ? [
        `\tif (${d.inFlight.test}) {${d.inFlight.comment}`,
        '\t\tatomic64_add(amount, &fbc->slowcount);',
        '\t\tgoto out;',
        '\t}',
      ]
    : [];
  return [
    'void __percpu_counter_add(struct percpu_counter *fbc, s64 amount, s32 batch)',
    '{',
    '\ts64 count;',
    '',
    `\t${enter}`,
    ...inFlight,
    '\tcount = __this_cpu_read(*fbc->counters) + amount;',
    '\tif (count >= batch || count <= -batch) {',
    ...d.fold.map((s) => `\t\t${s}`),
    '\t} else {',
    '\t\t__this_cpu_write(*fbc->counters, count);',
    '\t}',
    ...(d.inFlight ? ['out:'] : []),
    `\t${leave}`,
    '}',
  ].join('\n');
}

/** The lockless designs' read (fbc->count an atomic64_t): one load, no lock. */
export const ATOMIC64_READ = `s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return atomic64_read(&fbc->count);
}`;

/**
 * v6.11's percpu_counter_add_batch() with CONFIG_HAVE_CMPXCHG_LOCAL (Mateusz Guzik, May 2024):
 * a this_cpu_try_cmpxchg loop, interrupts on; the slow path takes fbc->lock and re-reads the
 * delta. `reread`: the comment on that re-read, or '' for none.
 */
export function addBatchCmpxchg(reread: string): string {
  return `void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s64 count;
	unsigned long flags;

	count = this_cpu_read(*fbc->counters);
	do {
		if (abs(count + amount) >= batch) {
			raw_spin_lock_irqsave(&fbc->lock, flags);${reread === '' ? '' : `\n\t\t\t${reread}`}
			count = __this_cpu_read(*fbc->counters);
			fbc->count += count + amount;
			__this_cpu_sub(*fbc->counters, count);
			raw_spin_unlock_irqrestore(&fbc->lock, flags);
			return;
		}
	} while (!this_cpu_try_cmpxchg(*fbc->counters, &count, count + amount));
}`;
}

/**
 * Mainline's __percpu_counter_sum() (lib/percpu_counter.c since fbc->lock became a raw spinlock
 * taken with interrupts off): fbc->count plus every delta, under the lock a fold takes too.
 * `walk`: the loop over the CPUs, as the entry's kernel writes it (with any comment of its own).
 */
export function lockedSum(walk: string): string {
  return `s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 ret;
	int cpu;
	unsigned long flags;

	raw_spin_lock_irqsave(&fbc->lock, flags);
	ret = fbc->count;
	${walk}
		ret += *per_cpu_ptr(fbc->counters, cpu);
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
	return ret;
}`;
}
