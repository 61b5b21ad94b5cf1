// The shape of Mathieu Desnoyers' hierarchical per-CPU counter (lib/percpu_counter_tree.c, RFC
// v7–v17, 2025–2026) for a number of CPUs: the levels of items above the per-CPU words, which
// item a CPU's carry goes through, and the accuracy range the code computes. The entry's text
// (catalogue/percpu-tree.ts), its start state and the tree chart read this one description.
// Pure.

/** n-arity order per level, by the order of nr_cpu_ids (the kernel's per_nr_cpu_order_config). */
const ARITY_ORDERS: readonly (readonly number[])[] = [
  [],
  [1],
  [1, 1],
  [1, 1, 1],
  [2, 1, 1],
  [2, 2, 1],
  [2, 2, 2],
];

export interface TreeLevel {
  /** 1 for the first level above the per-CPU words; the root is the last. */
  readonly level: number;
  /** Items at this level; the root has one. */
  readonly items: number;
  /**
   * The bit a carry out of this level crosses (level 0: batch; each level up shifts it by the
   * arity order below): a carry leaves the level when the item's value crosses a multiple of it.
   * The root keeps everything (0).
   */
  readonly bitMask: number;
}

export interface TreeShape {
  readonly cpus: number;
  readonly batch: number;
  /** get_count_order(nr_cpu_ids): 0 for one CPU, whose per-CPU word is the approximate sum. */
  readonly order: number;
  /** Levels 1..N (the last is the root, which holds the approximate sum); none for one CPU. */
  readonly levels: readonly TreeLevel[];
  /** The accuracy multiplier M: Σ over levels below the root of (level batch ÷ batch) × items. */
  readonly multiplier: number;
  /** approx_accuracy_range: precise − under ≤ approximate ≤ precise + over, at rest. */
  readonly under: number;
  readonly over: number;
}

/** ⌈log2 n⌉ (the kernel's get_count_order). */
export function countOrder(n: number): number {
  let o = 0;
  while (1 << o < n) o++;
  return o;
}

/** Whether n is a power of two of at least 2 (the RFC's requirement on batch_size). */
export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n >= 2 && (n & (n - 1)) === 0;
}

/** The tree for `cpus` CPUs (1–64) and a batch size (a power of 2). */
export function treeShape(cpus: number, batch: number): TreeShape {
  const order = countOrder(cpus);
  const arity = ARITY_ORDERS[order];
  if (!arity) throw new Error(`the tree is described up to 64 CPUs, not ${String(cpus)}`);
  const levels: TreeLevel[] = [];
  let items = 1 << order;
  let bitMask = batch;
  let unit = 1;
  let multiplier = 0;
  // Level 0 (the per-CPU words) and each intermediate level add (their batch ÷ batch) × items.
  for (const a of arity) {
    multiplier += unit * items;
    unit <<= a;
    items >>= a;
    bitMask <<= a;
    levels.push({ level: levels.length + 1, items, bitMask });
  }
  // The last level is the root: one item, no carry out of it.
  if (levels.length > 0) {
    const root = levels[levels.length - 1] as TreeLevel;
    levels[levels.length - 1] = { ...root, bitMask: 0 };
  }
  return {
    cpus,
    batch,
    order,
    levels,
    multiplier,
    under: batch * multiplier,
    over: (batch - 1) * multiplier,
  };
}

/** The name of item `j` of `level` in the entry's struct ("l1_0"; the root is "approx"). */
export function itemField(shape: TreeShape, level: number, j: number): string {
  return level === shape.levels.length ? 'approx' : `l${String(level)}_${String(j)}`;
}

/**
 * percpu_counter_tree_carry(): what an add of `inc` that took a word from `orig` to `res` carries
 * to the next level, `bitMask` being the bit it crosses (the kernel's two's-complement
 * arithmetic, in BigInt so large values stay exact).
 */
export function treeCarry(orig: bigint, res: bigint, inc: bigint, bitMask: bigint): bigint {
  let c: bigint;
  if (inc < 0n) {
    c = -(-inc & ~(bitMask - 1n));
    if ((c ^ orig ^ res) & bitMask) c -= bitMask;
  } else {
    c = inc & ~(bitMask - 1n);
    if ((c ^ orig ^ res) & bitMask) c += bitMask;
  }
  return c;
}

/** The index of the item CPU `cpu` goes through at a level of `items` items. */
export function itemOf(cpu: number, items: number): number {
  return cpu & (items - 1);
}

/**
 * A settled tree: every CPU's per-CPU word holds `start[k]`, reached by one add per CPU in CPU
 * order, each carried to the root before the next (so no carry is in flight). Returns the items'
 * values level by level (the root last).
 */
export function settledItems(shape: TreeShape, start: readonly number[]): bigint[][] {
  const items = shape.levels.map((l) => Array.from({ length: l.items }, () => 0n));
  const last = shape.levels.length;
  start.forEach((v, cpu) => {
    let inc = treeCarry(0n, BigInt(v), BigInt(v), BigInt(shape.batch));
    for (const l of shape.levels) {
      if (inc === 0n) return;
      const row = items[l.level - 1] as bigint[];
      const j = itemOf(cpu, l.items);
      const orig = row[j] as bigint;
      row[j] = orig + inc;
      if (l.level === last) return;
      inc = treeCarry(orig, orig + inc, inc, BigInt(l.bitMask));
    }
  });
  return items;
}
