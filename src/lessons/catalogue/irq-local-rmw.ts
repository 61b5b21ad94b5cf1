// irq-local-rmw: a per-CPU read-modify-write interrupted by an IRQ on its own CPU, and its two
// fixes (reference §6f parts 1–3).

import type { ScenarioLesson } from '../types.ts';
import {
  CMPXCHG_LOCAL_2007,
  MANFRED_2022,
  PERCPU_COUNTER_2_6_39,
  PERCPU_H_2_6_39,
} from './sources.ts';

export const irqLocalRmwLesson: ScenarioLesson = {
  scenario: 'irq-local-rmw',
  sources: [PERCPU_COUNTER_2_6_39, PERCPU_H_2_6_39, CMPXCHG_LOCAL_2007, MANFRED_2022],
  slides: [
    {
      title: 'Two writers on one CPU',
      text: "A per-CPU slot is written only by its own CPU, but on that CPU there are two writers: the task, and any interrupt handler that updates the same counter. 2.6.39's __percpu_counter_add fast path is such a task: a read and a write with only preemption disabled. CPU0's c is 10; the task adds 1 and the IRQ handler adds 5.",
      expect: { c: 10, irqs: 0, exact: 10 },
    },
    {
      title: 'An IRQ between load and store',
      text: "The task has loaded 10. The IRQ handler runs on top of it and makes c 15. The task resumes and stores 10 + 1 = 11. preempt_disable() kept other tasks out, not the interrupt: the handler's 5 is lost.",
      at: '0 0 irq0 0*4 0 0',
      expect: { c: 11, irqs: 1, exact: 16 },
      breaks: ['no-lost-update'],
      predict: {
        question: 'What is c after the task stores?',
        answer: "11, not 16: the task stored 10 + 1 over the handler's 15.",
      },
    },
    {
      title: 'Fix 1: interrupts off',
      text: 'With local_irq_save around the load and the store (irqsafe_cpu_add in 2.6.39), an IRQ raised in between stays pending. local_irq_restore delivers it after the task stored 11, and the handler makes c 16.',
      params: { variant: 'irqsave' },
      at: '0 0 irq0 0 0 0*4',
      expect: { c: 16, irqs: 1, exact: 16 },
      breaks: [],
    },
    {
      title: 'Fix 2: one instruction, retried',
      text: "x86's this_cpu_cmpxchg is one instruction without a LOCK prefix: an interrupt cannot split it. The task reads old = 10; the handler's own cmpxchg makes c 15; the task's cmpxchg(10 → 11) fails and returns 15; it retries with 15 → 16 and succeeds.",
      params: { variant: 'cmpxchg-local' },
      at: '0 irq0 0*3 0 0 0',
      expect: { c: 16, irqs: 1, exact: 16 },
      breaks: [],
    },
    {
      title: 'Why it still matters',
      text: 'A relative of this race reached percpu_counter itself: Manfred Spraul showed in December 2022 that percpu_counter_add_batch, whose comment called it "both preempt and irq safe", decided between fast and slow path before an interrupt could change the delta. The last lesson of the course, percpu-modern, walks through it.',
    },
  ],
  witnessQuestions: {
    'irq-between-load-and-store': {
      question: 'c is 10. The task loads it, an IRQ adds 5, the task stores its 11. What is c?',
      answer: "11: the handler's 5 is lost.",
    },
    'irq-held-pending': {
      question:
        'With local_irq_save, the IRQ comes while the task is between load and store. When does the handler run?',
      answer: 'At local_irq_restore, after the task stored 11; the handler then makes c 16.',
    },
    'cmpxchg-retry': {
      question:
        "cmpxchg_local retry loop: the task read old = 10, then the handler made c 15. What does the task's cmpxchg(10 → 11) do?",
      answer: 'It fails and returns 15; the task retries with 15 → 16, which succeeds.',
    },
  },
  challenges: [
    {
      id: 'lose-the-irq-add',
      title: "Lose the handler's add",
      task: 'Preemption off, interrupts on. With one IRQ, make c miss an add.',
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: {},
      bounds: { irqs: 1, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        {
          text: 'The handler runs on top of the task, on the same CPU, between two of its instructions.',
        },
        { text: 'Raise the IRQ after the task loads c and before it stores.' },
        {
          text: 'Two steps of the task, the IRQ, then run everything.',
          schedule: '0 0 irq0 0*4 0 0',
        },
      ],
    },
    {
      id: 'irqsave-holds',
      title: 'Try to beat local_irq_save',
      task: 'The task keeps interrupts off around its load and store. With two IRQs, can c miss an add?',
      mode: 'impossible',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: { variant: 'irqsave' },
      bounds: { irqs: 2, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'An IRQ raised while interrupts are off stays pending.' },
        { text: 'It is delivered at local_irq_restore, after the store.' },
        {
          text: 'The closest try: raise it between load and store. It waits, and then adds to 11.',
          schedule: '0 0 irq0 0 0 0*4',
        },
      ],
    },
    {
      id: 'cmpxchg-holds',
      title: 'Try to beat the cmpxchg loop',
      task: 'A this_cpu_cmpxchg retry loop. With two IRQs, can c miss an add?',
      mode: 'impossible',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: { variant: 'cmpxchg-local' },
      bounds: { irqs: 2, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'The cmpxchg compares and stores in one instruction: no IRQ between.' },
        {
          text: 'If an IRQ changed c after the task read it, the compare fails and the task retries.',
        },
        {
          text: "The closest try: the handler's add lands after the task read 10; the cmpxchg fails and retries.",
          schedule: '0 irq0 0*3 0 0 0',
        },
      ],
    },
  ],
};
