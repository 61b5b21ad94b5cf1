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
import {
  CPU_CUR,
  CPU_FIELDS,
  CTX_CPU,
  cpuBase,
  ctxBase,
  type Machine,
} from '../machine/machine.ts';

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
   * Renames (s, last CPU) to the canonical member of its class, in place; returns the renaming used.
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
  if (m.tso) return 'store buffers hold addresses that a renaming of the CPUs would have to move';
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
  // What a CPU's programs do, not where they are written: two threads of a typed program run
  // the same code from different lines of its text.
  const meaning = (key: string, v: unknown) =>
    key === 'line' || key === 'col' || key === 'say' || key === 'saySpin' ? undefined : v;
  const shape = (k: number) =>
    JSON.stringify(
      (own[k] as number[]).map((c) => (c < 0 ? null : m.code[c])),
      meaning,
    );
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
  // The group's size before its members: 10 idle CPUs alike are 10! = 3,628,800 renamings,
  // which took seconds and gigabytes to list (before any limit of the search could stop it).
  const sizes = classSizes(cls).filter((n) => n > 1);
  if (sizes.length === 0) return 'no two CPUs run the same programs on the same data';
  const count = sizes.reduce((n, k) => n * factorial(k), 1);
  if (count > MAX_GROUP)
    return `${count <= 1e12 ? String(count) : sizes.map((k) => `${k}!`).join(' × ')} renamings per state are too many: the most is ${MAX_GROUP}`;
  const perms = group(cls);
  const maps = perms.map((p) => wordMap(m, p, own));
  const inverses = perms.map((p) => perms.findIndex((q) => q.every((v, i) => p[v] === i)));
  const sorter = blockSorter(m, cls, own, kinds, perms, maps);
  return {
    perms,
    image: (g, s, out) => {
      apply(maps[g] as Maps, kinds, s, out);
    },
    cpu: (g, k) => (k < 0 ? k : ((perms[g] as Int32Array)[k] as number)),
    inverse: (g) => inverses[g] as number,
    canonical: (s, last, tmp) => sorter(s, last, tmp),
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
  for (let k = 0; k < m.cpus; k++) kinds[cpuBase(m, k) + CPU_CUR] = CONTEXT;
  for (let c = 0; c < m.contexts; c++) kinds[ctxBase(m, c) + CTX_CPU] = CPU;
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
    for (let f = 0; f < CPU_FIELDS; f++) from[cpuBase(m, j) + f] = cpuBase(m, k) + f;
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
    for (let w = 0; w < m.ctxStride; w++) from[ctxBase(m, d) + w] = ctxBase(m, c) + w;
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

/** How many CPUs each class holds (cls[k]: the class's first CPU). */
function classSizes(cls: Int32Array): number[] {
  const sizes = new Map<number, number>();
  for (const c of cls) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  return [...sizes.values()];
}

function factorial(n: number): number {
  let f = 1;
  for (let i = 2; i <= n; i++) f *= i;
  return f;
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

/**
 * Canonical form by sorting: within each class, CPUs are ordered by their own words (their
 * fields, their elements of per-CPU cells, their contexts' records; a running task named by its
 * rank among the CPU's own), which a renaming moves but does not change, so every member of a
 * class of states sorts the same way. Only CPUs whose words tie need their orders tried, so most
 * states take one image instead of one per renaming. Words naming another CPU's context (a
 * lock's holder) are left out of the ordering and decided by trying the tied orders.
 */
function blockSorter(
  m: Machine,
  cls: Int32Array,
  own: readonly (readonly number[])[],
  kinds: Uint8Array,
  perms: readonly Int32Array[],
  maps: readonly Maps[],
): (s: Int32Array, last: number, tmp: Int32Array) => { g: number; last: number } {
  const rank = new Int32Array(m.contexts);
  for (const list of own) list.forEach((c, i) => c >= 0 && (rank[c] = i));
  // Each CPU's words, in the same order for every CPU of a class.
  const blocks: Int32Array[] = [];
  for (let k = 0; k < m.cpus; k++) {
    const words: number[] = [];
    for (let f = 0; f < CPU_FIELDS; f++) words.push(cpuBase(m, k) + f);
    for (const cell of m.layout.cells) {
      if (!cell.perCpu || k >= cell.count) continue;
      for (let w = 0; w < cell.stride; w++) {
        const a = cell.base + k * cell.stride + w;
        if (kinds[a] !== HOLDER) words.push(a);
      }
    }
    for (const c of own[k] as readonly number[]) {
      if (c < 0) continue;
      for (let w = 0; w < m.ctxStride; w++) {
        const a = ctxBase(m, c) + w;
        if (kinds[a] !== CPU) words.push(a);
      }
    }
    blocks.push(Int32Array.from(words));
  }
  const classes: number[][] = [];
  for (let k = 0; k < m.cpus; k++) {
    if (cls[k] !== k) continue;
    const members: number[] = [];
    for (let j = 0; j < m.cpus; j++) if (cls[j] === k) members.push(j);
    if (members.length > 1) classes.push(members);
  }
  // Renamings by a number (p[k] as digits in base cpus): no string per state.
  const keyOf = (q: Int32Array) => {
    let key = 0;
    for (let k = q.length - 1; k >= 0; k--) key = key * m.cpus + (q[k] as number);
    return key;
  };
  const index = new Map<number, number>();
  perms.forEach((q, g) => index.set(keyOf(q), g));
  const value = (s: Int32Array, a: number) => {
    const v = s[a] as number;
    return kinds[a] === CONTEXT && v >= 0 ? (rank[v] as number) : v;
  };
  const compare = (s: Int32Array, a: number, b: number): number => {
    const wa = blocks[a] as Int32Array;
    const wb = blocks[b] as Int32Array;
    for (let i = 0; i < wa.length; i++) {
      const x = value(s, wa[i] as number);
      const y = value(s, wb[i] as number);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
  const p = new Int32Array(m.cpus);
  return (s, last, tmp) => {
    for (let k = 0; k < m.cpus; k++) p[k] = k;
    // Sort each class; collect the runs of CPUs that tie.
    const ties: { slots: number[]; cpus: number[] }[] = [];
    for (const members of classes) {
      const order = members.slice();
      for (let i = 1; i < order.length; i++) {
        const x = order[i] as number;
        let j = i - 1;
        while (j >= 0 && compare(s, order[j] as number, x) > 0) {
          order[j + 1] = order[j] as number;
          j--;
        }
        order[j + 1] = x;
      }
      order.forEach((k, i) => (p[k] = members[i] as number));
      for (let i = 0; i < order.length;) {
        let j = i + 1;
        while (j < order.length && compare(s, order[i] as number, order[j] as number) === 0) j++;
        if (j - i > 1) ties.push({ slots: members.slice(i, j), cpus: order.slice(i, j) });
        i = j;
      }
    }
    if (ties.length === 0) {
      const g = index.get(keyOf(p)) as number;
      if (g !== 0) {
        tmp.set(s);
        apply(maps[g] as Maps, kinds, tmp, s);
      }
      return { g, last: last < 0 ? last : ((perms[g] as Int32Array)[last] as number) };
    }
    // Tied CPUs: every order of each run, and the smallest image wins.
    let candidates: Int32Array[] = [p.slice()];
    for (const t of ties) {
      const next: Int32Array[] = [];
      for (const base of candidates) {
        for (const order of permutations(t.slots)) {
          const q = base.slice();
          t.cpus.forEach((k, i) => (q[k] = order[i] as number));
          next.push(q);
        }
      }
      candidates = next;
    }
    return smallest(
      candidates.map((q) => index.get(keyOf(q)) as number),
      perms,
      maps,
      kinds,
      s,
      last,
      tmp,
    );
  };
}

/** Among renamings `gs`, the one giving the smallest (image, last CPU); s becomes that image. */
function smallest(
  gs: readonly number[],
  perms: readonly Int32Array[],
  maps: readonly Maps[],
  kinds: Uint8Array,
  s: Int32Array,
  last: number,
  tmp: Int32Array,
): { g: number; last: number } {
  tmp.set(s);
  const n = s.length;
  let best = -1;
  let bestLast = 0;
  for (const g of gs) {
    const mg = maps[g] as Maps;
    const from = mg.from;
    const l = last < 0 ? last : ((perms[g] as Int32Array)[last] as number);
    let cmp = -1;
    if (best >= 0) {
      cmp = 0;
      for (let i = 0; i < n; i++) {
        const v0 = tmp[from[i] as number] as number;
        const k = kinds[i] as number;
        const v = k === PLAIN ? v0 : renamed(k, v0, mg);
        const b = s[i] as number;
        if (v !== b) {
          cmp = v < b ? -1 : 1;
          break;
        }
      }
      if (cmp === 0 && l < bestLast) cmp = -1;
    }
    if (cmp < 0) {
      apply(mg, kinds, tmp, s);
      best = g;
      bestLast = l;
    }
  }
  return { g: best, last: bestLast };
}
