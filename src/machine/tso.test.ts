// The classic litmus shapes under x86-TSO, written in the lab's language and explored, with the
// verdicts of Owens, Sarkar and Sewell's x86-TSO (Sewell et al., CACM 53(7), 2010; the Intel SDM's
// examples 8-1 to 8-10): SB allowed, SB with MFENCE on both sides forbidden, on one side allowed,
// MP, LB, WRC, IRIW and 2+2W forbidden, a load reading its own buffered store, R allowed. Each
// outcome set is also checked against a brute-force enumeration of the x86-TSO abstract machine
// written here, which knows nothing of the lab's interpreter.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { programOutcomes } from '../explore/testkit.ts';

type Op =
  | { readonly w: string; readonly v: number }
  | { readonly r: string; readonly into: string }
  | { readonly mfence: true };

interface TsoState {
  readonly pcs: readonly number[];
  readonly mem: Readonly<Record<string, number>>;
  readonly bufs: readonly (readonly { readonly at: string; readonly v: number }[])[];
  readonly regs: Readonly<Record<string, number>>;
}

/** Every final valuation of the x86-TSO abstract machine: FIFO store buffers, any flush order. */
function tsoOutcomes(threads: readonly (readonly Op[])[], observe: readonly string[]): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>();
  const go = (s: TsoState) => {
    const key = JSON.stringify(s);
    if (seen.has(key)) return;
    seen.add(key);
    let moved = false;
    for (const [t, ops] of threads.entries()) {
      const buf = s.bufs[t] ?? [];
      // The memory system writes thread t's oldest store.
      const first = buf[0];
      if (first) {
        moved = true;
        const bufs = s.bufs.map((b, i) => (i === t ? b.slice(1) : b));
        go({ ...s, mem: { ...s.mem, [first.at]: first.v }, bufs });
      }
      const op = ops[s.pcs[t] as number];
      if (!op) continue;
      const pcs = s.pcs.map((p, i) => (i === t ? p + 1 : p));
      if ('w' in op) {
        moved = true;
        const bufs = s.bufs.map((b, i) => (i === t ? [...b, { at: op.w, v: op.v }] : b));
        go({ ...s, pcs, bufs });
      } else if ('r' in op) {
        moved = true;
        const own = [...buf].reverse().find((e) => e.at === op.r);
        const v = own ? own.v : (s.mem[op.r] ?? 0);
        go({ ...s, pcs, regs: { ...s.regs, [`${t}:${op.into}`]: v } });
      } else if (buf.length === 0) {
        // MFENCE: waits until the buffer is empty.
        moved = true;
        go({ ...s, pcs });
      }
    }
    if (!moved)
      out.add(
        observe
          .map((k) => `${k}=${k.includes(':') ? (s.regs[k] ?? 0) : (s.mem[k] ?? 0)}`)
          .join(' '),
      );
  };
  go({ pcs: threads.map(() => 0), mem: {}, bufs: threads.map(() => []), regs: {} });
  return out;
}

/** The lab's outcomes of a program under a memory model, over the same names. */
const labOutcomes = (source: string, observe: readonly string[], memory: string) =>
  programOutcomes(source, observe, { memory });

interface Shape {
  readonly name: string;
  readonly threads: readonly (readonly Op[])[];
  readonly observe: readonly string[];
  /** The valuation the test asks about, and x86-TSO's answer. */
  readonly exists: string;
  readonly allowed: boolean;
}

const ALLOWED = true;
const FORBIDDEN = false;

/**
 * A shape from its threads written `x=1` (store 1 to x), `r0=y` (load y into r0) and `mfence`,
 * threads apart by `|`; it observes the locations its `exists` names.
 */
function shape(name: string, threads: string, exists: string, allowed: boolean): Shape {
  const op = (t: string): Op => {
    if (t === 'mfence') return { mfence: true };
    const [a = '', b = ''] = t.split('=');
    return /^\d+$/.test(b) ? { w: a, v: Number(b) } : { r: b, into: a };
  };
  return {
    name,
    threads: threads.split('|').map((th) => th.trim().split(' ').map(op)),
    exists,
    allowed,
    observe: exists.split(' ').map((v) => v.split('=')[0] as string),
  };
}

const SHAPES: readonly Shape[] = [
  shape('SB', 'x=1 r0=y | y=1 r0=x', '0:r0=0 1:r0=0', ALLOWED),
  shape('SB+mfences', 'x=1 mfence r0=y | y=1 mfence r0=x', '0:r0=0 1:r0=0', FORBIDDEN),
  shape('SB+mfence+po', 'x=1 mfence r0=y | y=1 r0=x', '0:r0=0 1:r0=0', ALLOWED),
  shape('MP', 'x=1 y=1 | r0=y r1=x', '1:r0=1 1:r1=0', FORBIDDEN),
  shape('LB', 'r0=x y=1 | r0=y x=1', '0:r0=1 1:r0=1', FORBIDDEN),
  // Intel SDM example 8-5: a CPU reads its own store before the others can.
  shape('SB+forwarding', 'x=1 r0=x r1=y | y=1 r0=y r1=x', '0:r0=1 0:r1=0 1:r0=1 1:r1=0', ALLOWED),
  shape('WRC', 'x=1 | r0=x y=1 | r0=y r1=x', '1:r0=1 2:r0=1 2:r1=0', FORBIDDEN),
  shape('IRIW', 'x=1 | r0=x r1=y | y=1 | r0=y r1=x', '1:r0=1 1:r1=0 3:r0=1 3:r1=0', FORBIDDEN),
  shape('2+2W', 'x=1 y=2 | y=1 x=2', 'x=1 y=1', FORBIDDEN),
  shape('R', 'x=1 y=1 | y=2 r0=x', 'y=2 1:r0=0', ALLOWED),
];

/** The shape as a herd7 litmus program in the lab's language. */
function litmus(shape: Shape): string {
  const vars = [
    ...new Set(
      shape.threads.flat().flatMap((op) => ('w' in op ? [op.w] : 'r' in op ? [op.r] : [])),
    ),
  ].sort();
  const params = vars.map((v) => `int *${v}`).join(', ');
  const body = (ops: readonly Op[]) => {
    const regs = [...new Set(ops.flatMap((op) => ('into' in op ? [op.into] : [])))];
    const lines = regs.map((x) => `\tint ${x};`);
    for (const op of ops) {
      if ('w' in op) lines.push(`\tWRITE_ONCE(*${op.w}, ${op.v});`);
      else if ('r' in op) lines.push(`\t${op.into} = READ_ONCE(*${op.r});`);
      else lines.push('\tsmp_mb();');
    }
    return lines.join('\n');
  };
  const threads = shape.threads.map((ops, t) => `P${t}(${params})\n{\n${body(ops)}\n}`);
  const cond = shape.exists.split(' ').join(' /\\ ');
  const locations = `locations [${shape.observe.map((v) => `${v};`).join(' ')}]`;
  return `C ${shape.name}\n{}\n${threads.join('\n\n')}\n\n${locations}\nexists (${cond})\n`;
}

describe('the classic shapes under x86-TSO', () => {
  it.each(SHAPES)('$name: the lab answers as x86-TSO does', (shape) => {
    const src = litmus(shape);
    const tso = labOutcomes(src, shape.observe, 'tso');
    expect(tso).toEqual(tsoOutcomes(shape.threads, shape.observe));
    expect(tso.has(shape.exists)).toBe(shape.allowed);
  });

  it.each(SHAPES)('$name: every sequentially consistent outcome is a TSO outcome', (shape) => {
    const src = litmus(shape);
    const sc = labOutcomes(src, shape.observe, 'sc');
    const tso = labOutcomes(src, shape.observe, 'tso');
    for (const o of sc) expect(tso.has(o), o).toBe(true);
    // Every condition asks for something no interleaving of whole accesses gives.
    expect(sc.has(shape.exists)).toBe(false);
  });
});

/** A random little program: 2 or 3 threads of 1 to 3 stores, loads and fences on x and y. */
const programs = fc
  .array(
    fc.array(
      fc.oneof(
        fc.record({ w: fc.constantFrom('x', 'y'), v: fc.constantFrom(1, 2) }),
        fc.record({ r: fc.constantFrom('x', 'y') }),
        fc.constant({ mfence: true as const }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    { minLength: 2, maxLength: 3 },
  )
  .map((threads) =>
    threads.map((ops) => ops.map((op, i): Op => ('r' in op ? { r: op.r, into: `r${i}` } : op))),
  )
  // A program must touch memory somewhere to be a litmus test.
  .filter((threads) => threads.some((ops) => ops.some((op) => !('mfence' in op))));

describe('any program under x86-TSO', () => {
  it('has the outcomes of the x86-TSO abstract machine, and every sequentially consistent one', () => {
    fc.assert(
      fc.property(programs, (threads) => {
        const observe = [
          ...threads.flatMap((ops, t) =>
            ops.flatMap((op) => ('into' in op ? [`${t}:${op.into}`] : [])),
          ),
          // The variables the program uses (herd7 declares no others).
          ...['x', 'y'].filter((v) =>
            threads.some((ops) =>
              ops.some((op) => ('w' in op ? op.w : 'r' in op ? op.r : '') === v),
            ),
          ),
        ];
        const src = litmus({
          name: 'random',
          threads,
          observe,
          exists: `${observe[0]}=0`,
          allowed: true,
        });
        const tso = labOutcomes(src, observe, 'tso');
        expect(tso).toEqual(tsoOutcomes(threads, observe));
        for (const o of labOutcomes(src, observe, 'sc')) expect(tso.has(o), o).toBe(true);
      }),
      { numRuns: 60, seed: 20_100 },
    );
  });
});
