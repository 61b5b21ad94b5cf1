// What every percpu_counter scenario reports: the exact total, the counter's parts, what each
// sum() and read() returned, and the retries.

import type { Machine } from '../../machine/machine.ts';
import { readCell, readPerCpu, readResults, totalRetries, totalTally } from '../observe.ts';
import { plus } from '../../machine/int64.ts';
import { intParam, listParam } from '../params.ts';
import type { ObservableSpec, Params } from '../types.ts';
import { sumName } from './programs.ts';
import { rolesOf } from './setup.ts';

/** The exact total: initial count + initial deltas + everything every context added. */
export function exactValue(m: Machine, s: Int32Array, p: Params): number | bigint {
  const initial = listParam(p, 'slots').reduce<number | bigint>(
    (a, v) => plus(a, v),
    intParam(p, 'count'),
  );
  return plus(initial, totalTally(m, s));
}

export function observables(p: Params, extra: readonly ObservableSpec[] = []): ObservableSpec[] {
  const r = rolesOf(p);
  const out: ObservableSpec[] = [
    {
      name: 'count',
      description: 'fbc->count, the global part',
      read: (m, s) => readCell(m, s, 'count'),
    },
  ];
  for (let k = 0; k < r.cpus; k++) {
    out.push({
      name: `slot${k}`,
      description: `CPU${k}'s delta`,
      read: (m, s) => readPerCpu(m, s, 'slots')[k] ?? null,
    });
  }
  out.push({
    name: 'exact',
    description: 'The true total: initial value + every add',
    read: exactValue,
  });
  r.summers.forEach((k, i) => {
    const slot = sumName(i);
    out.push(
      r.sums === 1
        ? {
            name: slot,
            description: `What CPU${k}'s percpu_counter_sum() returned`,
            read: (m, s) => readResults(m, s, slot)[0] ?? null,
          }
        : {
            name: `${slot}s`,
            description: `What each of CPU${k}'s percpu_counter_sum() calls returned`,
            read: (m, s) => readResults(m, s, slot),
          },
    );
  });
  if (r.reader >= 0) {
    out.push({
      name: 'read',
      description: 'What percpu_counter_read() returned',
      read: (m, s) => readResults(m, s, 'read')[0] ?? null,
    });
  }
  out.push(...extra);
  return out;
}

export const retriesObservable: ObservableSpec = {
  name: 'retries',
  description: 'How many times sums started over',
  read: (m, s) => totalRetries(m, s),
};

/** `slowcount`: where adds go while a sum is in flight (percpu-seq, percpu-seq-multi). */
export const slowcountObservable: ObservableSpec = {
  name: 'slowcount',
  description: 'fbc->slowcount',
  read: (m, s) => readCell(m, s, 'slowcount'),
};
