// Symmetry reduction (`--symmetry`): CPUs that run identical programs on identical data are
// interchangeable, so the explorer keeps one state of each class of states that differ only by
// a renaming of such CPUs (the smallest, word by word), and finds every outcome of the others by
// renaming back.
//
// A renaming g of CPUs moves, for each CPU k to g(k): its fields, its element of every per-CPU
// cell, and the records of its contexts (task i of k to task i of g(k), its handlers to g(k)'s).
// Words that name a CPU or a context change value too: a context's CPU, a CPU's running task, a
// lock's holder. The machine's rules treat CPUs alike, so a renamed run is a run: the reduction
// is sound when nothing else tells CPUs apart, which `findSymmetry` checks:
// - no program reads its CPU number or forms an address from a register (smp_processor_id(),
//   this_cpu_ptr(), per_cpu_ptr(p, i)): those values would need renaming and cannot be found;
// - no migrations: with tasks moving, the order in which a CPU picks its next task (by task
//   number) is not preserved by a renaming;
// - the initial state is the same after every renaming in the group.
// A sum that walks the CPUs in order (for_each_online_cpu) uses per_cpu_ptr(p, i): no symmetry.

import { Op, Mode } from '../machine/isa.ts';
import { CPU_CUR, CPU_FIELDS, CTX_CPU, type Machine } from '../machine/machine.ts';

/** How a word's value changes under a renaming. */
const PLAIN = 0;
const CPU = 1;
const CONTEXT = 2; // −1 for none
const HOLDER = 3; // 0 for free, else context + 1

export interface Symmetry {
  /** The renamings (the identity first), as CPU maps. */
  readonly perms: readonly Int32Array[];
  /** Writes g(s) into out. */
  image(g: number, s: Int32Array, out: Int32Array): void;
  /** g applied to a CPU number (−1 stays −1). */
  cpu(g: number, k: number): number;
  /** The renaming that undoes g. */
  inverse(g: number): number;
  /**
   * Renames (s, last CPU) to the smallest of its class, in place; returns the renaming used.
   * `tmp` is scratch of the state's size.
   */
  canonical(s: Int32Array, last: number, tmp: Int32Array): { g: number; last: number };
}

/** The most renamings tried per state (5 interchangeable CPUs: 120). */
const MAX_GROUP = 720;

/** The symmetry of machine m, or why it has none worth using. */
export function findSymmetry(
  m: Machine,
  migrations: number,
  initial: Int32Array,
): Symmetry | string {
  if (migrations > 0)
    return 'tasks may migrate (the next task a CPU picks depends on task numbers)';
  for (const code of m.code) {
    for (const ins of code) {
      if (ins.op === Op.CpuId || ins.op === Op.AddrGen)
        return 'a program reads its CPU number (smp_processor_id() or this_cpu_ptr())';
      if (ins.op < Op.FirstLocal && (ins.mode === Mode.Reg || ins.mode === Mode.Indexed))
        return 'a program addresses memory through a register (per_cpu_ptr(), a walk over the CPUs)';
    }
  }
  // The contexts of each CPU: its tasks in order, then its IRQ and NMI handlers.
  const own: number[][] = [];
  for (let k = 0; k < m.cpus; k++) {
    const tasks: number[] = [];
    for (let t = 0; t < m.tasks; t++) if (m.ctxHome[t] === k) tasks.push(t);
    own.push([...tasks, m.irqCtx[k] as number, m.nmiCtx[k] as number]);
  }
  const shape = (k: number) =>
    JSON.stringify((own[k] as number[]).map((c) => (c < 0 ? null : m.code[c])));
  const kinds = wordKinds(m);
  const swaps = (k: number, j: number): Int32Array => {
    const p = Int32Array.from({ length: m.cpus }, (_, i) => i);
    p[k] = j;
    p[j] = k;
    return p;
  };
  // Classes of interchangeable CPUs: same programs, and swapping them leaves the start alone.
  const cls = new Int32Array(m.cpus).fill(-1);
  for (let k = 0; k < m.cpus; k++) {
    if (cls[k] !== -1) continue;
    cls[k] = k;
    for (let j = k + 1; j < m.cpus; j++) {
      if (cls[j] !== -1 || shape(j) !== shape(k)) continue;
      const maps = wordMap(m, swaps(k, j), own);
      const out = new Int32Array(m.size);
      apply(maps, kinds, initial, out);
      if (out.every((v, i) => v === initial[i])) cls[j] = k;
    }
  }
  const perms = group(cls);
  if (perms.length === 1) return 'no two CPUs run the same programs on the same data';
  if (perms.length > MAX_GROUP) return `${perms.length} renamings per state are too many`;
  const maps = perms.map((p) => wordMap(m, p, own));
  const inverses = perms.map((p) => perms.findIndex((q) => q.every((v, i) => p[v] === i)));
  return {
    perms,
    image: (g, s, out) => {
      apply(maps[g] as Maps, kinds, s, out);
    },
    cpu: (g, k) => (k < 0 ? k : ((perms[g] as Int32Array)[k] as number)),
    inverse: (g) => inverses[g] as number,
    canonical: (s, last, tmp) => canonical(perms, maps, kinds, s, last, tmp),
  };
}

interface Maps {
  /** Word i of the image is word from[i] of the state, renamed as kinds[i] says. */
  readonly from: Int32Array;
  readonly cpu: Int32Array;
  readonly ctx: Int32Array;
}

function wordKinds(m: Machine): Uint8Array {
  const kinds = new Uint8Array(m.size);
  for (let k = 0; k < m.cpus; k++) kinds[m.cpuOff + k * CPU_FIELDS + CPU_CUR] = CONTEXT;
  for (let c = 0; c < m.contexts; c++) kinds[m.ctxOff + c * m.ctxStride + CTX_CPU] = CPU;
  for (const cell of m.layout.cells) {
    if (cell.type !== 'lock') continue;
    if (cell.perCpu)
      for (let i = 0; i < cell.count; i++) kinds[cell.base + i * cell.stride] = HOLDER;
    else kinds[cell.addr] = HOLDER;
  }
  return kinds;
}

function wordMap(m: Machine, p: Int32Array, own: readonly (readonly number[])[]): Maps {
  const from = Int32Array.from({ length: m.size }, (_, i) => i);
  const ctx = Int32Array.from({ length: m.contexts }, (_, i) => i);
  for (let k = 0; k < m.cpus; k++) {
    const j = p[k] as number;
    for (let f = 0; f < CPU_FIELDS; f++)
      from[m.cpuOff + j * CPU_FIELDS + f] = m.cpuOff + k * CPU_FIELDS + f;
    for (const cell of m.layout.cells) {
      if (!cell.perCpu || k >= cell.count) continue;
      for (let w = 0; w < cell.stride; w++)
        from[cell.base + j * cell.stride + w] = cell.base + k * cell.stride + w;
    }
    const mine = own[k] as readonly number[];
    const theirs = own[j] as readonly number[];
    mine.forEach((c, i) => {
      if (c >= 0) ctx[c] = theirs[i] as number;
    });
  }
  for (let c = 0; c < m.contexts; c++) {
    const d = ctx[c] as number;
    for (let w = 0; w < m.ctxStride; w++)
      from[m.ctxOff + d * m.ctxStride + w] = m.ctxOff + c * m.ctxStride + w;
  }
  return { from, cpu: p, ctx };
}

function renamed(kind: number, v: number, maps: Maps): number {
  switch (kind) {
    case CPU:
      return maps.cpu[v] as number;
    case CONTEXT:
      return v < 0 ? v : (maps.ctx[v] as number);
    case HOLDER:
      return v === 0 ? 0 : (maps.ctx[v - 1] as number) + 1;
    default:
      return v;
  }
}

function apply(maps: Maps, kinds: Uint8Array, s: Int32Array, out: Int32Array): void {
  const { from } = maps;
  for (let i = 0; i < s.length; i++) {
    const v = s[from[i] as number] as number;
    const kind = kinds[i] as number;
    out[i] = kind === PLAIN ? v : renamed(kind, v, maps);
  }
}

function canonical(
  perms: readonly Int32Array[],
  maps: readonly Maps[],
  kinds: Uint8Array,
  s: Int32Array,
  last: number,
  tmp: Int32Array,
): { g: number; last: number } {
  // The best so far is s itself (the identity); a renaming wins at its first smaller word.
  let best = 0;
  let bestLast = last;
  const n = s.length;
  let source: Int32Array | null = null;
  for (let g = 1; g < perms.length; g++) {
    const mg = maps[g] as Maps;
    const from = mg.from;
    const src = source ?? s;
    let cmp = 0;
    let i = 0;
    for (; i < n; i++) {
      const v0 = src[from[i] as number] as number;
      const k = kinds[i] as number;
      const v = k === PLAIN ? v0 : renamed(k, v0, mg);
      const b = s[i] as number;
      if (v !== b) {
        cmp = v < b ? -1 : 1;
        break;
      }
    }
    if (cmp === 0) {
      const l = last < 0 ? last : (mg.cpu[last] as number);
      const b = bestLast;
      if (l < b) cmp = -1;
    }
    if (cmp < 0) {
      if (source === null) {
        tmp.set(s);
        source = tmp;
      }
      // s becomes g(original); the original stays in tmp.
      for (let j = 0; j < n; j++) {
        const v0 = source[from[j] as number] as number;
        const k = kinds[j] as number;
        s[j] = k === PLAIN ? v0 : renamed(k, v0, mg);
      }
      best = g;
      bestLast = last < 0 ? last : (mg.cpu[last] as number);
    }
  }
  return { g: best, last: bestLast };
}

/** Every permutation that maps each CPU within its class (cls[k]: the class's first CPU). */
function group(cls: Int32Array): Int32Array[] {
  const n = cls.length;
  let out: Int32Array[] = [Int32Array.from({ length: n }, (_, i) => i)];
  const classes = new Map<number, number[]>();
  cls.forEach((c, k) => classes.set(c, [...(classes.get(c) ?? []), k]));
  for (const members of classes.values()) {
    if (members.length < 2) continue;
    const next: Int32Array[] = [];
    for (const base of out) {
      for (const order of permutations(members)) {
        const p = base.slice();
        members.forEach((k, i) => (p[k] = order[i] as number));
        next.push(p);
        if (next.length > MAX_GROUP) return next;
      }
    }
    out = next;
  }
  return out;
}

function permutations(xs: readonly number[]): number[][] {
  if (xs.length <= 1) return [xs.slice()];
  const out: number[][] = [];
  xs.forEach((x, i) => {
    for (const rest of permutations([...xs.slice(0, i), ...xs.slice(i + 1)]))
      out.push([x, ...rest]);
  });
  return out;
}
