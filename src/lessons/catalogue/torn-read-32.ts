// torn-read-32: a 64-bit fbc->count read without the lock on a 32-bit CPU (reference §6g).

import type { ScenarioLesson } from '../types.ts';
import {
  MANFRED_UP_2022,
  PERCPU_COUNTER_2_6_39,
  SHAOHUA_V2_2011,
  ERIC_V1_2011,
} from './sources.ts';

/** Reference §6g (UP): the task adds 1 to 0x0:0xFFFFFFFF. */
const UP_READ = { variant: 'up-irq', initial: 4294967295, amount: 1, irqDoes: 'read' };
const UP_ADD = { ...UP_READ, irqDoes: 'add', irqAmount: 5 };

export const tornRead32Lesson: ScenarioLesson = {
  scenario: 'torn-read-32',
  sources: [PERCPU_COUNTER_2_6_39, SHAOHUA_V2_2011, ERIC_V1_2011, MANFRED_UP_2022],
  slides: [
    {
      title: 'A 64-bit count in two halves',
      text: "On a 32-bit CPU the s64 fbc->count is two words, and 2.6.39's percpu_counter_read() is a plain return fbc->count; without the lock: two loads. fbc->count is 4294967280 (high half 0x0, low half 0xFFFFFFF0). CPU0 reads; CPU1 adds 32 under fbc->lock, which carries into the high half.",
      expect: { count: 4294967280, old: 4294967280, new: 4294967312 },
    },
    {
      title: 'Low half, then high half',
      text: 'CPU0 loads the low half, 0xFFFFFFF0. CPU1 then stores both halves of the new count, 4294967312 (0x1:0x00000010). CPU0 loads the high half, 0x1. read() returns 0x1:0xFFFFFFF0 = 8589934576: exactly 2^32 above the old value, and nowhere near the new one.',
      at: '0 1*6 0',
      expect: { read: 8589934576, count: 4294967312 },
      breaks: ['read-not-torn'],
      predict: {
        question: 'What does percpu_counter_read() return?',
        answer: '8589934576: the old low half with the new high half.',
      },
    },
    {
      title: 'The other order',
      text: 'The order of the two loads is up to the compiler. Loading the high half first (0x0, before the add) and the low half after it (0x10) gives 16: exactly 2^32 below the new value.',
      params: { variant: 'hi-lo' },
      at: '0 1*6 0',
      expect: { read: 16, count: 4294967312 },
      breaks: ['read-not-torn'],
    },
    {
      title: 'The SMP fix: an atomic64_t count',
      text: 'Shaohua Li\'s 2011 series ("percpu_counter: use atomic64 for counter in SMP") made fbc->count an atomic64_t. On x86-32, atomic64_read uses cmpxchg8b, one access to both halves, so read() returns the old value or the new one, never a mix. Eric Dumazet noted its cost in his 32-bit profile: "atomic64_add() uses two \'lock cmpxchg8b\' on x86_32".',
      params: { variant: 'atomic64' },
      at: '1 0',
      expect: { read: 4294967312, count: 4294967312 },
      breaks: [],
    },
    {
      title: 'Uniprocessor: an IRQ reads half an add',
      text: "On a uniprocessor, 2.6.39's percpu_counter_add() is fbc->count += amount with only preemption off. Adding 1 to 0x0:0xFFFFFFFF, the task has stored the new low half (0) but not yet the high half when an IRQ handler calls percpu_counter_read(): it returns 0, though the count is 4294967295 before the add and 4294967296 after.",
      params: UP_READ,
      at: '0*4 irq0 0 0 0 0',
      expect: { read: 0, old: 4294967295, new: 4294967296, count: 4294967296 },
      breaks: ['read-not-torn'],
    },
    {
      title: "…or loses the IRQ's add",
      text: "If the handler adds 5 after the task has loaded both halves, the task's two stores overwrite the handler's: 4294967296 instead of 4294967301. Manfred Spraul's December 2022 patch switched the UP add to local_irq_save: \"if an interrupt happens during the +=, then the result is undefined.\"",
      params: UP_ADD,
      at: '0*3 irq0 0*6 0*3',
      expect: { count: 4294967296, exact: 4294967301 },
      breaks: ['no-lost-update'],
    },
  ],
  witnessQuestions: {
    'lo-then-hi': {
      question:
        'fbc->count is 0x0:0xFFFFFFF0. CPU0 loads the low half, CPU1 adds 32, CPU0 loads the high half. What does read() return?',
      answer: '8589934576 (0x1:0xFFFFFFF0), exactly 2^32 above the old value 4294967280.',
    },
    'hi-then-lo': {
      question: 'The same, loading the high half first. What does read() return?',
      answer: '16 (0x0:0x00000010), exactly 2^32 below the new value 4294967312.',
    },
    'atomic64-read': {
      question:
        'With an atomic64_t count, CPU1 adds 32 and then CPU0 reads. What can read() return?',
      answer:
        'Only 4294967280 or 4294967312: atomic64_read is one access, so it never mixes halves.',
    },
    'up-irq-reads-half': {
      question:
        'Uniprocessor: the task adding 1 to 0x0:0xFFFFFFFF has stored the low half only when an IRQ handler reads. What does it get?',
      answer: '0: the new low half with the old high half.',
    },
    'up-irq-add-lost': {
      question:
        'Uniprocessor: the task has loaded both halves of 0x0:0xFFFFFFFF when an IRQ handler adds 5. What is fbc->count at the end?',
      answer:
        "4294967296, not 4294967301: the task's stores overwrite the handler's, and the +5 is lost.",
    },
  },
  challenges: [
    {
      id: 'tear-a-read',
      title: 'Tear a read',
      task: 'CPU0 reads fbc->count (low half first) while CPU1 adds 32. Make read() return a value that fbc->count never held.',
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'read-not-torn' },
      params: {},
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'read() is two loads. What can change between them?' },
        { text: "CPU1's add carries from the low half into the high half." },
        {
          text: 'Let CPU0 load the low half, let CPU1 finish its add, then load the high half.',
          schedule: '0 1*6 0',
        },
      ],
    },
    {
      id: 'atomic64-whole',
      title: 'Tear an atomic64 read',
      task: 'Now fbc->count is an atomic64_t. Can any schedule make read() return a mix of two values?',
      mode: 'impossible',
      goal: { kind: 'breaks', invariant: 'read-not-torn' },
      params: { variant: 'atomic64' },
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'A torn read needs a store between two loads of one read.' },
        { text: 'atomic64_read is a single access (cmpxchg8b on x86-32): there is no "between".' },
        {
          text: 'Read first and you get the old value; add first and you get the new one.',
          schedule: '0 1',
        },
      ],
    },
    {
      id: 'lose-the-irq-add',
      title: 'Lose an add on a uniprocessor',
      task: 'Uniprocessor: the task adds 1 to 0x0:0xFFFFFFFF and an IRQ handler adds 5. With one IRQ, make fbc->count miss one of the two adds.',
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: UP_ADD,
      bounds: { irqs: 1, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'Preemption off keeps other tasks away, not interrupts.' },
        {
          text: "The task loads both halves, computes, then stores both halves. The handler's add must land in between.",
        },
        {
          text: 'Raise the IRQ right after the task has loaded both halves.',
          schedule: '0*3 irq0 0*6 0*3',
        },
      ],
    },
  ],
};
