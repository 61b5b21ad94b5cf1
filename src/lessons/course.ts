// The course: every scenario once, from the first race to the kernel of today. Each lesson file
// says where it stands (its `course` number); this module sorts them. The order, and why:
//
// It follows the catalogue's order (the order of groups.ts: the 2006 nr_files thread,
// percpu_counter in 2.6.39, the 2011 scalability threads, this_cpu operations and cmpxchg_local,
// modern mainline), with three moves, each for the student:
// - global-spinlock comes before global-atomic: that is the order of history (2.6.16's
//   filp_count_lock, replaced by Dipankar Sarma's atomic_t, then Eric Dumazet's per-CPU counts)
//   and of the 2006 thread's fixes "in increasing scalability".
// - torn-read-32 joins its group (groups.ts puts it with the 2011 series, whose first patches
//   fix it) and opens it: its SMP fix, an atomic64_t fbc->count, is where percpu-atomic64 starts.
// - percpu-sum-fuzzy comes right after percpu-atomic64, as in the thread (the retrying sums of
//   22–28 April 2011 answer the atomic64 sum's deviation): it shows the livelock that
//   percpu-seq's in-flight bit later bounds. percpu-lglock (11 May), which blocks adders during
//   a sum instead, comes next, then Eric Dumazet's V1 and V2 (13 May).
// percpu-modern closes the course's main line (percpu-tree, 2025–2026, follows it: the same
// batching as a tree of carries): its race and its fixes build on irq-local-rmw (an IRQ inside a
// read-modify-write; interrupts off; a this_cpu_cmpxchg retry loop) and cmpxchg-local-generic.
// percpu-hotplug-sum follows it: the same counter in 2023, its sum against a CPU going offline;
// then percpu-limited-add and percpu-upgrade, the arguments of 2023–2025 over the same counter
// (an unlocked limit test; an atomic mode that upgrades under a cmpxchg).
// percpu-rwsem comes after them, as an epilogue: the first scenario where the memory model, not
// the interleaving, decides (x86 store buffers), so it needs everything before it; seqcount-sum
// and percpu-ref-switch end the course, where only the kernel's own memory model shows what the
// barriers are for: a read pairing, then a release paired with a dependency.

import { lessons } from './catalogue/index.ts';

/** Lessons sorted by their `course` numbers; two lessons at one place are an author's mistake. */
export function courseOf(all: readonly { scenario: string; course: number }[]): string[] {
  const sorted = [...all].sort((a, b) => a.course - b.course);
  sorted.forEach((l, i) => {
    const before = sorted[i - 1];
    if (before?.course === l.course)
      throw new Error(
        `${before.scenario}.json and ${l.scenario}.json both stand at course ${String(l.course)}: give one another number`,
      );
  });
  return sorted.map((l) => l.scenario);
}

/** Scenario ids in course order, from global-plain to percpu-ref-switch: each lesson says its place. */
export const courseOrder: readonly string[] = courseOf(lessons);

/** The scenario after `id` in the course, or null at the end (or for an id not in it). */
export function nextInCourse(id: string): string | null {
  const i = courseOrder.indexOf(id);
  return i < 0 ? null : (courseOrder[i + 1] ?? null);
}

/** The scenario before `id` in the course, or null at the start (or for an id not in it). */
export function previousInCourse(id: string): string | null {
  const i = courseOrder.indexOf(id);
  return i <= 0 ? null : (courseOrder[i - 1] ?? null);
}
