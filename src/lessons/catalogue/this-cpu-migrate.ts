// this-cpu-migrate: the memcg soft-limit check of November 2009, __this_cpu_read then
// __this_cpu_write with a migration between (reference §6e).

import type { ScenarioLesson } from '../types.ts';
import { MEMCG_2009, PERCPU_H_2_6_39 } from './sources.ts';

const ONE_MIGRATION = { irqs: 0, nmis: 0, preemptions: 0, migrations: 1 };

export const thisCpuMigrateLesson: ScenarioLesson = {
  scenario: 'this-cpu-migrate',
  sources: [MEMCG_2009, PERCPU_H_2_6_39],
  slides: [
    {
      title: 'A per-CPU event count',
      text: "KAMEZAWA Hiroyuki's v1 rewrite of memcg's statistics checked the soft limit with val = __this_cpu_read(count); if it is above the threshold, __this_cpu_write(count, 0). The task runs preemptible. CPU0's count is 1001, above the threshold of 1000; CPU1's is 640.",
      expect: { slot0: 1001, slot1: 640, val: null },
    },
    {
      title: 'Migrated between read and write',
      text: "The task reads CPU0's 1001, is migrated to CPU1, and writes 0: to CPU1's slot, the CPU it runs on now. CPU1 loses 640 events, and CPU0's 1001 are never reset, so the check will fire there again.",
      at: '0 mig0>1 1',
      expect: { slot0: 1001, slot1: 0, val: 1001, fired: 1 },
      breaks: ['reset-own-slot'],
      predict: {
        question: "After the migration, which CPU's slot does __this_cpu_write(count, 0) change?",
        answer: "CPU1's: this_cpu means the CPU the task is on at that instruction.",
      },
    },
    {
      title: 'v2: two safe operations are not one',
      text: 'Christoph Lameter\'s review of v1: "You need to keep preempt_disable/enable here because otherwise the per cpu variable zeroed may be on a different cpu than the per cpu variable where you got the value from." v2 used this_cpu_read and this_cpu_write, each preempt-safe on its own, but the task can still move between them: CPU1\'s slot becomes 0 exactly as before.',
      params: { variant: 'this-cpu-pair' },
      at: '0*3 mig0>1 1*3',
      expect: { slot0: 1001, slot1: 0, val: 1001, fired: 1 },
      breaks: ['reset-own-slot'],
    },
    {
      title: 'Fix 1: preemption off around the pair',
      text: "With preempt_disable() before the read and preempt_enable() after the write, nothing can move the task in between: it resets CPU0's slot, the one it read.",
      params: { variant: 'preempt-off' },
      at: '0*4',
      expect: { slot0: 0, slot1: 640, val: 1001, fired: 1 },
      breaks: [],
    },
    {
      title: 'Fix 2: one operation',
      text: 'A single this_cpu_cmpxchg(count, 1001, 0) reads and writes in one instruction. Migrated first, it finds 640 on CPU1 and fails; the task decides again on 640 and does not fire. Nothing is lost.',
      params: { variant: 'cmpxchg' },
      at: '0 mig0>1 1',
      expect: { slot0: 1001, slot1: 640, val: 640, fired: 0 },
      breaks: [],
    },
  ],
  witnessQuestions: {
    'migrate-between': {
      question:
        "The task reads CPU0's 1001 (above 1000), is migrated to CPU1 (count 640) and writes 0. What do the slots hold?",
      answer:
        "CPU0 still 1001 and CPU1 0: CPU1's 640 events are lost and CPU0's count was never reset.",
    },
    'no-migration': {
      question: 'v1 without a migration: what does the check do?',
      answer: "It reads CPU0's 1001, fires, and resets CPU0's slot to 0, as intended.",
    },
    'preempt-off': {
      question: 'With preemption off around the read and the write, can the write hit CPU1?',
      answer: 'No: the task cannot be moved between them, so it resets the slot it read.',
    },
    'migrate-before-preempt-off': {
      question:
        'With the preempt-off fix, the task is migrated to CPU1 before preempt_disable(). What does the check do?',
      answer: "It reads CPU1's own 640, which is not above 1000, and correctly does not fire.",
    },
    'pair-migrates': {
      question:
        'v2: this_cpu_read() then this_cpu_write(), each preempt-safe. The task migrates between them. What happens?',
      answer: "The same as v1: CPU1's slot becomes 0 and CPU0's 1001 stay.",
    },
    'cmpxchg-after-migration': {
      question:
        'this_cpu_cmpxchg(count, 1001, 0), after the task was migrated to CPU1. What does it do?',
      answer: 'It finds 640, not 1001, and fails; the task decides again on 640 and does not fire.',
    },
    'cmpxchg-fires': {
      question: 'this_cpu_cmpxchg(count, 1001, 0) without a migration. What happens?',
      answer: "It finds 1001 and writes 0 in the same instruction: CPU0's slot is reset.",
    },
  },
  challenges: [
    {
      id: 'zero-the-wrong-slot',
      title: "Zero the wrong CPU's count",
      task: 'v1 (__this_cpu_read, __this_cpu_write, preemptible). With one migration, make the reset discard events the check never read.',
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'reset-own-slot' },
      params: {},
      bounds: ONE_MIGRATION,
      hints: [
        { text: 'this_cpu means "the CPU I am on at this instruction".' },
        { text: 'Move the task after it has read and before it writes.' },
        { text: 'Read on CPU0, migrate, write on CPU1.', schedule: '0 mig0>1 1' },
      ],
    },
    {
      id: 'break-v2',
      title: 'Break v2 too',
      task: 'v2: this_cpu_read and this_cpu_write, each preempt-safe. Show, with one migration, that the pair is still wrong.',
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'reset-own-slot' },
      params: { variant: 'this-cpu-pair' },
      bounds: ONE_MIGRATION,
      hints: [
        { text: 'Each operation disables preemption only for itself.' },
        {
          text: 'Between this_cpu_read returning and this_cpu_write starting, the task is preemptible again.',
        },
        { text: 'Let the read finish (3 steps), then migrate.', schedule: '0*3 mig0>1 1*3' },
      ],
    },
    {
      id: 'preempt-off-holds',
      title: 'Try to break the preempt-off fix',
      task: 'preempt_disable() around the read and the write. With one preemption and one migration, can the reset still hit a slot the check did not read?',
      mode: 'impossible',
      goal: { kind: 'breaks', invariant: 'reset-own-slot' },
      params: { variant: 'preempt-off' },
      bounds: { irqs: 0, nmis: 0, preemptions: 1, migrations: 1 },
      hints: [
        { text: 'A migration needs the task to be preemptible.' },
        { text: 'Between preempt_disable() and preempt_enable() it is not.' },
        {
          text: "Migrate before preempt_disable() and the task simply checks CPU1's own count.",
          schedule: 'mig0>1 1*3',
        },
      ],
    },
  ],
};
