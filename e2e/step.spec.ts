import { expect, test } from '@playwright/test';
import { literal, StepPage } from './pages/step.ts';

/**
 * How a test drives the witness: CPU steps with the "Step CPU k" buttons or the digit keys (other
 * events with their buttons), or redo with the "Step forward" button or the → key.
 */
type Drive = 'cpu buttons' | 'digit keys' | 'forward button' | 'arrow keys';

/** A moment of a witness worth checking: after `at` events, what the user sees. */
interface Moment {
  readonly at: number;
  /** Memory rows: label → value. */
  readonly memory?: Readonly<Record<string, string | RegExp>>;
  /** The newest narration sentence, exactly as `lab replay` prints it. */
  readonly says?: string;
  /** Invariant badges, by their accessible name ("id: holds", "id: violated (…)"). */
  readonly invariants?: readonly string[];
  /** Checks of their own (lanes, charts). */
  readonly also?: (step: StepPage) => Promise<void>;
  /** One "Step back" from here: the memory rows that return to their previous values. */
  readonly back?: Readonly<Record<string, string | RegExp>>;
  /** The key step: the screenshot is taken here. */
  readonly key?: true;
}

interface Case {
  readonly id: string;
  readonly witness: string;
  /** The witness's schedule, as `lab show` prints it (N*k repeats). */
  readonly schedule: string;
  readonly drive: Drive;
  readonly moments: readonly Moment[];
}

/** "0*3 mig0>1 1" → ["0", "0", "0", "mig0>1", "1"]. */
function expand(schedule: string): string[] {
  return schedule
    .split(' ')
    .flatMap((t) => {
      const [ev, times] = t.split('*');
      return Array.from({ length: times ? Number(times) : 1 }, () => ev as string);
    })
    .filter((t) => t !== '');
}

const pending = (id: string) => `${id}: pending (judged when every CPU has finished)`;

const cases: readonly Case[] = [
  {
    id: 'global-plain',
    witness: 'lost-update',
    schedule: '0 1 0 1',
    drive: 'cpu buttons',
    moments: [
      {
        at: 2,
        memory: { nr_files: '100' },
        says: 'CPU1 `r = nr_files`: reads nr_files: 100',
        invariants: [pending('no-lost-update')],
      },
      {
        at: 3,
        memory: { nr_files: '101' },
        says: 'CPU0 `nr_files = r`: writes nr_files = 101; P0 finishes',
        back: { nr_files: '100' },
      },
      {
        at: 4,
        key: true,
        memory: { nr_files: '101' },
        says: 'CPU1 `nr_files = r`: writes nr_files = 101; P1 finishes',
        invariants: [
          'no-lost-update: violated (nr_files = 101, but the exact total is 102: 1 lost)',
        ],
      },
    ],
  },
  {
    id: 'global-atomic',
    witness: 'interleaved',
    schedule: '0 1',
    drive: 'digit keys',
    moments: [
      {
        at: 1,
        memory: { nr_files: '101' },
        says: 'CPU0 `atomic_inc(&nr_files)`: atomically adds 1 to nr_files: 101; P0 finishes',
      },
      {
        at: 2,
        key: true,
        memory: { nr_files: '102' },
        says: 'CPU1 `atomic_inc(&nr_files)`: atomically adds 1 to nr_files: 102; P1 finishes',
        invariants: ['no-lost-update: holds'],
        back: { nr_files: '101' },
      },
    ],
  },
  {
    id: 'global-spinlock',
    witness: 'contended',
    schedule: '0*3 1*3 0*3 1*5',
    drive: 'forward button',
    moments: [
      {
        at: 6,
        key: true,
        memory: { filp_count_lock: 'held by CPU0', nr_files: '100' },
        says: 'CPU1 `spin_lock_irqsave(&filp_count_lock, flags)`: spins on filp_count_lock, held by CPU0',
      },
      {
        at: 12,
        memory: { filp_count_lock: 'held by CPU1', nr_files: '102' },
        says: 'CPU1 `nr_files++`: writes nr_files = 102',
        back: { nr_files: '101' },
      },
      {
        at: 14,
        memory: { filp_count_lock: 'free', nr_files: '102' },
        says: 'CPU1 `spin_unlock_irqrestore(&filp_count_lock, flags)`: restores interrupts: on; P1 finishes',
        invariants: ['no-lost-update: holds'],
      },
    ],
  },
  {
    id: 'lazy-nr-files',
    witness: 'both-below-threshold',
    schedule: '0*5 1*5',
    drive: 'arrow keys',
    moments: [
      {
        at: 4,
        memory: { 'files_stat.nr_files': '0', 'CPU0’s nr_files': '1' },
        says: 'CPU0 `*local = v`: writes its nr_files = 1',
        back: { 'CPU0’s nr_files': '0' },
      },
      {
        at: 10,
        key: true,
        memory: { 'files_stat.nr_files': '0', 'CPU0’s nr_files': '1', 'CPU1’s nr_files': '1' },
        says: 'CPU1 `preempt_enable()`: enables preemption (preempt_count 0); P1 finishes',
        invariants: ['no-lost-update: holds', 'read-within-bound: holds'],
      },
    ],
  },
  {
    id: 'percpu-classic',
    witness: 'sum-holds-the-lock',
    schedule: '3*3 1*3 0*4 3*4 1*6',
    drive: 'cpu buttons',
    moments: [
      {
        at: 6,
        memory: { 'fbc->lock': 'held by CPU3', 'fbc->count': '1000', 'CPU1’s fbc->counters': '31' },
        says: 'CPU1 `spin_lock(&fbc->lock)`: spins on fbc->lock, held by CPU3',
      },
      {
        at: 9,
        memory: { 'CPU0’s fbc->counters': '13' },
        says: 'CPU0 `__this_cpu_write(*fbc->counters, count)`: writes its fbc->counters = 13',
        back: { 'CPU0’s fbc->counters': '10' },
      },
      {
        at: 14,
        key: true,
        memory: { 'fbc->lock': 'free', 'fbc->count': '1000' },
        says: 'CPU3 `spin_unlock(&fbc->lock)`: releases fbc->lock; __percpu_counter_sum() returns 1036 (recorded as sum); P3 finishes',
        invariants: ['sum-within-window: holds', 'slot-below-batch: holds'],
      },
      {
        at: 20,
        memory: {
          'fbc->count': '1032',
          'CPU0’s fbc->counters': '13',
          'CPU1’s fbc->counters': '0',
          'CPU2’s fbc->counters': '-5',
        },
        says: 'CPU1 `preempt_enable()`: enables preemption (preempt_count 0); P1 finishes',
        invariants: [
          'no-lost-update: holds',
          'read-within-bound: holds',
          'sum-within-window: holds',
        ],
        also: async (step) => {
          await expect(step.slotBars('fbc->counters')).toHaveAccessibleName(
            'fbc->counters: CPU0 13, CPU1 0, CPU2 -5, CPU3 0; batch ±32',
          );
        },
      },
    ],
  },
  {
    id: 'percpu-atomic64',
    witness: 'sum-misses-a-batch',
    schedule: '3 0*5 3*4',
    drive: 'digit keys',
    moments: [
      {
        at: 4,
        memory: { 'fbc->count': '1032', 'CPU0’s fbc->counters': '31' },
        says: 'CPU0 `atomic64_add(count, &fbc->count)`: folds 32 into fbc->count: 1032',
        back: { 'fbc->count': '1000' },
      },
      {
        at: 10,
        key: true,
        memory: { 'fbc->count': '1032', 'CPU0’s fbc->counters': '0', 'CPU2’s fbc->counters': '5' },
        says: 'CPU3 `ret += *per_cpu_ptr(fbc->counters, cpu)`: reads its fbc->counters: 0; __percpu_counter_sum() returns 1005 (recorded as sum); P3 finishes',
        invariants: [
          'sum-within-window: violated (broken at step 10: __percpu_counter_sum() returned 1005 while the counter went through the exact totals 1036..1037)',
          'no-lost-update: holds',
        ],
      },
    ],
  },
  {
    id: 'percpu-lglock',
    witness: 'transfer-waits',
    schedule: '3*5 0 3*8 0*5',
    drive: 'forward button',
    moments: [
      {
        at: 6,
        key: true,
        memory: {
          'CPU0’s fbc->lglock': 'held by CPU3',
          'CPU3’s fbc->lglock': 'held by CPU3',
          'fbc->count': '1000',
          'CPU0’s fbc->counters': '31',
        },
        says: 'CPU0 `lg_local_lock(fbc->lglock)`: spins on its fbc->lglock, held by CPU3',
      },
      {
        at: 14,
        memory: { 'CPU0’s fbc->lglock': 'free', 'fbc->count': '1000' },
        says: 'CPU3 `lg_global_unlock(fbc->lglock)`: releases its fbc->lglock; __percpu_counter_sum() returns 1036 (recorded as sum); P3 finishes',
      },
      {
        at: 17,
        memory: { 'fbc->count': '1032' },
        says: 'CPU0 `atomic64_add(count, &fbc->count)`: folds 32 into fbc->count: 1032',
        back: { 'fbc->count': '1000' },
      },
      {
        at: 19,
        memory: { 'fbc->count': '1032', 'CPU0’s fbc->counters': '0' },
        invariants: ['sum-within-window: holds', 'no-lost-update: holds'],
      },
    ],
  },
  {
    id: 'percpu-seq',
    witness: 'retry-once',
    schedule: '0 0 3*7 0*8 3 1*4 3*9 2*4 3*8 0',
    drive: 'arrow keys',
    moments: [
      {
        at: 5,
        memory: { 'fbc->sequence': /^5\b/ },
        says: 'CPU3 `fbc->sequence |= 1`: bumps fbc->sequence: 4 → 5, a sum is in flight',
      },
      {
        at: 16,
        memory: { 'fbc->sequence': /^7\b/, 'fbc->count': '1032', 'CPU0’s fbc->counters': '0' },
        says: 'CPU0 `fbc->sequence += 2`: bumps fbc->sequence: 5 → 7, a sum is in flight',
        back: { 'fbc->sequence': /^5\b/ },
      },
      {
        at: 28,
        key: true,
        says: 'CPU3 `spin_unlock(&fbc->lock)`: releases fbc->lock; the sum starts over',
      },
      {
        at: 44,
        memory: { 'fbc->sequence': /^8\b/, 'fbc->slowcount': '9', 'fbc->count': '1032' },
        says: 'CPU0 `preempt_enable()`: enables preemption (preempt_count 0); P0 finishes',
        invariants: ['sum-within-window: holds', 'retries-bounded: holds', 'no-lost-update: holds'],
      },
    ],
  },
  {
    id: 'percpu-seq-multi',
    witness: 'half-done-fold-accepted',
    schedule: '0 0 1 1 0 0 1*7 0*3',
    drive: 'cpu buttons',
    moments: [
      {
        at: 6,
        memory: { 'fbc->count': '4', 'CPU0’s fbc->counters': '3' },
        says: 'CPU0 `atomic64_add(count, &fbc->count)`: folds 4 into fbc->count: 4',
        back: { 'fbc->count': '0' },
      },
      {
        at: 13,
        key: true,
        memory: {
          'fbc->sums': '0',
          'fbc->changed': '0',
          'fbc->count': '4',
          'CPU0’s fbc->counters': '3',
        },
        says: 'CPU1 `atomic_dec(&fbc->sums)`: atomically subtracts 1 from fbc->sums: 0; __percpu_counter_sum() returns 7 (recorded as sum); P1 finishes',
        invariants: [
          'sum-within-window: violated (broken at step 13: __percpu_counter_sum() returned 7 while the counter went through the exact total 3)',
        ],
      },
      {
        at: 16,
        memory: { 'fbc->changed': '1', 'CPU0’s fbc->counters': '0' },
        says: 'CPU0 `preempt_enable()`: enables preemption (preempt_count 0); P0 finishes',
      },
    ],
  },
  {
    id: 'percpu-sum-fuzzy',
    witness: 'delta-misses-a-half-done-fold',
    schedule: '0*3 2*5 0 0',
    drive: 'digit keys',
    moments: [
      {
        at: 3,
        memory: { 'fbc->count': '4', 'CPU0’s fbc->counters': '3' },
        says: 'CPU0 `atomic64_add(count, &fbc->count)`: folds 4 into fbc->count: 4',
        back: { 'fbc->count': '0' },
      },
      {
        at: 8,
        key: true,
        memory: { 'fbc->count': '4', 'CPU0’s fbc->counters': '3' },
        says: 'CPU2 `new = atomic64_read(&fbc->count)`: reads fbc->count: 4; __percpu_counter_sum() returns 7 (recorded as sum); P2 finishes',
        invariants: [
          'sum-within-window: violated (broken at step 8: __percpu_counter_sum() returned 7 while the counter went through the exact total 3)',
        ],
      },
      { at: 10, memory: { 'CPU0’s fbc->counters': '0' } },
    ],
  },
  {
    id: 'this-cpu-migrate',
    witness: 'migrate-between',
    schedule: '0 mig0>1 1',
    drive: 'cpu buttons',
    moments: [
      {
        at: 2,
        says: 'P0 is preempted on CPU0 and migrated to CPU1: it runs there now; CPU0 is idle',
        also: async (step) => {
          await expect(step.cpu(0)).toContainText('idle');
          await expect(step.cpu(1)).toContainText('task P0');
        },
      },
      {
        at: 3,
        key: true,
        memory: { 'CPU0’s events': '1001', 'CPU1’s events': '0' },
        says: 'CPU1 (P0) `__this_cpu_write(events, 0)`: writes its events = 0; records val = 1001; records fired = 1; P0 finishes',
        invariants: [
          'reset-own-slot: violated (EVENTS - (per_cpu(events, 0) + per_cpu(events, 1)) == (fired ? val : 0) does not hold: EVENTS = 1641, per_cpu(events,0) = 1001, per_cpu(events,1) = 0, fired = 1, val = 1001)',
        ],
        back: { 'CPU1’s events': '640' },
      },
    ],
  },
  {
    id: 'this-cpu-ops',
    witness: 'migrate-after-address',
    schedule: '0 mig0>1 1 0*3 1',
    drive: 'digit keys',
    moments: [
      { at: 3, memory: { 'CPU0’s nr': '10' }, says: "CPU1 (P0) `v = *p`: reads CPU0's nr: 10" },
      {
        at: 6,
        memory: { 'CPU0’s nr': '15' },
        says: 'CPU0 (P1) `*p = v + amount`: writes its nr = 15; P1 finishes',
      },
      {
        at: 7,
        key: true,
        memory: { 'CPU0’s nr': '11', 'CPU1’s nr': '0' },
        says: "CPU1 (P0) `*p = v + amount`: writes CPU0's nr = 11; P0 finishes",
        invariants: ['no-lost-update: violated (Σ nr = 11, but the exact total is 16: 5 lost)'],
        back: { 'CPU0’s nr': '15' },
      },
    ],
  },
  {
    id: 'irq-local-rmw',
    witness: 'irq-between-load-and-store',
    schedule: '0 0 irq0 0*6',
    drive: 'cpu buttons',
    moments: [
      {
        at: 3,
        says: 'IRQ on CPU0: the IRQ handler starts, with interrupts off',
        also: async (step) => {
          await expect(step.cpu(0)).toContainText('task P0 → IRQ handler');
          await expect(step.cpu(0)).toContainText('interrupts off');
        },
      },
      {
        at: 6,
        memory: { 'CPU0’s c': '15' },
        says: "CPU0's IRQ handler `__this_cpu_write(c, v)`: writes CPU0's c = 15",
      },
      {
        at: 8,
        key: true,
        memory: { 'CPU0’s c': '11' },
        says: 'CPU0 `__this_cpu_write(c, v)`: writes its c = 11',
        back: { 'CPU0’s c': '15' },
      },
      {
        at: 9,
        memory: { 'CPU0’s c': '11' },
        invariants: ['no-lost-update: violated (Σ c = 11, but the exact total is 16: 5 lost)'],
      },
    ],
  },
  {
    id: 'cmpxchg-local-generic',
    witness: 'nmi-inside',
    schedule: '0*3 nmi0 0*7',
    drive: 'digit keys',
    moments: [
      {
        at: 4,
        memory: { c: '10' },
        says: 'NMI on CPU0: the NMI handler starts (disabling interrupts does not stop an NMI)',
      },
      {
        at: 8,
        memory: { c: '15' },
        says: "CPU0's NMI handler `*ptr = new`: writes c = 15",
      },
      {
        at: 10,
        key: true,
        memory: { c: '11' },
        says: 'CPU0 `*ptr = new`: writes c = 11',
        back: { c: '15' },
      },
      {
        at: 11,
        invariants: ['no-lost-update: violated (c = 11, but the exact total is 16: 5 lost)'],
      },
    ],
  },
  {
    id: 'percpu-modern',
    witness: 'dec-2022-race',
    schedule: '0 0 irq0 0*8',
    drive: 'arrow keys',
    moments: [
      {
        at: 2,
        memory: { 'CPU0’s fbc->counters': '20' },
        says: 'CPU0 `count = __this_cpu_read(*fbc->counters) + amount`: reads its fbc->counters: 20',
      },
      {
        at: 7,
        memory: { 'CPU0’s fbc->counters': '30' },
        says: "CPU0's IRQ handler `this_cpu_add(*fbc->counters, amount)`: writes CPU0's fbc->counters = 30, completing one instruction that no interrupt could split",
      },
      {
        at: 10,
        key: true,
        memory: { 'CPU0’s fbc->counters': '40', 'fbc->count': '0' },
        says: 'CPU0 `this_cpu_add(*fbc->counters, amount)`: writes its fbc->counters = 40, completing one instruction that no interrupt could split',
        invariants: [
          "slot-below-batch: violated (broken at step 10: CPU0's delta is 40, not within ±32)",
        ],
        also: async (step) => {
          await expect(step.slotBars('fbc->counters')).toHaveAccessibleName(
            'fbc->counters: CPU0 40, CPU1 0; batch ±32',
          );
        },
        back: { 'CPU0’s fbc->counters': '30' },
      },
    ],
  },
  {
    id: 'torn-read-32',
    witness: 'lo-then-hi',
    schedule: '0 1*6 0',
    drive: 'forward button',
    moments: [
      {
        at: 5,
        memory: { 'fbc->count': '16' },
        says: 'CPU1 `fbc->count += count`: writes the low half of fbc->count = 0x00000010: it now holds 16',
      },
      {
        at: 6,
        memory: { 'fbc->count': '4294967312' },
        says: 'CPU1 `fbc->count += count`: writes the high half of fbc->count = 0x00000001: it now holds 4294967312',
        back: { 'fbc->count': '16' },
      },
      {
        at: 8,
        key: true,
        memory: { 'fbc->count': '4294967312', 'fbc->lock': 'free' },
        says: 'CPU0 `return fbc->count`: reads the high half of fbc->count: 0x00000001; records read = 8589934576; P0 finishes',
        invariants: [
          'read-not-torn: violated (broken at step 8: all(read, v, v == OLD || v == NEW) does not hold: read = 8589934576, OLD = 4294967280, NEW = 4294967312)',
          'no-lost-update: holds',
        ],
      },
    ],
  },
];

async function expectMemory(step: StepPage, rows: Readonly<Record<string, string | RegExp>>) {
  for (const [label, value] of Object.entries(rows)) {
    await expect(step.memory(label), `memory row ${label}`).toHaveText(value);
  }
}

async function expectMoment(step: StepPage, m: Moment) {
  await expect(step.timelinePosition()).toHaveValue(String(m.at));
  await expect(step.narrationItems()).toHaveCount(m.at);
  if (m.says !== undefined) {
    // Each item is its number, the event ("0", "irq0", "mig0>1") and then the sentence.
    await expect(step.lastNarration()).toHaveText(new RegExp(`^\\d+\\. \\S+ ${literal(m.says)}$`));
  }
  if (m.memory) await expectMemory(step, m.memory);
  for (const name of m.invariants ?? []) {
    const id = name.slice(0, name.indexOf(':'));
    await expect(step.invariant(id)).toHaveAccessibleName(name);
  }
  if (m.also) await m.also(step);
}

test.describe('Step mode: each scenario, its telling witness', () => {
  for (const c of cases) {
    test(c.id, async ({ page }) => {
      const step = new StepPage(page);
      await step.open(`#/step/${c.id}`);
      await step.loadWitness(c.witness);
      await expect(step.narrationItems()).toHaveCount(0);
      await expect(step.timelinePosition()).toHaveAttribute(
        'max',
        String(expand(c.schedule).length),
      );

      if (c.drive === 'digit keys' || c.drive === 'arrow keys') await step.leaveFields();
      const events = expand(c.schedule);
      let done = 0;
      for (const m of c.moments) {
        for (; done < m.at; done++) {
          const ev = events[done] as string;
          switch (c.drive) {
            case 'cpu buttons':
              await step.take(ev, 'button');
              break;
            case 'digit keys':
              await step.take(ev, 'key');
              break;
            case 'forward button':
              await step.forward();
              break;
            case 'arrow keys':
              await step.forwardByKey();
              break;
          }
        }
        await expectMoment(step, m);
        if (m.key) {
          // The newest sentence is in view inside the log (which scrolls on its own).
          await step.narrationLog().scrollIntoViewIfNeeded();
          await expect(step.lastNarration()).toBeInViewport();
          await step.screenshot(c.id);
        }
        if (m.back) {
          const said = await step
            .narrationItems()
            .nth(m.at - 2)
            .textContent();
          await step.back();
          await expect(step.timelinePosition()).toHaveValue(String(m.at - 1));
          await expect(step.narrationItems()).toHaveCount(m.at - 1);
          await expect(step.lastNarration()).toHaveText(said ?? '');
          await expectMemory(step, m.back);
          // Redo: the witness's next event is still there, and the moment comes back exactly.
          await step.forward();
          await expectMoment(step, m);
        }
      }
      // Taking the witness event by event kept the whole schedule: nothing left to redo or lost.
      await expect(step.timelinePosition()).toHaveAttribute('max', String(events.length));
      await expect(step.alert()).toHaveCount(0);
    });
  }
});

test('Copy link gives a URL that reopens the same moment', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const step = new StepPage(page);
  await step.open('#/step/percpu-classic');
  await step.loadWitness('sum-holds-the-lock');
  await step.forward(9);
  await expect(step.memory('CPU0’s fbc->counters')).toHaveText('13');

  const url = await step.copyLink();
  await expect(step.copyStatus()).toHaveText('Link copied');
  expect(url).toMatch(/^http:\/\/localhost:\d+\/#\/step\/percpu-classic\?/);
  const memory = await step.memoryTable();
  const said = await step.lastNarration().textContent();

  const other = new StepPage(await context.newPage());
  await other.page.goto(url);
  await expect(other.heading()).toContainText('percpu-classic');
  await expect(other.narrationItems()).toHaveCount(9);
  await expect(other.lastNarration()).toHaveText(said ?? '');
  expect(await other.memoryTable()).toEqual(memory);
  await expect(other.alert()).toHaveCount(0);
  // The rest of the witness came along: the new page can redo it.
  await expect(other.timelinePosition()).toHaveAttribute('max', '20');
  await other.forward(5);
  await expect(other.lastNarration()).toHaveText(
    /CPU3 `spin_unlock\(&fbc->lock\)`: releases fbc->lock; __percpu_counter_sum\(\) returns 1036 \(recorded as sum\); P3 finishes$/,
  );
});

test('a malformed link says why and opens global-plain', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const step = new StepPage(page);

  await step.open('#/step/nope');
  await expect(step.alert()).toContainText(
    "This link could not be opened: there is no scenario 'nope'. Showing global-plain instead.",
  );
  await expect(step.heading()).toContainText('global-plain');
  await expect(step.memory('nr_files')).toHaveText('0');
  await step.dismissAlert();
  await expect(step.alert()).toHaveCount(0);

  // A link followed while the page is open (a hash change), with a bad schedule.
  await page.goto('/#/step/global-plain?sched=0+x');
  await expect(step.alert()).toContainText('This link could not be opened: schedule, column 3');
  await expect(step.alert()).toContainText(
    'Showing global-plain instead. The link was: #/step/global-plain?sched=0+x',
  );
  await expect(step.heading()).toContainText('global-plain');
  await expect(step.narrationItems()).toHaveCount(0);

  // The page still works.
  await step.stepCpu(0);
  await expect(step.lastNarration()).toHaveText(/CPU0 `r = nr_files`: reads nr_files: 0$/);
  expect(errors).toEqual([]);
});

test('keyboard only: digits step CPUs, arrows travel, ? opens the shortcuts', async ({ page }) => {
  const step = new StepPage(page);
  await step.open('#/step/global-plain');
  const keys = page.keyboard;

  // Defaults: nr_files = 0, two CPUs, two increments each. Both load 0, both store 1.
  await keys.press('Digit0');
  await keys.press('Digit1');
  await keys.press('Digit0');
  await expect(step.memory('nr_files')).toHaveText('1');
  await keys.press('Digit1');
  await expect(step.lastNarration()).toHaveText('4. 1 CPU1 `nr_files = r`: writes nr_files = 1');
  await expect(step.lastNarration()).toHaveAttribute('aria-current', 'step');
  await expect(step.memory('nr_files')).toHaveText('1');
  await expect(step.narrationItems()).toHaveCount(4);

  await keys.press('ArrowLeft');
  await keys.press('ArrowLeft');
  await expect(step.memory('nr_files')).toHaveText('0');
  await expect(step.lastNarration()).toHaveText('2. 1 CPU1 `r = nr_files`: reads nr_files: 0');
  await keys.press('ArrowRight');
  await expect(step.memory('nr_files')).toHaveText('1');
  await expect(step.narrationItems()).toHaveCount(3);

  await keys.press('?');
  await expect(step.shortcuts()).toBeVisible();
  await expect(step.shortcuts()).toContainText('Step CPU 0 … 8');
  // Nothing steps behind the open sheet.
  await keys.press('Digit0');
  await expect(step.narrationItems()).toHaveCount(3);
  await keys.press('Escape');
  await expect(step.shortcuts()).toBeHidden();

  // Tab to CPU 1's Step button and press Enter: the same as Digit1.
  const target = step.stepButton(1);
  for (let i = 0; i < 40; i++) {
    await keys.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(target).toBeFocused();
  await keys.press('Enter');
  await expect(step.lastNarration()).toHaveText('4. 1 CPU1 `nr_files = r`: writes nr_files = 1');
  await expect(step.narrationItems()).toHaveCount(4);
  // Digits still work with focus on a button.
  await keys.press('Digit0');
  await expect(step.lastNarration()).toHaveText('5. 0 CPU0 `r = nr_files`: reads nr_files: 1');
  await expect(step.alert()).toHaveCount(0);
});

test('an illegal event is aria-disabled, says why, and does nothing', async ({ page }) => {
  const step = new StepPage(page);
  await step.open('#/step/global-plain');
  const preempt = step.preemptButton(0);
  await expect(preempt).toHaveAttribute('aria-disabled', 'true');
  await expect(preempt).toHaveAttribute('title', 'no other task is waiting on CPU 0');
  await expect(preempt).toHaveAccessibleDescription('no other task is waiting on CPU 0');
  const before = await step.memoryTable();

  await preempt.click({ force: true });
  await expect(step.narrationItems()).toHaveCount(0);
  await expect(step.timelinePosition()).toHaveValue('0');
  expect(await step.memoryTable()).toEqual(before);
  await expect(step.alert()).toHaveCount(0);

  // A CPU with nothing left to run: its button says so; its digit key is refused with a notice.
  await step.loadWitness('lost-update');
  await step.stepCpu(0);
  await step.stepCpu(0);
  await expect(step.stepButton(0)).toHaveAttribute('aria-disabled', 'true');
  await expect(step.stepButton(0)).toHaveAttribute('title', 'CPU 0 has nothing left to run');
  await step.pressStepKey(0);
  await expect(step.alert()).toContainText('CPU 0 has nothing left to run');
  await expect(step.narrationItems()).toHaveCount(2);
  await expect(step.memory('nr_files')).toHaveText('101');
  await step.dismissAlert();
  await expect(step.alert()).toHaveCount(0);
});

test('a parameter change that sets a run aside can be undone', async ({ page }) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-classic?sched=0+0+1&at=3');
  await step.openPanel('Parameters');
  const batch = step.parameter('batch');
  await batch.fill('8');
  await batch.press('Enter');
  const change = page.getByRole('alert', { name: 'Parameter change' });
  await expect(change).toContainText(
    'batch changed: the 3 events of the run so far were set aside.',
  );
  await expect(step.timelinePosition()).toHaveValue('0');
  await change.getByRole('button', { name: 'Undo' }).click();
  await expect(step.timelinePosition()).toHaveValue('3');
  await expect(page).toHaveURL(/sched=0\+0\+1&at=3/);
  await expect(change).toHaveCount(0);
});

test('each parameter shows its meaning and range; typing the value back clears its error', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-classic');
  await step.openPanel('Parameters');
  const batch = step.parameter('batch');
  await expect(batch).toHaveAccessibleDescription(/\(1 to 1,000,000,000\)$/);
  const value = await batch.inputValue();
  await batch.fill('abc');
  await batch.press('Enter');
  await expect(step.alert()).toContainText("got 'abc'");
  await batch.fill(value);
  await batch.press('Enter');
  await expect(step.alert()).toHaveCount(0);
});

test('a loaded witness says on the stage what it shows', async ({ page }) => {
  const step = new StepPage(page);
  await step.open('#/step/global-plain');
  await step.loadWitness('one-after-the-other');
  const note = page.getByRole('region', { name: 'Loaded witness' });
  await expect(note).toContainText('Witness one-after-the-other:');
  await expect(note.getByRole('group')).toContainText('events are loaded');
  await expect(note).not.toContainText('§');
});

test('Step mode takes up to 8 CPUs, says so where more are asked, and keeps the moving lane in view', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-classic?cpus=64');
  await expect(step.heading()).toContainText('percpu-classic');
  await expect(step.alert()).toContainText(
    'Part of this link was ignored: cpus must be at most 8 in Step mode',
  );
  await step.open('#/step/percpu-classic?cpus=8');
  await step.openPanel('Parameters');
  await expect(step.parameter('cpus')).toHaveAccessibleDescription(/\(1 to 8\)$/);
  await step.parameter('cpus').fill('16');
  await step.parameter('cpus').press('Enter');
  await expect(step.alert()).toContainText('cpus must be at most 8 in Step mode');
  await step.dismissAlert();
  await step.leaveFields();
  // Eight lanes: CPU7's lane comes into view as it steps.
  await step.pressStepKey(7);
  await expect(step.timelinePosition()).toHaveValue('1');
  const lanes = page.getByRole('region', { name: 'CPUs' });
  const box = await lanes.boundingBox();
  const lane = await step.cpu(7).boundingBox();
  if (!box || !lane) throw new Error('no lanes');
  expect(lane.y).toBeGreaterThanOrEqual(box.y - 1);
  expect(lane.y + lane.height).toBeLessThanOrEqual(box.y + box.height + 1);
});

test('a chart caption longer than its two lines can be read whole, and the chart keeps its size', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(
    '/#/step/percpu-rwsem?variant=reader-no-mb&memory=tso&sched=0*3+1*3+flush0+1+1&at=6',
  );
  const chart = page.getByRole('region', { name: 'Memory' }).getByRole('img').first();
  const end = page.getByText(
    /CPU1 holds 0 loaded from CPU0's read_count\. 0 in memory, 1 in store buffers\.$/,
  );
  const before = await chart.boundingBox();
  // Cut at two lines (its end out of sight): a button says there is more.
  const more = page.getByRole('button', { name: 'Read the whole caption' });
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await expect(end).toBeInViewport({ ratio: 1 });
  expect(await chart.boundingBox()).toEqual(before);
  await page.keyboard.press('Escape');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  // A caption that fits has no button.
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(more).toHaveCount(0);
});
