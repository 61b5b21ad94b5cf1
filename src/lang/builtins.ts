// The counter's invariants, by name: what every percpu_counter design is judged by, written once
// against the program's counter declaration. `invariant final no-lost-update;` names one.

import { distance } from '../machine/int64.ts';
import { counterReaders } from './counter.ts';
import type { Machine } from '../machine/machine.ts';
import { elementValue, pairAt, perCpuNamed, resultAt } from '../machine/read.ts';
import type { CompiledProgram, LangInvariant } from './compiled.ts';
import { counterReading, counterValue, exactValue, readerOf } from './evaluate.ts';
import { LangFault, type Span } from './source.ts';

const str = (v: bigint | number) => String(v);

/**
 * How far the counter is from the exact total, in words: short is "2 lost"; over is "2 too many
 * (counted twice)", never "-2 lost" (a migration or a replayed fold counts an update twice).
 */
export function offBy(short: bigint): string {
  if (short >= 0n) return `${str(short)} lost`;
  const over = -short;
  return `${str(over)} too many (${over === 1n ? 'an update' : 'updates'} counted twice)`;
}

/** The built-in invariant `id` of the program's counter. */
export function builtinInvariant(
  p: CompiledProgram,
  id: string,
  when: 'final' | 'always',
  span: Span,
): LangInvariant {
  const a = p.anatomy;
  const names = [
    'no-lost-update',
    'read-within-bound',
    'sum-within-window',
    'slot-below-batch',
    'retries-bounded',
  ];
  if (!names.includes(id))
    throw new LangFault(
      span,
      `\`${id}\` is not a built-in invariant.`,
      `Write its condition after a colon, or use one of ${names.join(', ')}.`,
    );
  if (!a)
    throw new LangFault(span, `\`${id}\` judges a counter: declare it with \`counter { … }\`.`);
  const expectWhen = id === 'sum-within-window' || id === 'slot-below-batch' ? 'always' : 'final';
  if (when !== expectWhen) throw new LangFault(span, `\`${id}\` is an ${expectWhen} invariant.`);
  const parts = [
    a.count?.label,
    a.deltas ? `Σ ${a.deltas.label}` : null,
    ...a.parts.map((c) => c.label),
    a.tagged ? `(${a.tagged.label} >> 1 while bit 0 is set)` : null,
  ]
    .filter(Boolean)
    .join(' + ');
  switch (id) {
    case 'no-lost-update':
      return {
        id,
        when,
        description: `Every add is counted: ${parts} = exact`,
        check: (m, s) => {
          const v = counterReading(p, m, s);
          const exact = exactValue(p, m, s);
          return v === exact
            ? null
            : `${parts} = ${str(v)}, but the exact total is ${str(exact)}: ${offBy(exact - v)}`;
        },
      };
    case 'read-within-bound': {
      if (!a.read)
        throw new LangFault(
          span,
          '`read-within-bound` needs the counter’s read: `read f(&counter);`.',
        );
      if (!a.error)
        throw new LangFault(
          span,
          '`read-within-bound` needs how far read() may be off: `error (BATCH - 1) * NR_CPUS;`.',
        );
      const r = counterReaders(p)?.read;
      if (!r || r.bound === null) throw new Error('the counter has a read and an error');
      const { name, bound, boundText } = r;
      const read = r.value;
      return {
        id,
        when,
        description: `At rest, ${name}() is within ${boundText} (${str(bound)}) of the exact total`,
        check: (m, s) => {
          const r = read(m, s);
          if (r === null) return null;
          const exact = exactValue(p, m, s);
          const d = BigInt(distance(exact, r));
          return d <= bound
            ? null
            : `${name}() is ${str(r)}, ${str(d)} from the exact ${str(exact)}: more than ${boundText} = ${str(bound)}`;
        },
      };
    }
    case 'sum-within-window': {
      if (!a.sum)
        throw new LangFault(span, '`sum-within-window` needs the counter’s sum: `sum f;`.');
      const summers = p.threads.filter((t) => p.slots.has(`@sum:${t.name}`)).map((t) => t.name);
      // With adds of both signs the true total can leave the window between a sum's two ends
      // (+5 then −4), so a correct sum could fall outside it: not judged then.
      const mixed = p.addAmounts.some((x) => x > 0n) && p.addAmounts.some((x) => x < 0n);
      return {
        id,
        when,
        reads: 'results',
        description: `Each ${a.sum}() returns a value between the exact total when it started and when it returned (judged when all adds have one sign)`,
        check: (m, s) => {
          if (mixed) return null;
          // The fast path reads the slots as numbers; a value past 2^53 goes the BigInt way.
          let initial: bigint | null = null;
          for (const t of summers) {
            const sum = resultAt(m, `@sum:${t}`);
            const win = resultAt(m, `@window:${t}`);
            const n = s[sum] as number;
            for (let i = 0; i < n; i++) {
              initial ??= initialValue(p, m, s);
              const v = BigInt(pairAt(s, sum + 1 + 2 * i));
              const x = initial + BigInt(pairAt(s, win + 1 + 4 * i));
              const y = initial + BigInt(pairAt(s, win + 3 + 4 * i));
              const lo = x < y ? x : y;
              const hi = x < y ? y : x;
              if (v < lo || v > hi) {
                const range =
                  lo === hi
                    ? `the exact total ${str(lo)}`
                    : `the exact totals ${str(lo)}..${str(hi)}`;
                return `${a.sum}() returned ${str(v)} while the counter went through ${range}`;
              }
            }
          }
          return null;
        },
      };
    }
    case 'slot-below-batch': {
      if (!a.deltas || !a.batch || a.limit !== 'batch')
        throw new LangFault(span, '`slot-below-batch` needs the deltas and the batch.');
      const batch = p.module.constant(a.batch);
      const deltas = a.deltas.name;
      return {
        id,
        when,
        description: `Every per-CPU delta stays within −batch < delta < batch (batch ${str(batch)})`,
        check: (m, s) => {
          const cell = perCpuNamed(m, deltas);
          const b = Number(batch);
          for (let k = 0; k < m.cpus; k++) {
            const v = elementValue(s, cell, k);
            if (v >= b || v <= -b) return `CPU${k}'s delta is ${str(v)}, not within ±${str(batch)}`;
          }
          return null;
        },
      };
    }
    default: {
      if (!a.sum) throw new LangFault(span, '`retries-bounded` needs the counter’s sum: `sum f;`.');
      const summers = p.threads.filter((t) => p.slots.has(`@sum:${t.name}`));
      const calls = Math.max(1, ...summers.map((t) => p.recordCounts.get(`@sum:${t.name}`) ?? 1));
      const limit = BigInt(p.machine.cpus * calls * Math.max(1, summers.length));
      const retries = readerOf(p, { kind: 'name', name: 'retries', span });
      return {
        id,
        when,
        description: 'Each sum retries at most once per CPU',
        check: (m, s) => {
          const r = retries(m, s) ?? 0n;
          return r <= limit ? null : `the sums retried ${str(r)} times, more than ${str(limit)}`;
        },
      };
    }
  }
}

// ---- fast reads for the invariants judged at every state ----------------------------------------

const initialCache = new WeakMap<Machine, bigint>();

/** The counter's value at the start (the machine's initial memory): the same for every state. */
function initialValue(p: CompiledProgram, m: Machine, s: Int32Array): bigint {
  // Not memo(): its maker would be a closure made at every state.
  let v = initialCache.get(m);
  if (v === undefined) {
    v = counterValue(p, m, s, true);
    initialCache.set(m, v);
  }
  return v;
}
