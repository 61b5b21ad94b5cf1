// The percpu_counter entries as program text: the parts every design shares (the struct, the
// one counter `fbc`, the threads the roles give, the counter's declaration, what an outcome
// reports and the verdicts) written once; each entry writes only its functions, in C.

import { intParam, listParam } from '../params.ts';
import type { Params } from '../types.ts';
import { type Roles, rolesOf } from './setup.ts';

export interface CounterProgram {
  /** The entry's id, the litmus name. */
  readonly id: string;
  /** What the program shows, and where it comes from, for its opening comment. */
  readonly about: readonly string[];
  /** Lines of `struct percpu_counter { … }`, tab-indented. */
  readonly fields: readonly string[];
  /** Designated initialisers of `fbc` beyond the count (`.sequence = 4`). */
  readonly init?: readonly string[];
  /** #defines beyond NR_CPUS and BATCH. */
  readonly defines?: readonly string[];
  /** Globals beyond fbc. */
  readonly globals?: readonly string[];
  /**
   * The functions, in C: at least __percpu_counter_add(fbc, amount, batch),
   * __percpu_counter_sum(fbc) and percpu_counter_read(fbc).
   */
  readonly functions: string;
  /** IRQ or NMI handlers, as threads (IRQ0() { … }). */
  readonly handlers?: string;
  /** Lines of the counter declaration beyond count, deltas, batch, error, add, sum and read. */
  readonly counter?: readonly string[];
  /** Observables after the common ones (`observe slowcount = fbc.slowcount;`). */
  readonly observe?: readonly string[];
  /** The invariants, as clauses (`invariant final no-lost-update;`). */
  readonly invariants: readonly string[];
  /** What a thread calls to sum (a design with its own arguments): `__percpu_counter_sum(&fbc)`. */
  readonly sumCall?: string;
  /** The add function's name (`__percpu_counter_add` unless the design names it otherwise). */
  readonly add?: string;
}

/** The name of summer i's observable: sum, sum2, … (sums, sum2s when it sums several times). */
export function summerObservable(i: number, r: Roles): string {
  const base = i === 0 ? 'sum' : `sum${i + 1}`;
  return r.sums === 1 ? base : `${base}s`;
}

/** The threads the roles give: one per CPU (an adder, a summer, the reader, or nothing). */
function threads(
  r: Roles,
  sumCall: string,
  add: string,
  stop: boolean,
  extra: (k: number) => string | null,
): string[] {
  const out: string[] = [];
  for (let k = 0; k < r.cpus; k++) {
    const own = extra(k);
    if (own !== null) {
      out.push(own);
      continue;
    }
    const s = r.summers.indexOf(k);
    if (s >= 0) {
      const name = summerObservable(s, r);
      const body =
        r.sums === 1
          ? [`\tret = ${sumCall};`, `\trecord(${name}, ret);`]
          : [
              `\tfor (i = 0; i < ${r.sums}; i++) {`,
              `\t\tret = ${sumCall};`,
              `\t\trecord(${name}, ret);`,
              '\t}',
            ];
      out.push(
        [
          `P${k}()\t\t\t\t/* sums */`,
          '{',
          '\ts64 ret;',
          ...(r.sums === 1 ? [] : ['\tint i;']),
          '',
          ...body,
          ...(stop ? ['\tatomic_inc(&done);\t\t/* the test driver: one summer more done */'] : []),
          '}',
        ].join('\n'),
      );
      continue;
    }
    if (k === r.reader) {
      out.push(
        [`P${k}()\t\t\t\t/* reads */`, '{', '\trecord(read, percpu_counter_read(&fbc));', '}'].join(
          '\n',
        ),
      );
      continue;
    }
    const adds = r.adds[k] as number;
    const amount = r.amounts[k] as number;
    const call = (a: number) => `${add}(&fbc, ${a}, BATCH);`;
    if (adds === 0) {
      out.push([`P${k}()\t\t\t\t/* adds nothing */`, '{', '}'].join('\n'));
    } else if (r.forever) {
      const check = stop
        ? ['\t\tif (atomic_read(&done) >= SUMMERS)\t/* every sum has returned */', '\t\t\tbreak;']
        : [];
      out.push(
        [
          `P${k}()\t\t\t\t/* adds +${amount} and −${amount}, forever */`,
          '{',
          '\tfor (;;) {',
          ...check,
          `\t\t${call(amount)}`,
          `\t\t${call(-amount)}`,
          '\t}',
          '}',
        ].join('\n'),
      );
    } else if (adds === 1) {
      out.push(
        [`P${k}()\t\t\t\t/* adds ${amount} once */`, '{', `\t${call(amount)}`, '}'].join('\n'),
      );
    } else {
      out.push(
        [
          `P${k}()\t\t\t\t/* adds ${amount}, ${adds} times */`,
          '{',
          '\tint i;',
          '',
          `\tfor (i = 0; i < ${adds}; i++)`,
          `\t\t${call(amount)}`,
          '}',
        ].join('\n'),
      );
    }
  }
  return out;
}

/** A percpu_counter entry's program for parameter set p. */
export function counterText(
  p: Params,
  c: CounterProgram,
  extraThread: (k: number, r: Roles) => string | null = () => null,
): string {
  const r = rolesOf(p);
  const stop = r.forever && r.summers.length > 0;
  const slots = listParam(p, 'slots');
  const init = slots
    .map((v, k) => (v === 0 ? null : `\tper_cpu(fbc.counters, ${k}) = ${v};`))
    .filter((x): x is string => x !== null);
  const observe = [
    'observe count = fbc.count;',
    ...Array.from({ length: r.cpus }, (_, k) => `observe slot${k} = per_cpu(fbc.counters, ${k});`),
    'observe exact;',
    ...r.summers.map((_, i) => `observe ${summerObservable(i, r)};`),
    ...(r.reader >= 0 ? ['observe read;'] : []),
    ...(c.observe ?? []),
  ];
  const sections = [
    `C ${c.id}`,
    ['/*', ...c.about.map((l) => (l === '' ? ' *' : ` * ${l}`)), ' */'].join('\n'),
    [
      `#define NR_CPUS ${r.cpus}`,
      `#define BATCH ${r.batch}\t\t\t/* percpu_counter_batch */`,
      ...(stop ? [`#define SUMMERS ${r.summers.length}`] : []),
      ...(c.defines ?? []),
    ].join('\n'),
    ['struct percpu_counter {', ...c.fields, '};'].join('\n'),
    [
      `struct percpu_counter fbc = { ${[`.count = ${String(intParam(p, 'count'))}`, ...(c.init ?? [])].join(', ')} };`,
      ...(stop ? ['atomic_t done;\t\t\t\t/* the test driver: summers done */'] : []),
      ...(c.globals ?? []),
    ].join('\n'),
    ...(init.length > 0 ? [['{', ...init, '}'].join('\n')] : []),
    c.functions.trim(),
    ...threads(
      r,
      c.sumCall ?? '__percpu_counter_sum(&fbc)',
      c.add ?? '__percpu_counter_add',
      stop,
      (k) => extraThread(k, r),
    ),
    ...(c.handlers ? [c.handlers.trim()] : []),
    [
      'counter {',
      '\tcount fbc.count;',
      '\tdeltas fbc.counters;',
      '\tbatch BATCH;',
      '\terror (BATCH - 1) * NR_CPUS;\t/* how far read() may be off at rest */',
      `\tadd ${c.add ?? '__percpu_counter_add'};`,
      '\tsum __percpu_counter_sum;',
      '\tread percpu_counter_read(&fbc);',
      ...(c.counter ?? []).map((l) => `\t${l}`),
      '}',
    ].join('\n'),
    observe.join('\n'),
    c.invariants.join('\n'),
  ];
  return `${sections.join('\n\n')}\n`;
}

/** What a correct percpu_counter keeps, as clauses. */
export const CORRECT_CLAUSES: readonly string[] = [
  'invariant final no-lost-update;',
  'invariant final read-within-bound;',
  'invariant always sum-within-window;',
  'invariant always slot-below-batch;',
];

/** The clauses of a sum that starts over: correct, and it starts over a bounded number of times. */
export const RETRYING_CLAUSES: readonly string[] = [
  ...CORRECT_CLAUSES,
  'invariant final retries-bounded;',
];
