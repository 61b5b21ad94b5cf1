// The sources the lessons cite, each once. Identifiers are those of the reference
// (/work/shared/reference/kernel-percpu.md, §0), so every one can be looked up in public
// archives; `seed` names the post among the project's seeds where one is.

import type { SourceRef } from '../types.ts';

export const NR_FILES_THREAD: SourceRef = {
  kind: 'mail',
  title:
    'LKML thread "[patch 2/2] fix file counting", January 2006 (Dipankar Sarma, Andrew Morton, Paul E. McKenney, Eric Dumazet)',
  ref: 'LKML, subject "[patch 2/2] fix file counting", January 2006',
  seed: '003_b2c27accdf059de7.txt',
};

export const DIPANKAR_2006: SourceRef = {
  kind: 'mail',
  title:
    'Dipankar Sarma, "Re: [patch 2/2] fix file counting", LKML, late January 2006 (atomic_t nr_files; kernbench on a 32-way P4 Xeon)',
  ref: 'LKML thread "[patch 2/2] fix file counting" (no Message-ID at hand)',
  seed: '003_b2c27accdf059de7.txt',
};

export const ERIC_2006: SourceRef = {
  kind: 'mail',
  title:
    'Eric Dumazet, "Re: [patch 2/2] fix file counting", LKML, 26 January 2006 (per-CPU nr_files, NR_FILES_THRESHOLD 16)',
  ref: '<43D92DD6.6090607@cosmosbay.com>',
};

export const FILE_TABLE_2_6_16: SourceRef = {
  kind: 'kernel-source',
  title: 'Linux 2.6.16 fs/file_table.c: files_stat.nr_files under filp_count_lock',
  ref: 'v2.6.16 fs/file_table.c',
};

export const PERCPU_COUNTER_2_6_39: SourceRef = {
  kind: 'kernel-source',
  title: 'Linux 2.6.39 lib/percpu_counter.c and include/linux/percpu_counter.h',
  ref: 'v2.6.39 lib/percpu_counter.c',
};

export const TIM_CHEN_2011: SourceRef = {
  kind: 'mail',
  title:
    'Tim Chen, "[RFC] mm: Make vm_acct_memory scalable for large memory allocations", linux-mm, 26 January 2011',
  ref: '<1296082319.2712.100.camel@schen9-DESK>',
};

export const TEJUN_2011: SourceRef = {
  kind: 'mail',
  title:
    'Tejun Heo, "Re: [PATCH] percpu: preemptless __per_cpu_counter_add", linux-mm, 26 April 2011 ("_sum can\'t be accurate")',
  ref: '<20110426121011.GD878@htj.dyndns.org>',
};

export const SHAOHUA_SUM_2011: SourceRef = {
  kind: 'mail',
  title:
    'Shaohua Li, "Re: [PATCH] percpu: preemptless __per_cpu_counter_add", linux-mm, 22 April 2011 (the retrying sum)',
  ref: '<1303439580.3981.241.camel@sli10-conroe>',
};

export const ERIC_SEQCOUNT_2011: SourceRef = {
  kind: 'mail',
  title:
    'Eric Dumazet, seqcount sum with maxfuzzy, same thread, 28 April 2011, and his correction the same day',
  ref: '<1304005726.3360.69.camel@edumazet-laptop>, <1304006345.3360.72.camel@edumazet-laptop>',
};

export const SHAOHUA_V2_2011: SourceRef = {
  kind: 'mail',
  title:
    'Shaohua Li, "[patch v2 0/5] percpu_counter: bug fix and enhancement", LKML, 11 May 2011 (lglock; the atomic64 "last post"; the 32-bit read fixes)',
  ref: 'https://lkml.org/lkml/2011/5/11/15',
};

export const LGLOCK_2_6_39: SourceRef = {
  kind: 'kernel-source',
  title: 'Linux 2.6.39 include/linux/lglock.h (per-CPU arch_spinlock_t, local and global lock)',
  ref: 'v2.6.39 include/linux/lglock.h',
};

export const ERIC_V1_2011: SourceRef = {
  kind: 'mail',
  title:
    'Eric Dumazet, "Re: [patch] percpu_counter: scalability works", LKML, 13 May 2011 (V1 explained, V2 announced)',
  ref: '<1305301151.3866.39.camel@edumazet-laptop>',
  seed: '000_51fe1e792fbcdb42.txt',
};

export const MEMCG_2009: SourceRef = {
  kind: 'mail',
  title:
    'KAMEZAWA Hiroyuki, "[PATCH 2/2] memcg : rewrite percpu countings with new interfaces", linux-mm, v1 6 November 2009 (with Christoph Lameter\'s review) and v2 9 November 2009',
  ref: '<20091106175545.b97ee867.kamezawa.hiroyu@jp.fujitsu.com>, <20091109154446.181b0e1f.kamezawa.hiroyu@jp.fujitsu.com>',
  seed: '004_24f90eb0503b55e6.txt',
};

export const PERCPU_H_2_6_39: SourceRef = {
  kind: 'kernel-source',
  title:
    'Linux 2.6.39 include/linux/percpu.h (generic this_cpu, __this_cpu and irqsafe_cpu operations) and arch/x86/include/asm/percpu.h (percpu_add_op, percpu_cmpxchg_op)',
  ref: 'v2.6.39 include/linux/percpu.h, arch/x86/include/asm/percpu.h',
};

export const PERCPU_DEFS_MODERN: SourceRef = {
  kind: 'kernel-source',
  title:
    'Modern mainline include/linux/percpu-defs.h (the raw_cpu, __this_cpu and this_cpu layers)',
  ref: 'include/linux/percpu-defs.h (mainline)',
};

export const CMPXCHG_LOCAL_2007: SourceRef = {
  kind: 'mail',
  title:
    'Mathieu Desnoyers, "[patch 01/28] Add cmpxchg_local to asm-generic for per cpu atomic operations", 30 October 2007',
  ref: '<20071030192101.749932864@polymtl.ca>',
  seed: '002_1d13fe7558eb3fe5.txt',
};

export const CMPXCHG_GENERIC_2_6_39: SourceRef = {
  kind: 'kernel-source',
  title: 'Linux 2.6.39 include/asm-generic/cmpxchg-local.h and include/asm-generic/cmpxchg.h',
  ref: 'v2.6.39 include/asm-generic/cmpxchg-local.h',
};

export const PERCPU_COUNTER_4_13: SourceRef = {
  kind: 'kernel-source',
  title:
    'Mainline lib/percpu_counter.c around v4.13 (percpu_counter_add_batch: preempt_disable, this_cpu_add)',
  ref: 'torvalds/linux@104b4e5139fe lib/percpu_counter.c',
};

export const MANFRED_2022: SourceRef = {
  kind: 'mail',
  title:
    'Manfred Spraul, "[PATCH 1/3] :lib/percpu_counter: percpu_counter_add_batch() overflow/underflow", 16 December 2022',
  ref: '<20221216150441.200533-1-manfred@colorfullife.com>',
};

export const MANFRED_UP_2022: SourceRef = {
  kind: 'mail',
  title:
    'Manfred Spraul, "[PATCH 2/3] include/linux/percpu_counter.h: Race in uniprocessor percpu_counter_add()", 16 December 2022',
  ref: '<20221216150441.200533-2-manfred@colorfullife.com>',
};

export const MATEUSZ_2024: SourceRef = {
  kind: 'mail',
  title:
    'Mateusz Guzik, "[PATCH v4] percpu_counter: add a cmpxchg-based _add_batch variant", 28 May 2024 (applied for 6.11)',
  ref: '<20240528204257.434817-1-mjguzik@gmail.com>',
};
