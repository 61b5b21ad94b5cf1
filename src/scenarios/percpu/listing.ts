// The C text that the percpu_counter entries' listings share, line for line. Each entry writes
// only what its design changes (its locking, its fold, its sum's retry), so the lines that every
// version of lib/percpu_counter.c has in common are written once.

/** `struct percpu_counter { … };` with the given fields, and a blank line after it. */
export function counterStruct(fields: readonly string[]): string[] {
  return ['struct percpu_counter {', ...fields, '};', ''];
}

/** The 2011 designs' `__percpu_counter_add()`: its signature and its one local. */
export const addOpening: readonly string[] = [
  'void __percpu_counter_add(struct percpu_counter *fbc, s64 amount, s32 batch)',
  '{',
  '\ts64 count;',
  '',
];

/** The batch test: this CPU's delta plus `amount` is folded by `fold` at ±batch, else kept. */
export function batchTest(fold: readonly string[]): string[] {
  return [
    '\tcount = __this_cpu_read(*fbc->counters) + amount;',
    '\tif (count >= batch || count <= -batch) {',
    ...fold,
    '\t} else {',
    '\t\t__this_cpu_write(*fbc->counters, count);',
    '\t}',
  ];
}

const SUM_SIGNATURE = 's64 __percpu_counter_sum(struct percpu_counter *fbc)';

/** The locals of a sum that scans every CPU. */
export const sumLocals: readonly string[] = ['\ts64 ret;', '\tint cpu;'];

/** `__percpu_counter_sum()`'s signature and the locals of a sum that scans every CPU. */
export const sumOpening: readonly string[] = [SUM_SIGNATURE, '{', ...sumLocals];

/** The scan of every sum: each online CPU's delta added to `ret`. */
export const addEveryDelta: readonly string[] = [
  '\tfor_each_online_cpu(cpu)',
  '\t\tret += *per_cpu_ptr(fbc->counters, cpu);',
];

/** `percpu_counter_read()`, whose one line, `statement`, returns the count without a lock. */
export function readListing(statement: string): string[] {
  return ['s64 percpu_counter_read(struct percpu_counter *fbc)', '{', `\t${statement}`, '}'];
}

/**
 * A listing of the 2011 designs, in the order their entries show it: the struct,
 * `__percpu_counter_add()`, `__percpu_counter_sum()`, `percpu_counter_read()` and any `more`,
 * a blank line between each. Each part gives only the lines that differ from one design to the
 * next: the add's body after its local, the sum's body up to its `return ret;`.
 */
export function counterListing(parts: {
  readonly fields: readonly string[];
  readonly add: readonly string[];
  readonly sum: readonly string[];
  /** percpu_counter_read()'s one statement. */
  readonly read: string;
  /** Functions shown after percpu_counter_read(). */
  readonly more?: readonly string[];
}): string[] {
  return [
    ...counterStruct(parts.fields),
    ...addOpening,
    ...parts.add,
    '}',
    '',
    SUM_SIGNATURE,
    '{',
    ...parts.sum,
    '\treturn ret;',
    '}',
    '',
    ...readListing(parts.read),
    ...(parts.more ? ['', ...parts.more] : []),
  ];
}
