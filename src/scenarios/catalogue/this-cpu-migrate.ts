// this-cpu-migrate: memcg's soft-limit check, rewritten with this_cpu operations in Nov 2009.
// v1 read the per-CPU event count with __this_cpu_read() and reset it with
// __this_cpu_write() while preemptible: a migration between the two resets another CPU's slot.
// Christoph Lameter's fix keeps preemption off around the pair; v2's this_cpu_read() +
// this_cpu_write() makes each operation preempt-safe but not the pair; one this_cpu_cmpxchg()
// makes the read-decide-reset a single operation.

import { MEMCG_2009_GROUP } from '../groups.ts';
import { initialSlots, KH_2009, migrationCpusParam } from '../localOps.ts';
import { intParam, intSpec } from '../params.ts';
import { type VariantOf, variants } from '../define.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['raw', 'preempt-off', 'this-cpu-pair', 'cmpxchg'],
  'raw',
  "raw: v1 (__this_cpu_read/__this_cpu_write, preemptible); preempt-off: Christoph Lameter's fix; this-cpu-pair: v2 (this_cpu_read + this_cpu_write); cmpxchg: one this_cpu_cmpxchg",
);
type Variant = VariantOf<typeof VARIANT>;

/** The check's body, as each version has it. */
const CHECK: Record<Variant, string> = {
  raw: `
	s64 val;

	/* v1, 6 Nov 2009: get_cpu()/put_cpu() are gone, nothing replaces them */
	val = __this_cpu_read(events);		/* the CPU the task is on now */
	if (val > SOFTLIMIT_EVENTS_THRESH) {
		__this_cpu_write(events, 0);	/* the CPU the task is on NOW */
		record(val, val);
		return true;
	}
	record(val, val);
	return false;`,
  'preempt-off': `
	bool ret = false;
	s64 val;

	/* Christoph Lameter: "You need to keep preempt_disable/enable here" */
	preempt_disable();
	val = __this_cpu_read(events);
	if (val > SOFTLIMIT_EVENTS_THRESH) {
		__this_cpu_write(events, 0);	/* same CPU: the task cannot move */
		ret = true;
	}
	preempt_enable();
	record(val, val);
	return ret;`,
  'this-cpu-pair': `
	s64 val;

	/* v2, 9 Nov 2009: each op protects itself; the generic fallbacks, written out */
	preempt_disable();			/* val = this_cpu_read(events); */
	val = __this_cpu_read(events);
	preempt_enable();
	if (val > SOFTLIMIT_EVENTS_THRESH) {	/* the task can move here */
		preempt_disable();		/* this_cpu_write(events, 0); */
		__this_cpu_write(events, 0);
		preempt_enable();
		record(val, val);
		return true;
	}
	record(val, val);
	return false;`,
  cmpxchg: `
	bool fired = false;
	s64 val, prev;

	/* one operation reads, compares and resets the same slot */
	val = this_cpu_read(events);
	while (val > SOFTLIMIT_EVENTS_THRESH) {
		prev = this_cpu_cmpxchg(events, val, 0);	/* x86: one cmpxchg %gs:, no LOCK */
		if (prev == val) {
			fired = true;		/* reset exactly the events it checked */
			break;
		}
		val = prev;			/* moved, or the slot changed: look again */
	}
	record(val, val);
	return fired;`,
};

function programOf(p: Params): string {
  const variant = VARIANT.of(p);
  const cpus = intParam(p, 'cpus');
  const slots = initialSlots(p);
  const init = slots
    .map((v, k) => (v === 0 ? null : `\tper_cpu(events, ${k}) = ${v};`))
    .filter((l): l is string => l !== null);
  const each = Array.from({ length: cpus }, (_, k) => `per_cpu(events, ${k})`);
  const total = slots.reduce((a, b) => a + b, 0);
  return `C this-cpu-migrate-${variant}

/*
 * memcg's soft-limit check of November 2009, rewritten with this_cpu operations. The task
 * starts on CPU0, preemptible; the other CPUs run nothing else, so a migrated task runs there
 * at once and every change to a slot is the task's.
 */

#define NR_CPUS ${cpus}
#define SOFTLIMIT_EVENTS_THRESH ${intParam(p, 'threshold')}
#define EVENTS ${total}			/* every CPU's events at the start */

DEFINE_PER_CPU(s64, events);		/* this CPU's mem->cpustat->count[MEMCG_EVENTS] */
${init.length > 0 ? `\n{\n${init.join('\n')}\n}\n` : ''}
static bool mem_cgroup_soft_limit_check(void)
{${CHECK[variant]}
}

P0()
{
	record(fired, mem_cgroup_soft_limit_check());
}

${Array.from({ length: cpus }, (_, k) => `observe slot${k} = per_cpu(events, ${k});`).join('\n')}
observe val;				/* the count the check decided on */
observe fired;				/* 1 if it fired and reset a slot */

/* A check that fires consumes the events it saw: the reset must hit the slot it read. */
invariant final reset-own-slot: EVENTS - (${each.join(' + ')}) == (fired ? val : 0) "The reset discards exactly the events the check read (val if it fired, nothing otherwise): it hits the slot it read";
`;
}

const NOTES: Record<Variant, string[]> = {
  raw: [
    '__this_cpu_read/__this_cpu_write do no preemption checks of their own (in 2009 nothing warned; later kernels with CONFIG_DEBUG_PREEMPT catch this at the read).',
    'Each is one %gs:-relative instruction on x86, so the slot is that of the CPU the task is on at that step.',
  ],
  'preempt-off': [
    'Christoph Lameter\'s review of v1 (6 Nov 2009): "If you want to use the __this_cpu_xx versions then you need to manage preempt on your own."',
    'A migration can still happen before preempt_disable(): the check then simply runs on the new CPU, against its own slot.',
  ],
  'this-cpu-pair': [
    'The 2009 generic fallback of this_cpu_read/this_cpu_write wraps each access in preempt_disable()/preempt_enable(); on x86 each is one %gs: instruction. Either way each operation is preempt-safe and the pair is not.',
    'v2\'s changelog says "fixed misusage of __this_cpu_xxx", yet the soft-limit check still reads and resets with two separate operations.',
  ],
  cmpxchg: [
    'this_cpu_cmpxchg() did not exist yet in Nov 2009 (v2.6.39 has it): it is the single-operation fix, not what memcg did then.',
    'Why cmpxchg rather than this_cpu_xchg(events, 0): the check resets only above the threshold. An xchg would zero the slot every time and have to put a below-threshold count back, a second operation that can land on another CPU after a migration.',
    "A failed cmpxchg returns the slot's current value, so the loop decides again on the CPU it is on now (like this_cpu_try_cmpxchg).",
  ],
};

export default textScenario({
  id: 'this-cpu-migrate',
  title: 'this_cpu read, migrate, this_cpu write: memcg soft-limit check (2009)',
  group: MEMCG_2009_GROUP,
  source: KH_2009,
  summary:
    "A preemptible __this_cpu_read() then __this_cpu_write(…, 0): a migration in between resets another CPU's events.",
  reconstruction: false,
  params: [
    VARIANT.param,
    {
      name: 'slots',
      kind: 'list',
      default: [1001, 640],
      min: -1_000_000_000,
      max: 1_000_000_000,
      maxLength: 8,
      description: "Each CPU's MEMCG_EVENTS count at the start, CPU0 first (missing ones are 0)",
    },
    intSpec(
      'threshold',
      1000,
      [0, 1_000_000_000],
      'SOFTLIMIT_EVENTS_THRESH: the check fires when the count is above it',
    ),
    migrationCpusParam,
  ],
  text: programOf,
  underTso:
    "Under memory tso the outcomes are those under sc (a test explores both): a migration drains the buffer (the scheduler's full barrier), and a CPU reads its own buffered stores.",
  notes: (p) => NOTES[VARIANT.of(p)],
  bounds: { migrations: 1 },
  guarantees: VARIANT.guarantees({
    raw: [],
    'preempt-off': ['reset-own-slot'],
    'this-cpu-pair': [],
    cmpxchg: ['reset-own-slot'],
  }),
  witnesses: [
    VARIANT.witness('raw', {
      name: 'migrate-between',
      description:
        "T reads CPU0's 1001 (> 1000), is migrated to CPU1, and zeroes CPU1's slot: CPU1 loses 640 events and CPU0's 1001 are never reset.",
      schedule: '0 mig0>1 1',
      expect: { slot0: 1001, slot1: 0, val: 1001, fired: 1 },
      violates: ['reset-own-slot'],
    }),
    VARIANT.witness('raw', {
      name: 'no-migration',
      description: "v1 without a migration: T reads and resets CPU0's slot, as intended.",
      schedule: '0 0',
      expect: { slot0: 0, slot1: 640, val: 1001, fired: 1 },
    }),
    VARIANT.witness('preempt-off', {
      name: 'preempt-off',
      description:
        "Christoph Lameter's fix: with preemption off nothing can move T between read and reset, so it resets the slot it read.",
      schedule: '0*4',
      expect: { slot0: 0, slot1: 640, val: 1001, fired: 1 },
    }),
    VARIANT.witness('preempt-off', {
      name: 'migrate-before-preempt-off',
      description:
        "The fix cannot stop a migration before preempt_disable(): T then checks CPU1's own 640 and correctly does not fire.",
      schedule: 'mig0>1 1*3',
      expect: { slot0: 1001, slot1: 640, val: 640, fired: 0 },
    }),
    VARIANT.witness('this-cpu-pair', {
      name: 'pair-migrates',
      description:
        "v2: this_cpu_read() is preempt-safe and so is this_cpu_write(), but T migrates between them: CPU1's slot becomes 0, exactly as in v1.",
      schedule: '0*3 mig0>1 1*3',
      expect: { slot0: 1001, slot1: 0, val: 1001, fired: 1 },
      violates: ['reset-own-slot'],
    }),
    VARIANT.witness('cmpxchg', {
      name: 'cmpxchg-after-migration',
      description:
        "One this_cpu_cmpxchg(events, 1001, 0) after the migration finds 640 on CPU1 and fails; T decides again on 640 and does not fire. Nothing is lost; CPU0's check will fire next time it runs there.",
      schedule: '0 mig0>1 1',
      expect: { slot0: 1001, slot1: 640, val: 640, fired: 0 },
    }),
    VARIANT.witness('cmpxchg', {
      name: 'cmpxchg-fires',
      description:
        'Without a migration the cmpxchg finds 1001 and resets it in the same instruction.',
      schedule: '0*3',
      expect: { slot0: 0, slot1: 640, val: 1001, fired: 1 },
    }),
  ],
  lesson: {
    summary:
      'this_cpu operations address "the CPU I am on now". Two of them in a row may run on two different CPUs if the task can be preempted and migrated in between: v1 read CPU0\'s count and zeroed CPU1\'s. Making each operation preempt-safe (v2) does not help; the pair must be one critical section (preempt_disable around both) or one operation (this_cpu_cmpxchg).',
    question:
      "T reads CPU0's event count, 1001 (> 1000). Before it writes 0, it is migrated to CPU1, whose count is 640. What do the two slots hold afterwards?",
    answer:
      'CPU0 still 1001 (never reset, so the check fires again on CPU0 later) and CPU1 0: the 640 events counted on CPU1 are lost.',
  },
});
