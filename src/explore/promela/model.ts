// `lab export --format promela`: the program the explorer would search, with its bounds, as a
// Promela model SPIN checks (docs/spin.md). Each CPU is a proctype offering the events the
// explorer offers on it (steps.ts); each step is one d_step, as indivisible as the lab's; the
// always-invariants are assertions after every event, the final invariants assertions in a
// checker that runs at every end state, and a state where nothing can move and the machine has
// not finished is an invalid end state (SPIN's deadlock): the explorer's stuck outcomes. Built
// with `spin -DLAB_REPORT`, the model prints each end state's observables and the invariants
// each state breaks instead of asserting (compile pan with -DPRINTF): how the tests and the
// benchmark compare SPIN's answer with the explorer's.

import { initialState } from '../../machine/interpreter.ts';
import { cpuBase, ctxBase, CPU_WORDS, CTX_REGS, CTX_WORDS } from '../../machine/machine.ts';
import type { Expr, Item } from '../../lang/ast.ts';
import { locationsIn } from '../../lang/clauses.ts';
import type { CompiledProgram } from '../../lang/compiled.ts';
import { locationText } from '../../lang/evaluate.ts';
import { shownName } from '../../scenarios/program.ts';
import { isAxiomatic } from '../../scenarios/textScenario.ts';
import type { Params, Scenario } from '../../scenarios/types.ts';
import { type Bounds, searchSetup } from '../setup.ts';
import { ClauseWriter, type Val } from './clauses.ts';
import { StepWriter } from './steps.ts';
import { PromelaRefusal } from './words.ts';

export { PromelaRefusal } from './words.ts';

/** An observable as the model prints it: one value, or every value of a record. */
type Printed =
  | { readonly name: string; readonly one: Val }
  | { readonly name: string; readonly many: readonly { v: string; d: string }[] };

/** A check: the invariant's id and the condition under which it holds. */
interface Check {
  readonly id: string;
  readonly holds: string;
}

/** What a report line looks like: `LAB outcome name=value …` and `LAB broken id`. */
export const REPORT = { outcome: 'LAB outcome ', broken: 'LAB broken ' } as const;

/** The Promela model of a scenario (or typed program) at these parameters and bounds. */
export function promelaModel(sc: Scenario, params: Params, bounds: Bounds): string {
  if (isAxiomatic(params))
    throw new PromelaRefusal(
      'memory lkmm is axiomatic (answered as herd7 does), not a machine SPIN can step: export with memory sc',
    );
  if (Number.isFinite(bounds.switches))
    throw new PromelaRefusal(
      'a switch bound counts the order of steps along a path, which SPIN does not: export without --switches',
    );
  const setup = searchSetup(sc, params, bounds, {});
  const m = setup.m;
  if (m.tso)
    throw new PromelaRefusal(
      "memory tso's store buffers are not in the export yet: export with memory sc",
    );
  if (m.hotplug)
    throw new PromelaRefusal(
      'CPU hotplug (offline and online events, the dead callbacks) is not in the export yet',
    );
  if (setup.endless)
    throw new PromelaRefusal(
      'the tasks loop for ever (a livelock study): the explorer caps their retries to keep the search finite, which the export does not',
    );
  const p = sc.program?.(params);
  if (!p) throw new PromelaRefusal(`${sc.id} is not a program in text`);
  const clauses = new ClauseWriter(p, m);
  const checks = invariants(p, clauses);
  const always = checks.filter((c) => c.when === 'always');
  const final = checks.filter((c) => c.when === 'final');
  const printed = observables(p, clauses);
  const limits = {
    irqs: bounds.irqs,
    nmis: bounds.nmis,
    preemptions: bounds.preemptions,
    migrations: bounds.migrations,
  };
  const fits = [...clauses.fits];
  const fitsCheck =
    fits.length === 0
      ? []
      : [
          `assert(${fits.map((f) => `(${f})`).join(' && ')}); /* a value the clauses read is past 32 bits */`,
        ];
  const steps = new StepWriter(m, limits, ['always_check();']);
  const X = m.contexts;
  const C = m.cpus;
  const regs = Math.max(1, X * steps.w.regs * 2);
  const resWords = Math.max(1, m.layout.resultWords);
  const terminal = [
    ...Array.from(
      { length: C },
      (_, k) =>
        `cur[${String(k)}] == -1 && !inirq[${String(k)}] && !innmi[${String(k)}] && !pend[${String(k)}]`,
    ),
    ...Array.from({ length: m.tasks }, (_, t) => `done[${String(t)}]`),
  ].join(' && ');
  const b = bounds;
  const paramText = Object.entries(params)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join(' ');
  const out: string[] = [
    '/*',
    ` * ${shownName(sc)} as a Promela model, written by \`lab export --format promela\` (docs/spin.md).`,
    ` * Parameters: ${paramText}`,
    ` * Bounds: irqs ${String(b.irqs)}, nmis ${String(b.nmis)}, preemptions ${String(b.preemptions)}, migrations ${String(b.migrations)}; memory sc.`,
    ' *',
    " * One proctype per CPU; each step is a d_step, as indivisible as the lab's. Registers and",
    " * 64-bit cells are (low, high) word pairs, as in the lab's state. Always-invariants are",
    ' * assertions after every event, final ones assertions at every end state; a state where',
    ' * nothing moves before the machine has finished is an invalid end state (a deadlock).',
    ' *',
    ' *   spin -a model.pml && cc -O2 -fwrapv -DSAFETY -o pan pan.c && ./pan -m1000000',
    ' *   (add -DNCORE=N for N cores, or -DBITSTATE; spin -DLAB_REPORT and cc -DPRINTF print',
    ' *   every end state and every broken invariant instead of stopping at the first)',
    ' */',
    '',
    '#define MINI (-2147483647 - 1)',
    '',
    `int mem[${String(m.memWords)}];`,
    ...CPU_WORDS.map(([word]) => `${CPU_VARS[word].type} ${CPU_VARS[word].name}[${String(C)}];`),
    `short pc[${String(X)}];`,
    `byte ccpu[${String(X)}];`,
    `bit done[${String(X)}];`,
    `int tly[${String(2 * X)}];`,
    `byte retr[${String(X)}];`,
    `int reg[${String(regs)}];`,
    `int res[${String(resWords)}];`,
    'byte uirq, unmi, upre, umig;',
    // Not `hidden`: pan refuses hidden variables with -DNCORE. Every d_step clears them as it
    // ends, so they never tell two states apart.
    '/* Scratch for one step: every step clears it as it ends. */',
    'int ha, hx, hy, hn, hm, hk, hp, hq, hr, ht;',
    'byte hd;',
    '',
    `#define TERMINAL (${terminal})`,
    '',
    'inline always_check() {',
    ...indent(
      always.flatMap((c) => check(c)),
      1,
    ),
    ...(always.length === 0 ? ['  skip'] : []),
    '}',
    '',
  ];
  for (let k = 0; k < C; k++) out.push(...steps.proctype(k), '');
  out.push(
    '/* At every end state: what the explorer would list as its outcome, and its verdict. */',
    'proctype check() {',
    '  d_step { TERMINAL ->',
    ...indent(fitsCheck, 2),
    '#ifdef LAB_REPORT',
    ...indent(printOutcome(printed), 2),
    '#endif',
    ...indent(
      final.flatMap((c) => check(c)),
      2,
    ),
    '  }',
    '}',
    '',
    'init {',
    '  atomic {',
    '    d_step {',
    ...indent(initial(p), 3),
    ...indent(['always_check()'], 3),
    '    };',
    ...indent([...Array.from({ length: C }, (_, k) => `run cpu${String(k)}();`), 'run check()'], 2),
    '  }',
    '}',
  );
  return out.join('\n') + '\n';
}

function indent(lines: readonly string[], n: number): string[] {
  return lines.map((l) => (l.startsWith('#') ? l : '  '.repeat(n) + l));
}

function check(c: Check): string[] {
  return [
    '#ifdef LAB_REPORT',
    `if :: !(${c.holds}) -> printf("${REPORT.broken}${c.id}\\n") :: else fi;`,
    '#else',
    `assert(${c.holds}); /* ${c.id} */`,
    '#endif',
  ];
}

/**
 * The Promela array that holds each word of a CPU's record (src/machine/machine.ts's CPU_WORDS),
 * indexed by CPU, and its type: the declarations and the initial state both come from here.
 */
const CPU_VARS: Record<
  (typeof CPU_WORDS)[number][0],
  { readonly type: string; readonly name: string }
> = {
  CUR: { type: 'short', name: 'cur' },
  PREEMPT: { type: 'byte', name: 'pre' },
  IRQ_ON: { type: 'bit', name: 'irqon' },
  PENDING: { type: 'bit', name: 'pend' },
  IN_IRQ: { type: 'bit', name: 'inirq' },
  IN_NMI: { type: 'bit', name: 'innmi' },
  NMI_SAVED: { type: 'bit', name: 'nmisv' },
  IRQS: { type: 'byte', name: 'nirq' },
  NMIS: { type: 'byte', name: 'nnmi' },
  TASKS: { type: 'byte', name: 'ntask' },
};

/** Where the model holds each word of context c's record (CTX_WORDS): a tally is two ints of tly. */
const CTX_VARS: Record<(typeof CTX_WORDS)[number][0], (c: number) => string> = {
  PC: (c) => `pc[${String(c)}]`,
  CPU: (c) => `ccpu[${String(c)}]`,
  DONE: (c) => `done[${String(c)}]`,
  TALLY: (c) => `tly[${String(2 * c)}]`,
  TALLY_HI: (c) => `tly[${String(2 * c + 1)}]`,
  RETRIES: (c) => `retr[${String(c)}]`,
};

/** The lab's initial state, word for word (src/machine/interpreter.ts's initialState). */
function initial(p: CompiledProgram): string[] {
  const m = p.machine;
  const s = initialState(m);
  const out: string[] = [];
  const set = (name: string, v: number) => {
    if (v !== 0) out.push(`${name} = ${v === -2147483648 ? 'MINI' : String(v)};`);
  };
  for (let a = 0; a < m.memWords; a++) set(`mem[${String(a)}]`, s[a] as number);
  for (let k = 0; k < m.cpus; k++) {
    const b = cpuBase(m, k);
    const K = String(k);
    CPU_WORDS.forEach(([word], f) => {
      set(`${CPU_VARS[word].name}[${K}]`, s[b + f] as number);
    });
  }
  const regs = (m.ctxStride - CTX_REGS) / 2;
  for (let c = 0; c < m.contexts; c++) {
    const b = ctxBase(m, c);
    CTX_WORDS.forEach(([word], f) => {
      set(CTX_VARS[word](c), s[b + f] as number);
    });
    for (let r = 0; r < 2 * regs; r++)
      set(`reg[${String(c * regs * 2 + r)}]`, s[b + CTX_REGS + r] as number);
  }
  for (let i = 0; i < m.layout.resultWords; i++)
    set(`res[${String(i)}]`, s[m.resOff + i] as number);
  return out;
}

/** The program's invariants in the order the lab lists them (src/lang/clauses.ts). */
function invariants(p: CompiledProgram, w: ClauseWriter): (Check & { when: 'final' | 'always' })[] {
  const out: (Check & { when: 'final' | 'always' })[] = [];
  const holds = (v: Val) => (v.d === null ? `(${v.v})` : `(!(${v.d}) || (${v.v}))`);
  for (const c of p.clauseItems) {
    if (c.kind === 'invariant') {
      if (c.prop !== null) out.push({ id: c.id, when: c.when, holds: holds(w.expr(c.prop)) });
      else out.push({ id: c.id, when: c.when, holds: builtin(p, w, c.id) });
    } else if (c.kind === 'exists' && c.quantifier !== 'exists') {
      const r = w.expr(c.prop);
      const yes = r.d === null ? `(${r.v})` : `((${r.d}) && (${r.v}))`;
      out.push({
        id: 'condition',
        when: 'final',
        holds: c.quantifier === '~exists' ? `!${yes}` : yes,
      });
    }
  }
  const ids = p.clauses.invariants.map((i) => i.id).join(',');
  if (out.map((i) => i.id).join(',') !== ids)
    throw new PromelaRefusal(`the invariants ${ids} are not all in the export`);
  return out;
}

function builtin(p: CompiledProgram, w: ClauseWriter, id: string): string {
  const a = p.anatomy;
  if (!a) throw new PromelaRefusal(`${id} needs a counter`);
  const m = p.machine;
  switch (id) {
    case 'no-lost-update':
      return `(${w.counter()} == ${w.exact()})`;
    case 'read-within-bound': {
      if (!a.read || !a.error) throw new PromelaRefusal('read-within-bound needs read and error');
      const r = w.expr(a.read);
      const bound = p.module.constant(a.error);
      const d = `(${w.exact()} - ${r.v})`;
      const ok = `(((${d} < 0) -> -${d} : ${d}) <= ${String(bound)})`;
      return r.d === null ? ok : `(!(${r.d}) || ${ok})`;
    }
    case 'sum-within-window': {
      if (p.addAmounts.some((x) => x > 0n) && p.addAmounts.some((x) => x < 0n)) return '1';
      const init = String(w.initialCounter());
      const parts: string[] = [];
      for (const t of p.threads) {
        if (!p.slots.has(`@sum:${t.name}`)) continue;
        const sums = w.recorded(`@sum:${t.name}`);
        const win = m.layout.results.find((r) => r.name === `@window:${t.name}`);
        if (!win) throw new PromelaRefusal(`no window for ${t.name}`);
        sums.values.forEach(({ v, d }, i) => {
          const x = `(${init} + res[${String(win.offset + 1 + 4 * i)}])`;
          const y = `(${init} + res[${String(win.offset + 3 + 4 * i)}])`;
          const lo = `((${x} < ${y}) -> ${x} : ${y})`;
          const hi = `((${x} < ${y}) -> ${y} : ${x})`;
          parts.push(`(!(${d}) || (${v} >= ${lo} && ${v} <= ${hi}))`);
        });
      }
      return parts.length === 0 ? '1' : `(${parts.join(' && ')})`;
    }
    case 'slot-below-batch': {
      if (!a.deltas || !a.batch) throw new PromelaRefusal('slot-below-batch needs deltas, batch');
      const b = String(p.module.constant(a.batch));
      const cell = m.layout.cells.find((c) => c.name === a.deltas?.name);
      if (!cell?.perCpu) throw new PromelaRefusal('no deltas');
      const parts = Array.from({ length: m.cpus }, (_, k) => {
        const at = String(cell.base + k * cell.stride);
        return `(mem[${at}] > -${b} && mem[${at}] < ${b})`;
      });
      return `(${parts.join(' && ')})`;
    }
    case 'retries-bounded': {
      const summers = p.threads.filter((t) => p.slots.has(`@sum:${t.name}`));
      const calls = Math.max(1, ...summers.map((t) => p.recordCounts.get(`@sum:${t.name}`) ?? 1));
      const limit = m.cpus * calls * Math.max(1, summers.length);
      const sum = Array.from({ length: m.contexts }, (_, c) => `retr[${String(c)}]`).join(' + ');
      return `((${sum}) <= ${String(limit)})`;
    }
    default:
      throw new PromelaRefusal(`the built-in invariant ${id}`);
  }
}

/** The observables in the order the lab lists them (src/lang/clauses.ts's clausesOf). */
function observables(p: CompiledProgram, w: ClauseWriter): Printed[] {
  const out: Printed[] = [];
  const named = new Set<string>();
  const add = (o: Printed) => {
    if (named.has(o.name)) return;
    named.add(o.name);
    out.push(o);
  };
  const record = (name: string, as: string): Printed =>
    (p.recordCounts.get(name) ?? 1) > 1
      ? { name: as, many: w.recorded(name).values }
      : { name: as, one: w.lastRecorded(name) };
  const props: Expr[] = [];
  for (const c of p.clauseItems) {
    if (c.kind === 'observe') {
      if (c.value === null) {
        if (p.recordCounts.has(c.name)) add(record(c.name, c.name));
        else add({ name: c.name, one: w.expr({ kind: 'name', name: c.name, span: c.span }) });
      } else if (c.value.kind === 'name' && p.recordCounts.has(c.value.name))
        add(record(c.value.name, c.name));
      else add({ name: c.name, one: w.expr(c.value) });
    } else if (c.kind === 'locations') {
      for (const l of c.locations) add({ name: locationText(p, l), one: w.expr(l) });
    } else if (c.kind === 'exists' || c.kind === 'filter') props.push(c.prop);
  }
  for (const e of props)
    for (const l of locationsIn(e)) {
      if (l.kind === 'name' && !p.module.globals.has(l.name) && !p.recordCounts.has(l.name))
        continue;
      add({ name: locationText(p, l), one: w.expr(l) });
    }
  const explicit = p.clauseItems.some((c: Item) => c.kind === 'observe');
  for (const name of p.recordCounts.keys())
    if (!explicit && !name.startsWith('@')) add(record(name, name));
  const want = p.clauses.observables.map((o) => o.name).join(',');
  if (out.map((o) => o.name).join(',') !== want)
    throw new PromelaRefusal(`the observables ${want} are not all in the export`);
  return out;
}

/** printf lines of one end state's observables: `LAB outcome a=1 b=none c=[1,2,] `. */
function printOutcome(printed: readonly Printed[]): string[] {
  const out = [`printf("${REPORT.outcome}");`];
  for (const o of printed) {
    if ('one' in o) {
      if (o.one.d === null) out.push(`printf("${o.name}=%d ", ${o.one.v});`);
      else
        out.push(
          `if :: ${o.one.d} -> printf("${o.name}=%d ", ${o.one.v}) :: else -> printf("${o.name}=none ") fi;`,
        );
    } else {
      out.push(`printf("${o.name}=[");`);
      for (const x of o.many) out.push(`if :: ${x.d} -> printf("%d,", ${x.v}) :: else fi;`);
      out.push(`printf("] ");`);
    }
  }
  out.push('printf("\\n");');
  return out;
}
