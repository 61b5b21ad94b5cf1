// The invariants every percpu_counter variant is judged by (their ids are stable): no update
// lost, read() within (batch − 1) × CPUs, each sum() within its window, retries bounded, every
// slot below the batch.

import type { PerCpuCell } from '../../machine/layout.ts';
import type { Machine } from '../../machine/machine.ts';
import { readResults } from '../observe.ts';
import { distance, plus } from '../../machine/int64.ts';
import { intParam, listParam } from '../params.ts';
import type { InvariantSpec, Params, Value } from '../types.ts';
import { sumName } from './programs.ts';
import { rolesOf } from './setup.ts';

const str = (v: Value | undefined) => String(v);

/**
 * `no-lost-update` of the percpu_counter scenarios: count + every delta (+ slowcount where it
 * exists) = exact, once all is done.
 */
export function counterHoldsEveryAdd(parts: readonly string[] = []): InvariantSpec {
  const what = ['count', 'the deltas', ...parts].join(' + ');
  return {
    id: 'no-lost-update',
    when: 'final',
    description: `Every add is counted: ${what} = exact`,
    final: (o, p) => {
      let total: number | bigint = o.count as number;
      for (let k = 0; k < intParam(p, 'cpus'); k++) total = plus(total, o[`slot${k}`] as number);
      for (const part of parts) total = plus(total, o[part] as number);
      return str(total) === str(o.exact)
        ? null
        : `${what} = ${str(total)}, but the exact total is ${str(o.exact)}`;
    },
  };
}

/**
 * At rest, percpu_counter_read() is within (batch − 1) × CPUs of the exact total. read() is
 * fbc->count, plus the named parts (e.g. slowcount) where the variant adds them.
 */
export function readWithinBound(parts: readonly string[] = []): InvariantSpec {
  const what = ['fbc->count', ...parts].join(' + ');
  return {
    id: 'read-within-bound',
    when: 'final',
    description: `At rest, percpu_counter_read() (${what}) is within (batch − 1) × CPUs of the exact total`,
    final: (o, p) => {
      const bound = (intParam(p, 'batch') - 1) * intParam(p, 'cpus');
      let read: number | bigint = o.count as number;
      for (const part of parts) read = plus(read, o[part] as number);
      const d = distance(o.exact as number, read);
      return d <= bound
        ? null
        : `${what} is ${str(read)}, ${str(d)} from the exact ${str(o.exact)}: more than (batch − 1) × CPUs = ${bound}`;
    },
  };
}

/**
 * Every sum lies between the exact total when it started and when it returned. Judged at every
 * state (it needs the totals recorded around each sum, which are not observables: they would
 * split outcomes by timing), so it is reported at the state where the bad sum returns.
 */
export const sumWithinWindow: InvariantSpec = {
  id: 'sum-within-window',
  when: 'always',
  reads: 'results',
  description:
    'Each percpu_counter_sum() returns a value between the exact total when it started and when it returned (judged when all adds have one sign)',
  always: (m, s, p) => {
    const w = windowSetup(p);
    if (w.mixedSigns) return null;
    const initial = w.initial;
    for (let j = 0; j < rolesOf(p).summers.length; j++) {
      const why = outsideWindow(
        readResults(m, s, sumName(j)),
        readResults(m, s, `window${j + 1}`),
        initial,
      );
      if (why) return why;
    }
    return null;
  },
};

const windowCache = new WeakMap<Params, { mixedSigns: boolean; initial: number | bigint }>();

/** What the window check needs from the parameters, computed once per parameter object. */
function windowSetup(p: Params): { mixedSigns: boolean; initial: number | bigint } {
  let w = windowCache.get(p);
  if (!w) {
    // With adds of both signs the true total can leave the window between a sum's two
    // endpoints (+5 then −4), so a correct sum could fall outside it: not judged then.
    const amounts = [
      ...rolesOf(p).amounts,
      ...('irqAmount' in p ? [intParam(p, 'irqAmount')] : []),
    ];
    w = {
      // Endless adders add −amount after each +amount: mixed signs too.
      mixedSigns: rolesOf(p).forever || (amounts.some((a) => a > 0) && amounts.some((a) => a < 0)),
      initial: listParam(p, 'slots').reduce<number | bigint>(
        (a, v) => plus(a, v),
        intParam(p, 'count'),
      ),
    };
    windowCache.set(p, w);
  }
  return w;
}

function outsideWindow(
  sums: readonly (number | bigint)[],
  window: readonly (number | bigint)[],
  initial: number | bigint,
): string | null {
  for (let i = 0; i < sums.length; i++) {
    const a = plus(initial, window[2 * i] as number);
    const b = plus(initial, window[2 * i + 1] as number);
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    const v = sums[i] as number;
    if (v < lo || v > hi) {
      const range =
        lo === hi ? `the exact total ${str(lo)}` : `the exact totals ${str(lo)}..${str(hi)}`;
      return `sum() returned ${str(v)} while the counter went through ${range}`;
    }
  }
  return null;
}

/** Sums retry at most once per CPU (the in-flight bit stops new folds). */
export const retriesBounded: InvariantSpec = {
  id: 'retries-bounded',
  when: 'final',
  description: 'Each sum retries at most once per CPU',
  final: (o, p) => {
    const limit =
      intParam(p, 'cpus') *
      Math.max(1, intParam(p, 'sums')) *
      Math.max(1, rolesOf(p).summers.length);
    return (o.retries as number) <= limit
      ? null
      : `the sums retried ${str(o.retries)} times, more than ${limit}`;
  },
};

/** Always: every per-CPU delta stays strictly within ±batch. */
export const slotBelowBatch: InvariantSpec = {
  id: 'slot-below-batch',
  when: 'always',
  description: 'Every per-CPU delta stays within −batch < delta < batch',
  always: (m, s, p) => {
    // Judged at every explored state: read the words directly, allocate nothing.
    const batch = intParam(p, 'batch');
    const cell = slotsCell(m);
    for (let k = 0; k < cell.count; k++) {
      const v = s[cell.base + k * cell.stride] as number;
      if (v >= batch || v <= -batch) return `CPU${k}'s delta is ${v}, not within ±${batch}`;
    }
    return null;
  },
};

const slotsCache = new WeakMap<Machine, PerCpuCell>();

function slotsCell(m: Machine): PerCpuCell {
  let cell = slotsCache.get(m);
  if (!cell) {
    const found = m.layout.cells.find((c) => c.name === 'slots');
    if (!found?.perCpu) throw new Error('no per-CPU slots');
    cell = found;
    slotsCache.set(m, cell);
  }
  return cell;
}

/**
 * The verdicts of the designs that send adds to fbc->slowcount while a sum is in flight and
 * make the sum start over (percpu-seq, percpu-seq-multi): slowcount is part of the counter.
 */
export const slowcountInvariants: readonly InvariantSpec[] = [
  counterHoldsEveryAdd(['slowcount']),
  readWithinBound(['slowcount']),
  sumWithinWindow,
  slotBelowBatch,
  retriesBounded,
];

/**
 * What a correct percpu_counter keeps, whatever its design: no add lost, read() within its
 * bound, sum() within its window, every delta below the batch.
 */
export const CORRECT: readonly string[] = [
  'no-lost-update',
  'read-within-bound',
  'sum-within-window',
  'slot-below-batch',
];
