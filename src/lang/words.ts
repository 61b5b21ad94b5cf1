// The words of the language, in one place: what the parser treats as a type, the keywords, and
// the lab's own clauses. The editor's highlighting reads the same lists.

/** Type names a declaration may start with (beside `struct name`). */
export const TYPE_NAMES: ReadonlySet<string> = new Set([
  'void',
  'int',
  'long',
  'short',
  'char',
  'unsigned',
  'signed',
  'bool',
  '_Bool',
  's8',
  's16',
  's32',
  's64',
  'u8',
  'u16',
  'u32',
  'u64',
  'size_t',
  'intptr_t',
  'uintptr_t',
  'atomic_t',
  'atomic64_t',
  'atomic_long_t',
  'spinlock_t',
  'raw_spinlock_t',
]);

/** Words that may come before a type and change nothing the machine models. */
export const QUALIFIERS: ReadonlySet<string> = new Set([
  'static',
  'const',
  'volatile',
  'inline',
  '__always_inline',
  'register',
  'extern',
  'noinline',
  '__percpu',
]);

/** C's statement keywords. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'if',
  'else',
  'while',
  'do',
  'for',
  'break',
  'continue',
  'return',
  'goto',
  'struct',
  'sizeof',
  'switch',
  'case',
  'default',
  'typedef',
  'union',
  'enum',
]);

/** herd7's final clauses and the lab's own (observe, invariant, counter). */
export const CLAUSE_WORDS: ReadonlySet<string> = new Set([
  'exists',
  'forall',
  'filter',
  'locations',
  'observe',
  'invariant',
  'counter',
  'final',
  'always',
]);

/** `for_each_*_cpu(cpu) statement`: every CPU of the machine, in order. */
export const CPU_LOOPS: ReadonlySet<string> = new Set([
  'for_each_online_cpu',
  'for_each_possible_cpu',
  'for_each_present_cpu',
  'for_each_cpu_or',
]);

/** A thread's name: P0, IRQ1, NMI0, DEAD1 (CPU1's hotplug dead callbacks)… */
export const THREAD_NAME = /^(P|IRQ|NMI|DEAD)(\d+)$/;
