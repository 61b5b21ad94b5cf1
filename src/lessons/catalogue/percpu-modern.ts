// percpu-modern: percpu_counter_add_batch since v4.13, its Dec-2022 interrupt race, and the two
// fixes in mainline (reference §3.2, §3.3, §6f).

import type { ScenarioLesson } from '../types.ts';
import { MANFRED_2022, MATEUSZ_2024, PERCPU_COUNTER_4_13 } from './sources.ts';

/** Reference §6f: batch 32, CPU0's delta 20; CPU0 and its IRQ handler each add 10. */
const IRQ_ON_20 = {
  batch: 32,
  slots: [20],
  amounts: [10, 0],
  adds: [1],
  summer: -1,
  irqAmount: 10,
};

/** The "irq-past-batch" preset at batch 4: CPU1's delta 3; CPU0 and its IRQ each add 3. */
const PAST_THE_BOUND = { slots: [0, 3], amounts: [3, 0], adds: [1], irqAmount: 3, summer: -1 };

export const percpuModernLesson: ScenarioLesson = {
  scenario: 'percpu-modern',
  sources: [PERCPU_COUNTER_4_13, MANFRED_2022, MATEUSZ_2024],
  slides: [
    {
      title: 'Decide, then add',
      text: "Around v4.13, percpu_counter_add_batch disables preemption, reads the delta and decides: below the batch, this_cpu_add(amount), one instruction no interrupt can split; otherwise the fold under raw_spin_lock_irqsave. Batch 32, CPU0's delta is 20. CPU0 adds 10, and so does its IRQ handler.",
      params: IRQ_ON_20,
      expect: { slot0: 20, count: 0, exact: 20, irqs: 0 },
    },
    {
      title: 'The decision goes stale',
      text: "CPU0 reads 20 and decides on the fast path, 20 + 10 < 32. The IRQ reads 20, decides the same and adds: 30. CPU0 then adds its 10: 40, past the batch. Nothing is lost, but the delta broke the bound that read()'s error rests on.",
      params: IRQ_ON_20,
      at: '0 0 irq0 0*8',
      expect: { slot0: 40, count: 0, exact: 40, irqs: 1 },
      breaks: ['slot-below-batch'],
      predict: {
        question:
          "CPU0 has decided on the fast path when the IRQ adds 10. What is CPU0's delta at the end?",
        answer: '40: both decided from 20 and both added 10.',
      },
    },
    {
      title: 'read() off by more than the bound',
      text: "With batch 4 on 2 CPUs, read() should never be more than (4 − 1) × 2 = 6 from the truth. CPU1's delta is 3; CPU0 and its IRQ each add 3 on the fast path, so CPU0's delta becomes 6, and read() says 0 while the true value is 9. Manfred Spraul: the this_cpu_add after the interrupt \"can produce values larger than 'batch' or even overflows.\"",
      params: PAST_THE_BOUND,
      at: '0 0 irq0 0*8',
      expect: { count: 0, slot0: 6, slot1: 3, exact: 9 },
      breaks: ['read-within-bound', 'slot-below-batch'],
    },
    {
      title: 'Fix 1: interrupts off around it all',
      text: "Manfred's fix (December 2022): \"The decision slow path/fast path and the actual update must be atomic, too.\" With local_irq_save around the whole add, the IRQ stays pending until CPU0's add is done (delta 30); the handler's own add then sees 30 + 10 ≥ 32 and folds 40.",
      params: { ...IRQ_ON_20, variant: 'irqsave' },
      at: '0 0 irq0 0*4 0*8',
      expect: { slot0: 0, count: 40, exact: 40, irqs: 1 },
      breaks: [],
    },
    {
      title: 'Fix 2: a cmpxchg that notices',
      text: "Mateusz Guzik's version for v6.11 keeps interrupts on in the fast path: \"Interrupt disable/enable trips are quite expensive on x86-64 compared to a mere cmpxchg\". CPU0 reads 20; the IRQ's this_cpu_try_cmpxchg 20 → 30 succeeds; CPU0's fails and reloads 30; 30 + 10 ≥ 32, so it folds 40 under the lock with interrupts off and subtracts the 30 it folded from its delta.",
      params: { ...IRQ_ON_20, variant: 'try-cmpxchg' },
      at: '0 irq0 0*13',
      expect: { slot0: 0, count: 40, exact: 40, irqs: 1 },
      breaks: [],
    },
  ],
  witnessQuestions: {
    'dec-2022-race': {
      question:
        "Preemption off only. Batch 32, CPU0's delta 20: CPU0 decides on the fast path for +10, then an IRQ adds 10. What is the delta?",
      answer: '40: past the batch. No update is lost, but the delta bound is broken.',
    },
    'irqsave-holds-the-irq': {
      question:
        "The same moment with local_irq_save around the add. What happens to the IRQ's add?",
      answer:
        "It waits until CPU0's add is done (30), then sees 30 + 10 ≥ 32 and folds 40 into fbc->count.",
    },
    'try-cmpxchg-retries': {
      question:
        "v6.11: CPU0 read 20, then the IRQ's try_cmpxchg made the delta 30. What does CPU0's try_cmpxchg do?",
      answer: 'It fails and reloads 30; 30 + 10 ≥ 32, so CPU0 takes the slow path and folds 40.',
    },
  },
  challenges: [
    {
      id: 'past-the-batch',
      title: 'Push a delta past the batch',
      task: 'Preemption off only. One CPU adds 1 three times with batch 4, and its IRQ handler adds 1. With one IRQ, make the delta reach the batch.',
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'slot-below-batch' },
      params: { cpus: 1, summer: -1 },
      bounds: { irqs: 1, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'The decision uses the delta read at the start of the add.' },
        { text: 'Let the delta reach 2, then interrupt the third add after its decision.' },
        {
          text: 'Two whole adds, two steps of the third, the IRQ, then everything.',
          schedule: '0*10 0 0 irq0 0*8',
        },
      ],
    },
    {
      id: 'break-the-read-bound',
      title: 'Make read() worse than its bound',
      task: "Batch 4, 2 CPUs: CPU1's delta is 3; CPU0 and its IRQ handler each add 3. With one IRQ, make read() further than (batch − 1) × CPUs from the truth.",
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'read-within-bound' },
      params: PAST_THE_BOUND,
      bounds: { irqs: 1, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'read() is fbc->count alone: the error is the deltas that were never folded.' },
        { text: 'Both CPU0 and its IRQ must take the fast path from delta 0.' },
        { text: 'Let CPU0 decide, then raise the IRQ.', schedule: '0 0 irq0 0*8' },
      ],
    },
    {
      id: 'try-cmpxchg-holds',
      title: 'Try to break the v6.11 add',
      task: 'this_cpu_try_cmpxchg fast path, no preemption disabled. With one IRQ and one migration, can you lose an add, push a delta past the batch, or make read() worse than its bound?',
      mode: 'impossible',
      goal: {
        kind: 'any',
        goals: [
          { kind: 'breaks', invariant: 'no-lost-update' },
          { kind: 'breaks', invariant: 'slot-below-batch' },
          { kind: 'breaks', invariant: 'read-within-bound' },
        ],
      },
      params: { variant: 'try-cmpxchg' },
      bounds: { irqs: 1, nmis: 0, preemptions: 0, migrations: 1 },
      hints: [
        { text: 'The try_cmpxchg compares and stores in one instruction.' },
        {
          text: 'If the delta changed since it was read, on this CPU or because the task moved, the compare fails and the decision is made again.',
        },
        {
          text: 'Mateusz Guzik on a migration between the read and the cmpxchg: "this_cpu_try_cmpxchg updates the local value on failure (hence &), so from semantic pov this is equivalent to having this_cpu_read in the loop".',
        },
      ],
    },
  ],
};
