// percpu-rwsem: the per-CPU reader count of kernel/locking/percpu-rwsem.c (Linux 5.8 onwards,
// after Peter Zijlstra's 2019–2020 rework), reduced to one reader and one writer. The reader
// increments its CPU's read_count, then tests sem->block; the writer sets block, then sums every
// CPU's read_count. This is the store-buffering (Dekker) shape over a per-CPU sum: on x86 a store
// can wait in the CPU's store buffer while its own later load runs, so without the two full
// barriers ("A matches D") a reader and the writer can both get in. Under sc every variant with
// the re-check holds; under tso only `mb` does. `no-recheck` is the interleaving race Oleg
// Nesterov found in review (<20190619095043.GT3402@hirez.programming.kicks-ass.net>): a reader
// that tests block before it counts itself, and never again, is missed under sc too.

import { type VariantOf, variants } from '../define.ts';
import { PERCPU_RWSEM_GROUP } from '../groups.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['mb', 'reader-no-mb', 'writer-no-mb', 'none', 'no-recheck'],
  'mb',
  "mb: the kernel's (smp_mb() in the reader, atomic_xchg in the writer); reader-no-mb: without the reader's smp_mb(); writer-no-mb: block set by a plain store; none: neither barrier; no-recheck: the reader tests block before it counts itself",
);
type Variant = VariantOf<typeof VARIANT>;

export const PERCPU_RWSEM_SOURCE =
  'Linux v5.8+ kernel/locking/percpu-rwsem.c; review thread <20190619095043.GT3402@hirez.programming.kicks-ass.net>';

/** The reader's fast path, __percpu_down_read_trylock(), as each variant has it. */
function reader(v: Variant): string {
  if (v === 'no-recheck')
    return `int down_read_trylock(void)
{
	if (atomic_read(&block))	/* a writer: take the slow path */
		return 0;
	this_cpu_inc(read_count);	/* counted, but block is never tested again */
	return 1;
}`;
  const mb =
    v === 'reader-no-mb' || v === 'none'
      ? '\t/* no smp_mb(): the increment may still wait in the store buffer */'
      : '\tsmp_mb();			/* A matches D */';
  return `int down_read_trylock(void)
{
	this_cpu_inc(read_count);	/* a reader on this CPU */
${mb}
	if (!atomic_read(&block))	/* no writer: the critical section starts here */
		return 1;
	this_cpu_dec(read_count);	/* a writer: undo, and take the slow path */
	return 0;
}`;
}

/** The writer's __percpu_down_write_trylock(): set block, with or without a full barrier. */
function writer(v: Variant): string {
  const set =
    v === 'writer-no-mb' || v === 'none'
      ? '\tatomic_set(&block, 1);		/* a plain store: it may wait in the store buffer */\n\treturn 1;'
      : '\treturn atomic_xchg(&block, 1) == 0;	/* D: LOCK xchg, a full barrier */';
  return `int down_write_trylock(void)
{
	if (atomic_read(&block))
		return 0;
${set}
}`;
}

function programOf(p: Params): string {
  const v = VARIANT.of(p);
  return `C percpu-rwsem-${v}

/*
 * The per-CPU reader count of a percpu_rw_semaphore (kernel/locking/percpu-rwsem.c, Linux 5.8
 * onwards), one reader on CPU0 and one writer on CPU1. The reader counts itself on its own CPU,
 * then looks for a writer; the writer announces itself, then sums every CPU's readers. One of
 * them must see the other: if the reader misses the writer's block, the writer must see the
 * reader's increment. Only single attempts are modelled: a reader that gets in stays in, and a
 * writer that finds readers would wait (here it records that it did not get in).
 */
#define NR_CPUS 2

atomic_t block;				/* sem->block: a writer holds it, or wants it */
DEFINE_PER_CPU(int, read_count);	/* sem->read_count: readers, per CPU */

${reader(v)}

${writer(v)}

/* readers_active_check(): no reader on any CPU */
int readers_active_check(void)
{
	int sum = 0;
	int cpu;

	for_each_online_cpu(cpu)
		sum += per_cpu(read_count, cpu);
	if (sum != 0)
		return 0;
	smp_mb();			/* C matches B */
	return 1;
}

P0()					/* a reader on CPU0: percpu_down_read() */
{
	int in = down_read_trylock();

	record(reader_in, in);
}

P1()					/* the writer on CPU1: percpu_down_write() */
{
	int owns = 0;

	if (down_write_trylock())
		owns = readers_active_check();
	record(writer_in, owns);
}

counter {
	deltas read_count;
}

observe reader_in;
observe writer_in;

invariant final exclusive: !(reader_in == 1 && writer_in == 1) "No reader is inside while the writer owns the semaphore";
`;
}

/** The end the semaphore exists to forbid: a reader inside while the writer owns it. */
const BOTH_INSIDE = { reader_in: 1, writer_in: 1 };

export default textScenario({
  id: 'percpu-rwsem',
  title: 'percpu_rw_semaphore: the reader count that needs smp_mb()',
  group: PERCPU_RWSEM_GROUP,
  source: PERCPU_RWSEM_SOURCE,
  summary:
    'A reader counts itself on its CPU and then looks for a writer; the writer sets block and then sums the readers. On x86 a store can wait in the store buffer: without both full barriers, both get in.',
  reconstruction: false,
  params: [VARIANT.param],
  text: programOf,
  underTso:
    'Under memory tso, reader-no-mb, writer-no-mb and none lose exclusion (both inside); mb keeps it; no-recheck loses it under both models.',
  notes: (p) => {
    const v = VARIANT.of(p);
    return [
      'Run it with memory tso to give each CPU a store buffer: under sc every store is seen at once, and the barriers look useless.',
      v === 'no-recheck'
        ? 'no-recheck loses under sc too: the reader tests block before the writer sets it, the writer sums before the reader counts itself.'
        : 'Under tso, x86 lets a load pass an earlier store of the same CPU (its store is still buffered): the reader can read block = 0 while its increment waits, and the writer sum a zero it will later see change.',
      'TSO shows what smp_mb() is for here. What smp_rmb(), smp_wmb(), acquire and release order on weaker CPUs (Arm, the kernel memory model) the lab does not model.',
      'percpu_down_write() also waits in rcu_sync_enter() and sleeps on an rcuwait; a reader that fails takes a slow path with a wait queue. Both are left out: one attempt each.',
    ];
  },
  guarantees: VARIANT.guarantees({
    mb: ['exclusive'],
    'reader-no-mb': ['exclusive'],
    'writer-no-mb': ['exclusive'],
    none: ['exclusive'],
    'no-recheck': [],
  }),
  witnesses: [
    VARIANT.witness('reader-no-mb', {
      name: 'increment-in-the-buffer',
      description:
        "Without the reader's smp_mb(), CPU0's increment waits in its store buffer while CPU0 reads block = 0; the writer's LOCK xchg sets block and CPU1 sums read_count from memory: 0 readers. Both get in; CPU0's buffer flushes only afterwards.",
      params: { memory: 'tso' },
      schedule: '0 0 0 1 1 1 1 1 flush0',
      expect: BOTH_INSIDE,
      violates: ['exclusive'],
    }),
    VARIANT.witness('writer-no-mb', {
      name: 'block-in-the-buffer',
      description:
        "The writer's block = 1 is a plain store: it waits in CPU1's store buffer while CPU1 sums zero readers; the reader's smp_mb() drains only its own buffer, so it reads block = 0 from memory and gets in.",
      params: { memory: 'tso' },
      schedule: '1 1 1 1 0 0 0 0 1',
      expect: BOTH_INSIDE,
      violates: ['exclusive'],
    }),
    VARIANT.witness('mb', {
      name: 'barrier-drains',
      description:
        "With both barriers, the same order as increment-in-the-buffer: the reader's smp_mb() drains its increment to memory before it reads block, so the writer's sum sees one reader and the writer does not get in.",
      params: { memory: 'tso' },
      schedule: '0 0 0 0 1 1 1 1',
      expect: { reader_in: 1, writer_in: 0 },
    }),
    VARIANT.witness('no-recheck', {
      name: 'reader-while-write-owned',
      description:
        'With no store buffer at all: the reader tests block (0) before it counts itself, the writer sets block and sums zero readers, then the reader counts itself and goes in. Re-checking block after the increment closes this.',
      schedule: '0 0 1 1 1 1 0',
      expect: BOTH_INSIDE,
      violates: ['exclusive'],
    }),
  ],
  lesson: {
    summary:
      'The reader writes its count and then reads block; the writer writes block and then reads the counts. Under sequential consistency one of them sees the other. On x86 each CPU’s store can wait in its store buffer while its next load runs, so both can read the old values: the two smp_mb()s (the writer’s is its LOCK xchg) drain the buffers first.',
    question:
      'With memory tso and the reader’s smp_mb() removed, can the writer own the semaphore while a reader is inside?',
    answer:
      'Yes: the reader’s increment waits in CPU0’s store buffer, the reader reads block = 0, the writer sets block with a LOCKed xchg and sums read_count from memory: zero. Both are in, and only then does CPU0’s buffer flush.',
  },
});
