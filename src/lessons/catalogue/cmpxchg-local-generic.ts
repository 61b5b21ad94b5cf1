// cmpxchg-local-generic: asm-generic's cmpxchg_local, emulated with interrupts off, against an
// IRQ, an NMI and another CPU (reference §5, walk-through §6f part 4).

import type { ScenarioLesson } from '../types.ts';
import { CMPXCHG_GENERIC_2_6_39, CMPXCHG_LOCAL_2007 } from './sources.ts';

export const cmpxchgLocalGenericLesson: ScenarioLesson = {
  scenario: 'cmpxchg-local-generic',
  sources: [CMPXCHG_LOCAL_2007, CMPXCHG_GENERIC_2_6_39],
  slides: [
    {
      title: 'cmpxchg_local without the instruction',
      text: 'Mathieu Desnoyers\'s 2007 patch gives architectures without a cmpxchg instruction a generic cmpxchg_local: local_irq_save, load prev, store new if prev == old, local_irq_restore. His changelog: "This is not reentrant wrt NMIs and MCEs. It is only protected against normal interrupts". The task adds 1 to c = 10 with a cmpxchg_local retry loop; a handler adds 5 the same way.',
      expect: { c: 10, succeeded: 0, exact: 10 },
    },
    {
      title: 'An IRQ waits',
      text: "The IRQ comes between the task's local_irq_save and its store. It stays pending; the task stores 11; at local_irq_restore the handler runs its own cmpxchg_local, 11 → 16. Both adds count.",
      at: '0*3 irq0 0 0 0*5',
      expect: { c: 16, succeeded: 2, exact: 16 },
      breaks: [],
    },
    {
      title: 'An NMI does not',
      text: "local_irq_save does not mask an NMI. The task's compare has passed (prev = 10) when an NMI runs cmpxchg_local(&c, 10, 15) and succeeds. The task then stores 11 and returns prev = 10, so it believes it succeeded too. c = 11: the NMI's 5 is silently lost.",
      params: { variant: 'nmi' },
      at: '0*3 nmi0 0*5 0 0',
      expect: { c: 11, succeeded: 2, exact: 16 },
      breaks: ['no-lost-update'],
      predict: {
        question: "What does the task's cmpxchg_local return, and what is c afterwards?",
        answer: "It returns 10, so the task thinks it succeeded; c is 11, the NMI's +5 is lost.",
      },
    },
    {
      title: 'Another CPU does not either',
      text: 'local_irq_save acts on one CPU. Put the other adder on CPU1: both load prev = 10 under their own local_irq_save, CPU1 stores 15, CPU0 stores 11, and both report success. Hence asm-generic/cmpxchg.h: #error "Cannot use generic cmpxchg on SMP".',
      params: { variant: 'smp' },
      at: '0*3 1*5 0 0',
      expect: { c: 11, succeeded: 2, exact: 16 },
      breaks: ['no-lost-update'],
    },
  ],
  witnessQuestions: {
    'irq-held-pending': {
      question:
        "The IRQ comes between the task's local_irq_save and its store. When does the handler run, and what is c at the end?",
      answer: 'At local_irq_restore, after the task stored 11: the handler makes it 16.',
    },
    'irq-before-save': {
      question:
        "The IRQ comes after the task read old = 10 but before local_irq_save. What happens to the task's cmpxchg?",
      answer: 'The handler makes c 15, so the compare fails (prev 15); the retry stores 16.',
    },
    'nmi-inside': {
      question:
        "The task's compare has passed (prev = 10) when an NMI runs cmpxchg_local(&c, 10, 15). What is c at the end?",
      answer: "11: the task stores over the NMI's 15 and still reports success; the +5 is lost.",
    },
    'smp-both-succeed': {
      question: 'The same interleaving with CPU1 instead of an NMI. What is c?',
      answer: '11: local_irq_save does not stop CPU1; both load 10 and both report success.',
    },
  },
  challenges: [
    {
      id: 'irq-cannot',
      title: 'Try to lose an add with IRQs',
      task: 'The handler is an ordinary IRQ. With two IRQs, can c miss an add?',
      mode: 'impossible',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: {},
      bounds: { irqs: 2, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'Between local_irq_save and local_irq_restore, an IRQ stays pending.' },
        {
          text: 'Before local_irq_save, an IRQ that changes c makes the compare fail, and the loop retries.',
        },
        {
          text: 'The closest try: the IRQ lands after the task read old, so it retries.',
          schedule: '0 irq0 0*5 0*3 0*4',
        },
      ],
    },
    {
      id: 'nmi-can',
      title: 'Lose an add with one NMI',
      task: 'The handler is an NMI. With one NMI, make both adds report success while c misses one.',
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: { variant: 'nmi' },
      bounds: { irqs: 0, nmis: 1, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'An NMI arrives whatever the interrupt flag says.' },
        { text: 'It must land after the task loaded prev and before it stores.' },
        {
          text: 'Three steps of the task, the NMI, then run everything.',
          schedule: '0*3 nmi0 0*5 0 0',
        },
      ],
    },
    {
      id: 'smp-can',
      title: 'Lose an add on SMP',
      task: 'The other adder runs on CPU1. With no interrupt at all, make c miss an add.',
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: { variant: 'smp' },
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: "CPU0's local_irq_save does nothing to CPU1." },
        { text: 'Let both CPUs load prev = 10 before either stores.' },
        { text: 'CPU0 to its load, all of CPU1, then CPU0.', schedule: '0*3 1*5 0 0' },
      ],
    },
  ],
};
