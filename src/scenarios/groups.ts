// The catalogue's groups: the thread or era each scenario comes from, as the picker and the
// catalogue list them (in the catalogue's order). One constant per group, used by every entry in it.

export const NR_FILES_GROUP = '2006 nr_files thread';
export const PERCPU_2_6_39_GROUP = 'percpu_counter (2.6.39)';
/** torn-read-32 sits here too: it comes from the same 2011 series. */
export const PERCPU_2011_GROUP = '2011 percpu_counter scalability threads';
export const MEMCG_2009_GROUP = '2009 memcg this_cpu review';
export const THIS_CPU_GROUP = 'this_cpu operations';
export const CMPXCHG_LOCAL_2007_GROUP = '2007 cmpxchg_local thread';
export const PERCPU_MAINLINE_GROUP = 'percpu_counter, 2017–2024 mainline';
export const PERCPU_RWSEM_GROUP = 'per-CPU sums that need smp_mb() (x86-TSO)';
export const PERCPU_REF_GROUP = 'percpu_ref and the kernel’s memory model';
export const MM_RSS_GROUP = 'mm RSS counters after v6.2: atomic until shared';
export const PERCPU_TREE_GROUP = 'percpu_counter_tree RFC (2025–2026)';
