// percpu-tree: Mathieu Desnoyers' hierarchical per-CPU counter (lib/percpu_counter_tree.c, RFC
// v7–v17, 2025–2026). The per-CPU words (level 0) are never reset; an add that crosses a
// multiple of the batch carries up a tree of items, each carry computed from the before and
// after values of the one atomic RMW that made it, so each crossing carries exactly once without
// a lock. The approximate sum is the root, O(1), within an accuracy range of O(n log n); the
// range holds for a settled counter, and an add between its per-CPU add and its carry is not
// covered: the approximate sum leaves the range, and the carry still lands.

import { PERCPU_TREE_GROUP } from '../groups.ts';
import { intParam, intSpec, listParam, ParamError } from '../params.ts';
import { type VariantOf, variants } from '../define.ts';
import { textScenario } from '../textScenario.ts';
import { isPowerOfTwo, itemField, settledItems, type TreeShape, treeShape } from '../treeShape.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['v17', 'v7'],
  'v17',
  'v17: the add as later posted (no migrate guard; an intermediate item is skipped when the carry has none of its bits); v7: the first RFC (guard(migrate)() around the add, every level’s atomic)',
);
type Variant = VariantOf<typeof VARIANT>;

export const PERCPU_TREE_SOURCE =
  'Mathieu Desnoyers, "[RFC PATCH v7 1/2] lib: Introduce hierarchical per-cpu counters" <20251031144232.15284-2-mathieu.desnoyers@efficios.com> (31 Oct 2025); v17 "Improve proc RSS accuracy" <20260217161006.1105611-1-mathieu.desnoyers@efficios.com> (17 Feb 2026); lib/percpu_counter_tree.c as in the linux-mm tree';

/** A CPU's value in a list parameter (missing entries: `fallback`). */
function at(list: readonly number[], k: number, fallback: number): number {
  return list[k] ?? fallback;
}

/** The level-by-level part of the slow path: one block per intermediate level, then the root. */
function slowpath(shape: TreeShape, v: Variant): string {
  const root = shape.levels.length;
  const blocks = shape.levels.slice(0, -1).map((l) => {
    const pick =
      l.items === 1
        ? `\t\tres = atomic_long_add_return_relaxed(inc, &counter->${itemField(shape, l.level, 0)});`
        : Array.from({ length: l.items }, (_, j) => {
            const add = `res = atomic_long_add_return_relaxed(inc, &counter->${itemField(shape, l.level, j)});`;
            if (j === 0) return `\t\tif ((cpu & ${String(l.items - 1)}) == 0)\n\t\t\t${add}`;
            if (j === l.items - 1) return `\t\telse\n\t\t\t${add}`;
            return `\t\telse if ((cpu & ${String(l.items - 1)}) == ${String(j)})\n\t\t\t${add}`;
          }).join('\n');
    const body = [
      pick,
      '\t\torig = res - inc;',
      `\t\tinc = percpu_counter_tree_carry(orig, res, inc, ${String(l.bitMask)});`,
      '\t\tif (!inc)',
      '\t\t\treturn;',
    ].join('\n');
    const head = `\t/* level ${String(l.level)}: item[cpu & ${String(l.items - 1)}], a carry crosses ${String(l.bitMask)} */`;
    return v === 'v17'
      ? `${head}\n\tif (abs(inc) & ${String(l.bitMask - 1)}) {\n${body.replace(/^\t/gm, '\t')}\n\t}`
      : `${head}\n\t{\n${body}\n\t}`;
  });
  return `static void percpu_counter_tree_add_slowpath(struct percpu_counter_tree *counter, long inc)
{
	unsigned int cpu = raw_smp_processor_id();	/* only for cache locality */
	long orig, res;
${blocks.length > 0 ? `\n${blocks.join('\n')}\n` : ''}
	/* level ${String(root)}: the root, the approximate sum */
	atomic_long_add(inc, &counter->${itemField(shape, root, 0)});
}`;
}

function addFunction(shape: TreeShape, v: Variant): string {
  if (shape.levels.length === 0)
    return `void percpu_counter_tree_add(struct percpu_counter_tree *counter, long inc)
{
	this_cpu_add_return(*counter->level0, inc);	/* one CPU: level 0 is the sum */
}`;
  const guard = v === 'v7';
  return `${slowpath(shape, v)}

void percpu_counter_tree_add(struct percpu_counter_tree *counter, long inc)
{
	long orig, res, carry;
${guard ? '\n\tpreempt_disable();\t\t\t/* guard(migrate)(), v7 */\n' : ''}
	res = this_cpu_add_return(*counter->level0, inc);	/* never reset */
	orig = res - inc;
	carry = percpu_counter_tree_carry(orig, res, inc, BATCH);
	if (carry)					/* a multiple of BATCH was crossed */
		percpu_counter_tree_add_slowpath(counter, carry);${guard ? '\n\tpreempt_enable();' : ''}
}`;
}

function text(p: Params): string {
  const v = VARIANT.of(p);
  const cpus = intParam(p, 'cpus');
  const batch = intParam(p, 'batch');
  if (!isPowerOfTwo(batch)) throw new ParamError(`batch must be a power of 2, got ${batch}`);
  const shape = treeShape(cpus, batch);
  const start = listParam(p, 'start');
  const amounts = listParam(p, 'amounts');
  const adds = listParam(p, 'adds');
  const irq = intParam(p, 'irq');
  const other = intParam(p, 'other');
  const summer = intParam(p, 'summer');
  if (summer >= cpus) throw new ParamError(`summer must be a CPU below ${cpus} (or −1)`);
  const items = settledItems(shape, start.slice(0, cpus));
  const fields = shape.levels.flatMap((l) =>
    Array.from({ length: l.items }, (_, j) => {
      const name = itemField(shape, l.level, j);
      const what =
        l.level === shape.levels.length
          ? 'the root: the approximate sum'
          : `level ${String(l.level)}, item ${String(j)}`;
      return `\tatomic_long_t ${name};${name.length < 5 ? '\t' : ''}\t\t/* ${what} (a cache line) */`;
    }),
  );
  const init = [
    ...start
      .slice(0, cpus)
      .map((x, k) => (x === 0 ? null : `\tper_cpu(t.level0, ${String(k)}) = ${String(x)};`)),
    ...shape.levels.flatMap((l) =>
      (items[l.level - 1] ?? []).map((x, j) =>
        x === 0n ? null : `\tt.${itemField(shape, l.level, j)} = ${String(x)};`,
      ),
    ),
  ].filter((l): l is string => l !== null);
  const approx = shape.levels.length === 0 ? null : itemField(shape, shape.levels.length, 0);
  const approxRead =
    approx === null
      ? 'per_cpu(t.level0, 0) + t.bias'
      : `atomic_long_read(&counter->${approx}) + READ_ONCE(counter->bias)`;
  const approxOfT = approx === null ? 'per_cpu(t.level0, 0) + t.bias' : `t.${approx} + t.bias`;
  const task = (k: number): string | null => {
    const n = at(adds, k, 0);
    const amount = at(amounts, k, at(amounts, amounts.length - 1, 1));
    if (k === summer)
      return `P${String(k)}()\t\t\t\t/* the precise sum */\n{\n\trecord(sum, percpu_counter_tree_precise_sum(&t));\n}`;
    if (n <= 0) return null;
    const each = `percpu_counter_tree_add(&t, ${String(amount)});`;
    return n === 1
      ? `P${String(k)}()\n{\n\t${each}\n}`
      : `P${String(k)}()\n{\n\tint i;\n\n\tfor (i = 0; i < ${String(n)}; i++)\n\t\t${each}\n}`;
  };
  const threads = Array.from({ length: cpus }, (_, k) => task(k)).filter(
    (t): t is string => t !== null,
  );
  // A second task on CPU0, which runs there when CPU0's task is preempted (pre0): another
  // task's add, on the same CPU and the same per-CPU word, between the first's add and its carry.
  if (other !== 0)
    threads.push(
      `P${String(cpus)}() on cpu 0\t\t\t/* another task on CPU0: runs when P0 is preempted */\n{\n\tpercpu_counter_tree_add(&t, ${String(other)});\n}`,
    );
  if (irq !== 0)
    threads.push(
      `IRQ0()\t\t\t\t/* CPU0's interrupt handler adds too */\n{\n\tpercpu_counter_tree_add(&t, ${String(irq)});\n}`,
    );
  const levelsText =
    shape.levels.length === 0
      ? 'one CPU: its per-CPU word is the approximate sum'
      : `${shape.levels.map((l) => String(l.items)).join(' → ')} item${shape.levels.length > 1 || (shape.levels[0]?.items ?? 0) > 1 ? 's' : ''} above ${String(cpus)} per-CPU words`;
  return `C percpu-tree-${v}

/*
 * The hierarchical per-CPU counter (percpu_counter_tree), in teaching form: ${levelsText}.
 * An add that crosses a multiple of BATCH in its per-CPU word carries up the tree; the root is
 * the approximate sum. The accuracy range is a bound on a settled counter: an add between its
 * per-CPU add and its carry is not covered.
 */

#define NR_CPUS ${String(cpus)}
#define BATCH ${String(batch)}			/* batch_size: a power of 2 */
#define UNDER ${String(shape.under)}			/* BATCH * ${String(shape.multiplier)}: approx_accuracy_range.under */
#define OVER ${String(shape.over)}			/* (BATCH - 1) * ${String(shape.multiplier)}: approx_accuracy_range.over */

struct percpu_counter_tree {
	unsigned long __percpu *level0;	/* level 0: never reset */
${fields.join('\n')}
	long bias;			/* set() moves the sum here: 0 */
};

struct percpu_counter_tree t;
${init.length > 0 ? `\n{\n${init.join('\n')}\n}\n` : ''}
static long percpu_counter_tree_carry(long orig, long res, long inc, long bit_mask)
{
	if (inc < 0) {
		inc = -(-inc & ~(bit_mask - 1));
		if ((inc ^ orig ^ res) & bit_mask)	/* underflow across bit_mask */
			inc -= bit_mask;
	} else {
		inc &= ~(bit_mask - 1);
		if ((inc ^ orig ^ res) & bit_mask)	/* overflow across bit_mask */
			inc += bit_mask;
	}
	return inc;
}

${addFunction(shape, v)}

long percpu_counter_tree_approximate_sum(struct percpu_counter_tree *counter)
{
	return ${approxRead};	/* O(1) */
}

long percpu_counter_tree_precise_sum(struct percpu_counter_tree *counter)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)		/* no lock, no hotplug callback */
		sum += *per_cpu_ptr(counter->level0, cpu);
	return sum + READ_ONCE(counter->bias);
}

${threads.join('\n\n')}

counter {
	deltas t.level0;
	parts t.bias;
	batch BATCH;
	error UNDER;
	add percpu_counter_tree_add(inc);
	sum percpu_counter_tree_precise_sum;
	read percpu_counter_tree_approximate_sum(&t);
}

observe approx = ${approxOfT};
observe exact;
${summer >= 0 ? 'observe sum;\n' : ''}
invariant final no-lost-update;
${summer >= 0 ? 'invariant always sum-within-window;\n' : ''}invariant final approx-in-range-at-rest: exact - UNDER <= ${approxOfT} && ${approxOfT} <= exact + OVER "At rest, precise − UNDER ≤ approximate_sum ≤ precise + OVER: the RFC’s accuracy range";
invariant always approx-in-range: exact - UNDER <= ${approxOfT} && ${approxOfT} <= exact + OVER "At every step, the approximate sum is within the accuracy range of the exact total (the header: an update in flight is not covered)";
`;
}

const NOTES: Record<Variant, readonly string[]> = {
  v17: [
    'Later versions dropped v7’s guard(migrate)(): "It does not matter through which path the carry propagates up the tree ... the cpu number is only used to favor cache locality".',
    'v17 skips an intermediate level’s atomic when the carry has none of the bits that level keeps (abs(inc) & (bit_mask − 1) is 0): the carry passes up unchanged.',
  ],
  v7: [
    'v7 wraps the add in guard(migrate)(), modelled as preempt_disable()/preempt_enable(): the lab has no migrate_disable(), and both keep the task on its CPU. An IRQ can still come between the per-CPU add and the carry.',
    'The model is stricter than the kernel here: migrate_disable() leaves the task preemptible, so in the kernel another task on the CPU can run between v7’s per-CPU add and its carry, as in v17’s preempted-in-the-window; the lab’s v7 forbids that preemption.',
  ],
};

/** CPU0's word at 7, one below a multiple of the batch (4), the others at 3; CPU0 adds 1, once. */
const ONE_BELOW_A_CARRY: Params = { start: [7, 3, 3, 3], amounts: [1], adds: [1] };

/** CPU0's task adds 8 once (CPU1 nothing), and CPU0's IRQ handler adds 8 too: v17's and v7's IRQ. */
const IRQ_IN_THE_WINDOW: Params = { adds: [1], irq: 8 };

export default textScenario({
  id: 'percpu-tree',
  title: 'The counter tree (2025–2026): carries up a tree, an approximate sum in O(1)',
  group: PERCPU_TREE_GROUP,
  source: PERCPU_TREE_SOURCE,
  summary:
    'Per-CPU words never reset; each crossing of a batch carries up a tree by the before/after values of one atomic RMW. The root is an approximate sum within O(n log n), at rest: an add between its per-CPU add and its carry leaves the range, and the carry still lands.',
  reconstruction: false,
  params: [
    VARIANT.param,
    intSpec(
      'cpus',
      4,
      [1, 64],
      'nr_cpu_ids: the tree has ⌈log2 CPUs⌉ levels above the per-CPU words',
    ),
    intSpec('batch', 4, [2, 1 << 20], 'batch_size (a power of 2): a carry at each multiple of it'),
    {
      name: 'start',
      kind: 'list',
      default: [7, 7, 3, 3],
      min: -1_000_000,
      max: 1_000_000,
      maxLength: 64,
      description:
        "Each CPU's per-CPU word at the start, CPU0 first (missing ones are 0); the items above hold their settled carries",
    },
    {
      name: 'amounts',
      kind: 'list',
      default: [8],
      min: -1_000_000,
      max: 1_000_000,
      maxLength: 64,
      description: 'What each CPU adds per call, CPU0 first (missing ones repeat the last)',
    },
    {
      name: 'adds',
      kind: 'list',
      default: [1, 1],
      min: 0,
      max: 1000,
      maxLength: 64,
      description: 'How many adds each CPU makes, CPU0 first (missing ones are 0)',
    },
    intSpec('irq', 0, [-1_000_000, 1_000_000], "What CPU0's IRQ handler adds (0: no handler)"),
    intSpec(
      'other',
      0,
      [-1_000_000, 1_000_000],
      "What a second task on CPU0 adds; it runs when CPU0's task is preempted (0: no such task)",
    ),
    intSpec(
      'summer',
      -1,
      [-1, 63],
      'A CPU that takes the precise sum instead of adding (−1: none)',
    ),
  ],
  presets: {
    kernel: {
      description: 'batch 32, as in the RFC’s examples',
      apply: () => ({ batch: 32 }),
    },
  },
  text,
  notes: (p) => [
    ...NOTES[VARIANT.of(p)],
    'The items above level 0 are cache-line-aligned atomic_long_t in the kernel; here each is a word of its own (Live pads every word to a line).',
    'The kernel indexes the items of a level (item[cpu & (n − 1)]); the lab has no arrays but per-CPU ones, so each level is an if-chain over its items.',
    'The start state is a settled tree: each CPU’s start value added once, in CPU order, and carried to the root before the next.',
  ],
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): the per-CPU add and every carry are LOCKed or %gs:-relative read-modify-writes, and the approximate sum reads one word.',
  bounds: { irqs: 1, preemptions: 1, migrations: 1 },
  guarantees: VARIANT.guarantees({
    v17: ['no-lost-update', 'approx-in-range-at-rest'],
    v7: ['no-lost-update', 'approx-in-range-at-rest'],
  }),
  witnesses: [
    VARIANT.witness('v17', {
      name: 'two-in-flight',
      description:
        'Every word holds the most it can without carrying (precise 20, approximate 0). CPU0 and CPU1 each add 8 (two batches): after both per-CPU adds the precise sum is 36 and the root still 0, 36 > UNDER = 32 below it: outside the range. Both carries land and the approximate sum is 16, exact 36.',
      schedule: '0 0 1 1 0 0 1 1',
      expect: { approx: 16, exact: 36 },
      violates: ['approx-in-range'],
    }),
    VARIANT.witness('v17', {
      name: 'carry-ripple',
      description:
        "CPU0's word goes 7 → 8: a carry of 4 to level 1, whose item goes 4 → 8 and carries 8 to the root. The approximate sum moves from 0 to 8; the precise sum is 17 all along.",
      params: ONE_BELOW_A_CARRY,
      schedule: '0 0 0 0 0',
      expect: { approx: 8, exact: 17 },
    }),
    VARIANT.witness('v17', {
      name: 'irq-in-the-window',
      description:
        "CPU0's task adds 8 to its word (15) and is interrupted before its carry. The handler adds 8 (23), carries its own crossing (8) to the root and returns; meanwhile the precise sum was 36 against a root of 0. The task then carries its own 8: each context carries only the crossing its own add_return saw.",
      params: IRQ_IN_THE_WINDOW,
      schedule: '0 0 irq0 0*4 0 0',
      expect: { approx: 16, exact: 36 },
      violates: ['approx-in-range'],
    }),
    VARIANT.witness('v17', {
      name: 'preempted-in-the-window',
      description:
        "CPU0's task P0 adds 8 to its word (7 → 15) and is preempted before its carry: nothing in v17's add keeps preemption off after this_cpu_add_return(). Another task on CPU0, P4, adds 8 to the same word (15 → 23): the precise sum is 36 against a root of 0, outside the range. P4 carries its own crossing (8) to the root and finishes; P0 runs again and carries its 8: root 16, exact 36, inside the range.",
      params: { adds: [1], other: 8 },
      schedule: '0 0 pre0 0*6',
      expect: { approx: 16, exact: 36 },
      violates: ['approx-in-range'],
    }),
    VARIANT.witness('v17', {
      name: 'migrated-carry',
      description:
        "CPU0's task crosses 8 in its word and is migrated to CPU1 before its carry: the carry goes through CPU1's level-1 item (0 → 4) instead of CPU0's. It does not matter through which path the carry goes: the root and the precise sum stay within the range, and the sum is exact.",
      params: ONE_BELOW_A_CARRY,
      schedule: '0 0 mig0>1 1 1',
      expect: { approx: 0, exact: 17 },
    }),
    VARIANT.witness('v7', {
      name: 'v7-irq-in-the-window',
      description:
        "v7's guard keeps the task on CPU0, but not an IRQ out: the handler's add and carry come between the task's per-CPU add and its carry, and the approximate sum leaves the range as in v17.",
      params: IRQ_IN_THE_WINDOW,
      schedule: '0*3 irq0 0*11',
      expect: { approx: 16, exact: 36 },
      violates: ['approx-in-range'],
    }),
  ],
  lesson: {
    summary:
      "Each CPU adds into a word it never resets. When the word crosses a multiple of the batch, the add carries the crossing up a tree of shared items, and each item's own atomic add_return says, from its value before and after, whether it crossed its own multiple and carries further. The root is the approximate sum: one read, off by at most UNDER below or OVER above, O(n log n) where percpu_counter_read() is off by O(n²). At rest. An add whose per-CPU part is done but whose carry is not yet up the tree is counted by the precise sum and not by the root, so the approximate sum can leave the range while carries are in flight; the carries still land, and the precise sum is exact.",
    question:
      'Four CPUs, batch 4: the words hold 7, 7, 3, 3 and the root 0 (UNDER = 32). CPU0 and CPU1 each add 8. Right after both per-CPU adds, before either carry, how far is the approximate sum from the precise sum? And after both carries?',
    answer:
      'The precise sum is 36 and the root still 0: 36 below, more than UNDER = 32, outside the range. After both carries the root is 16, 20 below the exact 36: inside the range again, and the precise sum was exact all along.',
  },
});
