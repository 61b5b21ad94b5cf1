// The events of an axiomatic execution and their tags, as the kernel's memory model names them
// (tools/memory-model/linux-kernel.def and .bell): each primitive becomes reads, writes and
// fences, each tagged with what the primitive promises (`Once`, `Release`, `Acquire`, `Mb`…).

export { Tag } from '../machine/tags.ts';
import { Tag } from '../machine/tags.ts';

/** What an event is: a read, a write, or a fence (which touches no memory). */
export type Dir = 'R' | 'W' | 'F';

export interface AxEvent {
  /** Index in the execution's event list. */
  readonly id: number;
  /** The thread (P0 is 0); −1 for an initial write. */
  readonly thread: number;
  /** Position in the thread's program order (0, 1, 2…); −1 for an initial write. */
  readonly po: number;
  readonly dir: Dir;
  /** Word address of the location, or −1 (a fence without one). */
  readonly loc: number;
  /** The value read or written (0 for a fence). */
  readonly value: bigint;
  readonly tags: number;
  /** The instruction it came from (index in the thread's program), or −1. */
  readonly pc: number;
}

/** Tag names as herd7 prints them, for the graph's labels and the narration. */
export const TAG_NAMES: readonly (readonly [number, string])[] = [
  [Tag.Once, 'Once'],
  [Tag.Release, 'Release'],
  [Tag.Acquire, 'Acquire'],
  [Tag.Noreturn, 'Noreturn'],
  [Tag.Mb, 'Mb'],
  [Tag.Rmb, 'Rmb'],
  [Tag.Wmb, 'Wmb'],
  [Tag.Barrier, 'Barrier'],
  [Tag.RcuLock, 'Rcu-lock'],
  [Tag.RcuUnlock, 'Rcu-unlock'],
  [Tag.SyncRcu, 'Sync-rcu'],
  [Tag.BeforeAtomic, 'Before-atomic'],
  [Tag.AfterAtomic, 'After-atomic'],
  [Tag.AfterSpinlock, 'After-spinlock'],
  [Tag.AfterUnlockLock, 'After-unlock-lock'],
  [Tag.AfterSrcuReadUnlock, 'After-srcu-read-unlock'],
  [Tag.Lkr, 'LKR'],
  [Tag.Lkw, 'LKW'],
  [Tag.Ul, 'UL'],
  [Tag.Lf, 'LF'],
  [Tag.Rl, 'RL'],
  [Tag.Ru, 'RU'],
  [Tag.SrcuLock, 'Srcu-lock'],
  [Tag.SrcuUnlock, 'Srcu-unlock'],
  [Tag.SyncSrcu, 'Sync-srcu'],
];

/** The tag names an event carries, e.g. ["Once"] or ["Mb"]. */
export function tagNames(tags: number): string[] {
  return TAG_NAMES.filter(([t]) => (tags & t) !== 0).map(([, n]) => n);
}
