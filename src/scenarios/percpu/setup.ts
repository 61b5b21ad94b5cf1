// The percpu_counter scenarios' parameters and roles: which CPUs add (how many adds, of what
// amount), which sum and which read, checked against the machine size, and the kernel preset.

import { intParam, listParam, ParamError, intSpec } from '../params.ts';
import type { ParamSpec, Params, Preset } from '../types.ts';

/**
 * The machine of the lockless-sum walk-through: four CPUs, batch 32, fbc->count 1000, deltas
 * 31, 0, 5, 0; CPU3 sums while CPU0 makes one add of 1 that overflows. The witnesses of
 * percpu-atomic64, percpu-lglock and percpu-seq start from it.
 */
export const FOUR_CPUS_AT_1000: Params = {
  cpus: 4,
  batch: 32,
  count: 1000,
  slots: [31, 0, 5, 0],
  summer: 3,
  amounts: [1, 0],
  adds: [1],
};

/**
 * Tejun Heo's half-done fold: CPU0's delta is 3 and it adds 1 once, so it folds 4 into
 * fbc->count. The witnesses of the lockless retrying sums (percpu-sum-fuzzy, percpu-seq-multi)
 * catch that fold between the atomic64_add and the delta reset.
 */
export const ONE_FOLD_OF_4: Params = { slots: [3], amounts: [1, 0], adds: [1] };

export const kernelPreset: Preset = {
  description: 'the kernel batch: max(32, 2 × cpus)',
  apply: (p) => ({ batch: Math.max(32, 2 * intParam(p, 'cpus')) }),
};

/**
 * Parameters of every percpu_counter scenario, plus `extra`; `defaults` overrides the default
 * value of the common ones (a scenario whose point needs three CPUs, say).
 */
export function parameters(
  extra: readonly ParamSpec[] = [],
  defaults: Readonly<Record<string, number | readonly number[]>> = {},
): ParamSpec[] {
  const common: ParamSpec[] = [
    intSpec('cpus', 2, [1, 64], 'Number of CPUs'),
    intSpec(
      'batch',
      4,
      [1, 1_000_000_000],
      'percpu_counter_batch: a CPU folds its delta into fbc->count at ±batch',
    ),
    {
      name: 'adds',
      kind: 'list',
      default: [3],
      min: 0,
      max: 10_000,
      maxLength: 64,
      description:
        'How many adds each CPU makes, CPU0 first (the last value repeats; the summer and reader CPUs make none)',
    },
    {
      name: 'amounts',
      kind: 'list',
      default: [1],
      min: -1_000_000_000,
      max: 1_000_000_000,
      maxLength: 64,
      description:
        "The amount of each CPU's adds, CPU0 first (the last value repeats; 0: the CPU does not add)",
    },
    intSpec('summer', 1, [-1, 63], 'The CPU that calls percpu_counter_sum() (−1: none)'),
    intSpec('sums', 1, [0, 100], 'How many sums it makes'),
    intSpec('reader', -1, [-1, 63], 'The CPU that calls percpu_counter_read() once (−1: none)'),
    intSpec('count', 0, [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], 'Initial fbc->count'),
    {
      name: 'slots',
      kind: 'list',
      default: [],
      min: -2147483648,
      max: 2147483647,
      maxLength: 64,
      description: 'Initial per-CPU deltas, CPU0 first (missing ones are 0)',
    },
  ];
  common.push({
    name: 'adders',
    kind: 'choice',
    default: 'counted',
    choices: ['counted', 'forever'],
    description:
      'counted: each adder makes `adds` adds; forever: each adder adds +amount then −amount, forever (a bounded state space for livelock exploration)',
  });
  const withDefaults = common.map((spec): ParamSpec => {
    const d = defaults[spec.name];
    if (d === undefined) return spec;
    if (spec.kind === 'int' && typeof d === 'number') return { ...spec, default: d };
    if (spec.kind === 'list' && Array.isArray(d))
      return { ...spec, default: d as readonly number[] };
    throw new Error(`bad default for ${spec.name}`);
  });
  return [...withDefaults, ...extra];
}

/** Per-CPU value of a list parameter whose last entry repeats. */
function perCpu(list: readonly number[], k: number, fallback: number): number {
  if (list.length === 0) return fallback;
  return list[Math.min(k, list.length - 1)] as number;
}

export interface Roles {
  readonly cpus: number;
  readonly batch: number;
  /** CPUs that call percpu_counter_sum(): `summer`, and `summer2` where a scenario has one. */
  readonly summers: readonly number[];
  readonly reader: number;
  readonly sums: number;
  /** Per CPU: how many adds and of what amount (0 adds for the summer and the reader). */
  readonly adds: readonly number[];
  readonly amounts: readonly number[];
  /** Adders loop forever (+amount, −amount) instead of making `adds` adds. */
  readonly forever: boolean;
}

const rolesCache = new WeakMap<Params, Roles>();

/**
 * Who does what, checked against the machine size. Memoised per parameter object: invariants
 * ask for it at every state of an exploration.
 */
export function rolesOf(p: Params): Roles {
  const known = rolesCache.get(p);
  if (known) return known;
  const r = computeRoles(p);
  rolesCache.set(p, r);
  return r;
}

function computeRoles(p: Params): Roles {
  const cpus = intParam(p, 'cpus');
  const reader = intParam(p, 'reader');
  const summers: number[] = [];
  for (const name of ['summer', 'summer2']) {
    if (!(name in p)) continue;
    const k = intParam(p, name);
    if (k >= cpus) throw new ParamError(`${name} must be a CPU below ${cpus} (or −1), got ${k}`);
    if (k < 0) continue;
    if (summers.includes(k)) throw new ParamError('the two summers must be different CPUs');
    summers.push(k);
  }
  if (reader >= cpus)
    throw new ParamError(`reader must be a CPU below ${cpus} (or −1), got ${reader}`);
  if (reader >= 0 && summers.includes(reader)) {
    throw new ParamError('the reader and a summer must be different CPUs');
  }
  if (listParam(p, 'slots').length > cpus) {
    throw new ParamError(`slots has ${listParam(p, 'slots').length} values for ${cpus} CPUs`);
  }
  const limit = intParam(p, 'batch');
  const far = listParam(p, 'slots').find((v) => Math.abs(v) >= limit);
  if (far !== undefined) {
    throw new ParamError(
      `an initial delta must be within ±(batch − 1) = ±${limit - 1}, got ${far}`,
    );
  }
  const adds: number[] = [];
  const amounts: number[] = [];
  for (let k = 0; k < cpus; k++) {
    const busy = summers.includes(k) || k === reader;
    const amount = perCpu(listParam(p, 'amounts'), k, 1);
    amounts.push(amount);
    adds.push(busy || amount === 0 ? 0 : perCpu(listParam(p, 'adds'), k, 0));
  }
  return {
    cpus,
    batch: intParam(p, 'batch'),
    summers,
    reader,
    sums: intParam(p, 'sums'),
    adds,
    amounts,
    forever: 'adders' in p && p.adders === 'forever',
  };
}

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
