// The kernel memory model's tags on an instruction (tools/memory-model/linux-kernel.def): what
// the primitive it implements promises. The machine's interpreter ignores them (under sc and tso
// the machine itself is the model); the axiomatic engine (src/axiomatic) turns each tagged
// instruction into events carrying these tags. An access with no tag is a plain C access.

/** Tags, one bit each. Access annotations, fence kinds, lock and SRCU classes. */
export const Tag = {
  /** READ_ONCE, WRITE_ONCE, the _relaxed atomics, rcu_dereference. */
  Once: 1 << 0,
  /** smp_store_release, the _release atomics, rcu_assign_pointer. */
  Release: 1 << 1,
  /** smp_load_acquire, the _acquire atomics. */
  Acquire: 1 << 2,
  /** The read of an RMW that returns nothing (atomic_inc, atomic_add…). */
  Noreturn: 1 << 3,
  /** A fully ordered RMW (xchg, cmpxchg, atomic_*_return), or the smp_mb() fence. */
  Mb: 1 << 4,
  /** Made by a read-modify-write primitive (both its read and its write, and a failed one's read). */
  Rmw: 1 << 5,
  /** An initial write. */
  Init: 1 << 6,
  // Fences besides smp_mb().
  Rmb: 1 << 7,
  Wmb: 1 << 8,
  Barrier: 1 << 9,
  RcuLock: 1 << 10,
  RcuUnlock: 1 << 11,
  SyncRcu: 1 << 12,
  BeforeAtomic: 1 << 13,
  AfterAtomic: 1 << 14,
  AfterSpinlock: 1 << 15,
  AfterUnlockLock: 1 << 16,
  AfterSrcuReadUnlock: 1 << 17,
  // Spin locks (lock.cat): lock read and write, unlock, failed trylock, is_locked true / false.
  Lkr: 1 << 18,
  Lkw: 1 << 19,
  Ul: 1 << 20,
  Lf: 1 << 21,
  Rl: 1 << 22,
  Ru: 1 << 23,
  // SRCU: srcu_read_lock (a read of the srcu_struct), srcu_read_unlock (a write), synchronize_srcu.
  SrcuLock: 1 << 24,
  SrcuUnlock: 1 << 25,
  SyncSrcu: 1 << 26,
} as const;
