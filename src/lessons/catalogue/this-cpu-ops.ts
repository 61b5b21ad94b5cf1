// this-cpu-ops: one per-CPU add, as the generic __this_cpu_add, the preempt-safe generic
// this_cpu_add of 2.6.3x, and x86's single add %gs: instruction (reference §4, §6e variant).

import type { ScenarioLesson } from '../types.ts';
import { MEMCG_2009, PERCPU_DEFS_MODERN, PERCPU_H_2_6_39 } from './sources.ts';

export const thisCpuOpsLesson: ScenarioLesson = {
  scenario: 'this-cpu-ops',
  sources: [PERCPU_H_2_6_39, PERCPU_DEFS_MODERN, MEMCG_2009],
  slides: [
    {
      title: 'Three layers of this_cpu',
      text: 'raw_cpu_* does no checks at all. __this_cpu_* is for "contexts that are safe from preemption/interrupts" and only checks that with CONFIG_DEBUG_PREEMPT. this_cpu_* brings its own protection against preemption. Christoph Lameter, 2009: "The fallback for this_cpu_add is to protect the add with preempt_disable()/enable. The fallback fro __this_cpu_add is just to rely on the caller to ensure that preempt is disabled somehow."',
    },
    {
      title: 'The generic add is three steps',
      text: "Without a single instruction, __this_cpu_add(nr, 1) computes the address of this CPU's nr, loads, and stores. Task T runs it on CPU0, whose nr is 10; task U waits on CPU0 to add 5.",
      expect: { slot0: 10, slot1: 0, exact: 10 },
    },
    {
      title: 'Moved after the address',
      text: "T computes the address of CPU0's nr and is migrated to CPU1; there it loads CPU0's 10. U, now running on CPU0, adds 5: 15. T stores 11 into CPU0's nr. U's add is lost: 11 instead of 16.",
      at: '0 mig0>1 1 0*3 1',
      expect: { slot0: 11, slot1: 0, exact: 16 },
      breaks: ['no-lost-update'],
      predict: {
        question: "Which CPU's nr does T finish its add on, after the migration?",
        answer:
          "CPU0's: the address was computed before T moved, so T's load and store on CPU1 hit CPU0's nr.",
      },
    },
    {
      title: 'A preemption is enough',
      text: 'No migration needed: T is preempted between its load (10) and its store; U adds 5 on the same CPU (15); T resumes and stores 11.',
      at: '0 0 pre0 0*3 0',
      expect: { slot0: 11, slot1: 0, exact: 16 },
      breaks: ['no-lost-update'],
    },
    {
      title: 'Preempt-safe, or one instruction',
      text: "The 2.6.3x generic this_cpu_add disables preemption around the three steps, so T can only move before or after the add: migrated first, it adds to CPU1's nr while U adds to CPU0's, and both count. On x86 every variant is one add with a %gs: operand, which no interrupt or preemption can split.",
      params: { variant: 'generic-preempt' },
      at: 'mig0>1 (1 0)*5',
      expect: { slot0: 15, slot1: 1, exact: 16 },
      breaks: [],
    },
  ],
  witnessQuestions: {
    'migrate-after-address': {
      question:
        "Generic __this_cpu_add: T takes the address of CPU0's nr (10), is migrated to CPU1 and loads; U adds 5 on CPU0; T stores. What is CPU0's nr?",
      answer: "11: T stores 10 + 1 over U's 15, so U's +5 is lost.",
    },
    'preempted-mid-add': {
      question:
        "T is preempted between its load (10) and its store while U adds 5 on CPU0. What is CPU0's nr?",
      answer: "11: T's store overwrites U's 15.",
    },
    'preempt-safe': {
      question:
        'Generic this_cpu_add with preemption off inside. T is migrated to CPU1 before its add. Can the two adds collide?',
      answer: "No: T adds to CPU1's nr (1) and U to CPU0's (15); the total is 16.",
    },
    'x86-one-instruction': {
      question:
        'x86: T and U run their single add instructions at the same time on two CPUs. What do the slots hold?',
      answer: 'CPU0 15 and CPU1 1: each instruction hits the slot of the CPU that runs it.',
    },
  },
  challenges: [
    {
      id: 'lose-with-a-preemption',
      title: 'Lose an add with one preemption',
      task: "Generic __this_cpu_add, no migration. With one preemption, make CPU0's nr miss an add.",
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: {},
      bounds: { irqs: 0, nmis: 0, preemptions: 1, migrations: 0 },
      hints: [
        { text: 'A preemption switches CPU0 from T to U.' },
        { text: 'Preempt T after its load and before its store.' },
        { text: 'Two steps of T, preempt, all of U, then T.', schedule: '0 0 pre0 0*3 0' },
      ],
    },
    {
      id: 'lose-your-own-add',
      title: "Lose T's add instead of U's",
      task: "Generic __this_cpu_add, one migration. Make T's own +1 vanish: CPU0's nr ends at 15 and CPU1's at 0.",
      mode: 'reach',
      goal: {
        kind: 'all',
        goals: [
          { kind: 'observable', name: 'slot0', equals: 15 },
          { kind: 'observable', name: 'slot1', equals: 0 },
        ],
      },
      params: {},
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 1 },
      hints: [
        {
          text: "For T's +1 to vanish, U's store of 15 must come last, after U loaded the old 10.",
        },
        {
          text: "T must still be adding to CPU0's nr, so migrate it after it computed the address.",
        },
        {
          text: 'T computes the address and loads 10, moves to CPU1; U loads 10; T stores 11; U stores 15.',
          schedule: '0 0 mig0>1 0 0 1 0',
        },
      ],
    },
    {
      id: 'x86-holds',
      title: 'Try to break the x86 add',
      task: 'x86: one add %gs: instruction. With one preemption and one migration, can an add be lost?',
      mode: 'impossible',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: { variant: 'x86' },
      bounds: { irqs: 0, nmis: 0, preemptions: 1, migrations: 1 },
      hints: [
        { text: 'A preemption or a migration happens between instructions.' },
        { text: 'The add is one instruction, and its address is that of the CPU running it.' },
        {
          text: 'The closest try: both adds at the same moment on two CPUs. Each hits its own slot.',
          schedule: 'mig0>1 1 0 0 1',
        },
      ],
    },
  ],
};
