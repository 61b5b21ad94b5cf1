// The counter tree (percpu-tree) at one step, as its chart tells it: the per-CPU words, the items
// of each level above them, the root (the approximate sum), what the step shown changed (a
// per-CPU add, or a carry arriving at an item), and the approximate sum against the precise one
// with the accuracy range around it. Found from the program's own names (`deltas t.level0;` and
// the struct's items `t.l1_0`…, `t.approx`), so a copy of the entry draws it too. Pure.

import type { Cell } from '../machine/layout.ts';
import { cellValue, elementAddr, globalCell, perCpuCell } from '../machine/read.ts';
import { itemField, treeShape, type TreeShape } from '../scenarios/treeShape.ts';
import { executedAt, type Run } from '../machine/executed.ts';
import { counterOf } from './history.ts';

export interface TreeNode {
  /** 0 for a per-CPU word; the root is the last level. */
  readonly level: number;
  readonly index: number;
  /** "CPU0" for a word, "l1_0" for an item, "root". */
  readonly name: string;
  readonly value: number;
  /** What the step shown added to it, or 0. */
  readonly changed: number;
}

export interface TreeView {
  readonly shape: TreeShape;
  /** Level 0 (the words) first, the root last. */
  readonly levels: readonly (readonly TreeNode[])[];
  /** Σ words + bias: the exact value at every step (each add counts at its per-CPU add). */
  readonly precise: number;
  /** root + bias. */
  readonly approx: number;
  readonly inRange: boolean;
  /**
   * What carries in flight owe the root: precise − approximate − what the settled nodes keep
   * below their levels' multiples. 0 when every carry has landed.
   */
  readonly inFlight: number;
  /** The step shown carried `amount` from a node of the level below into this one, or null. */
  readonly carry: {
    readonly level: number;
    readonly index: number;
    /** The node it came from: a word (level 0) or an item, on the carrying context's path. */
    readonly fromLevel: number;
    readonly from: number;
    readonly amount: number;
  } | null;
  /** The CPU whose context made the step shown (−1: none). */
  readonly cpu: number;
}

const num = (v: number | bigint): number => Number(v);

/** The tree of the run's machine at its cursor, or null when the program is not a counter tree. */
export function treeOf(run: Run): TreeView | null {
  const { m } = run;
  const a = counterOf(m);
  if (!a?.deltas || a.batch === null || !/^\w+\.level0$/.test(a.deltas)) return null;
  const prefix = a.deltas.slice(0, -'.level0'.length);
  const words = perCpuCell(m, a.deltas);
  if (!words) return null;
  const shape = treeShape(m.cpus, a.batch);
  const items: Cell[][] = [];
  for (const l of shape.levels) {
    const row: Cell[] = [];
    for (let j = 0; j < l.items; j++) {
      const c = globalCell(m, `${prefix}.${itemField(shape, l.level, j)}`);
      if (!c) return null;
      row.push(c);
    }
    items.push(row);
  }
  const bias = globalCell(m, `${prefix}.bias`);
  const s = run.states[run.cursor] as Int32Array;
  const before = run.cursor > 0 ? (run.states[run.cursor - 1] as Int32Array) : s;
  const x = run.cursor > 0 ? executedAt(run, run.cursor - 1) : null;
  const wordNodes: TreeNode[] = Array.from({ length: m.cpus }, (_, k) => {
    const addr = elementAddr(words, k);
    const v = num(wordValue(s, addr, words.type));
    return {
      level: 0,
      index: k,
      name: `CPU${String(k)}`,
      value: v,
      changed: v - num(wordValue(before, addr, words.type)),
    };
  });
  const itemNodes = items.map((row, li) =>
    row.map((c, j): TreeNode => {
      const v = num(cellValue(s, c));
      const root = li === items.length - 1;
      return {
        level: li + 1,
        index: j,
        name: root ? 'root' : itemField(shape, li + 1, j),
        value: v,
        changed: v - num(cellValue(before, c)),
      };
    }),
  );
  const levels = [wordNodes, ...itemNodes];
  const b = bias ? num(cellValue(s, bias)) : 0;
  const precise = wordNodes.reduce((t, n) => t + n.value, 0) + b;
  // One CPU: its word is the approximate sum (the kernel's approx_sum.i).
  const rootValue =
    itemNodes.length > 0 ? (itemNodes.at(-1)?.[0]?.value ?? 0) : wordNodes[0]?.value;
  const approx = (rootValue ?? 0) + b;
  let carry: TreeView['carry'] = null;
  const cpu = x ? x.cpu : -1;
  // Where the carry came from: the node this context last wrote before this step (its word, or
  // an item on its path). v17 may skip a level, so that is not always the level just below.
  const addrOf = (level: number, index: number): number | undefined =>
    level === 0 ? elementAddr(words, index) : items[level - 1]?.[index]?.addr;
  const nodeAt = (addr: number): { level: number; index: number } | null => {
    for (let k = 0; k < m.cpus; k++)
      if (elementAddr(words, k) === addr) return { level: 0, index: k };
    for (let l = 0; l < items.length; l++) {
      const j = (items[l] ?? []).findIndex((c) => c.addr === addr);
      if (j >= 0) return { level: l + 1, index: j };
    }
    return null;
  };
  for (const row of itemNodes)
    for (const n of row)
      if (n.changed !== 0 && x && x.addr === addrOf(n.level, n.index)) {
        let from: { level: number; index: number } | null = null;
        for (let i = run.cursor - 2; i >= 0 && !from; i--) {
          const e = executedAt(run, i);
          if (e && e.ctx === x.ctx) from = nodeAt(e.addr);
        }
        if (from && from.level < n.level)
          carry = {
            level: n.level,
            index: n.index,
            fromLevel: from.level,
            from: from.index,
            amount: n.changed,
          };
      }
  // What each node keeps below the multiple its carries leave at (floor semantics: 0 … mask − 1).
  const keep = (v: number, mask: number) => (mask > 0 ? ((v % mask) + mask) % mask : 0);
  const kept =
    wordNodes.reduce((t, n) => t + keep(n.value, shape.batch), 0) +
    itemNodes
      .slice(0, -1)
      .reduce(
        (t, row, li) =>
          t + row.reduce((u, n) => u + keep(n.value, shape.levels[li]?.bitMask ?? 0), 0),
        0,
      );
  return {
    shape,
    levels,
    precise,
    approx,
    inFlight: itemNodes.length > 0 ? precise - b - (approx - b) - kept : 0,
    inRange: approx >= precise - shape.under && approx <= precise + shape.over,
    carry,
    cpu,
  };
}

function wordValue(s: Int32Array, addr: number, type: Cell['type']): number | bigint {
  return cellValue(s, { perCpu: false, name: '', label: '', type, addr });
}

/** The chart in words, for its caption and screen readers. */
export function treeText(v: TreeView): string {
  const d = v.precise - v.approx;
  const where =
    d === 0 ? 'equal to it' : d > 0 ? `${String(d)} below it` : `${String(-d)} above it`;
  const range = `the range is precise − ${String(v.shape.under)} to precise + ${String(v.shape.over)}`;
  const c = v.carry;
  const fromName = c
    ? c.fromLevel === 0
      ? `${v.levels[0]?.[c.from]?.name ?? 'a CPU'}'s word`
      : (v.levels[c.fromLevel]?.[c.from]?.name ?? 'an item')
    : '';
  const carry = c
    ? ` The step carried ${String(c.amount)} up to ${v.levels[c.level]?.[c.index]?.name ?? 'an item'} (level ${String(c.level)}) from ${fromName}.`
    : '';
  const words = v.levels[0]?.map((n) => `${n.name} ${String(n.value)}`).join(', ') ?? '';
  const flight =
    v.inFlight !== 0
      ? ` Carries in flight (added to a word, not yet at the root): ${String(v.inFlight)}.`
      : '';
  return `Precise sum ${String(v.precise)}; approximate sum (the root) ${String(v.approx)}, ${where}: ${v.inRange ? 'inside' : 'outside'} the range (${range}).${flight}${carry} Per-CPU words: ${words}.`;
}

/**
 * Where a level's nodes go from left to right: the bit-reversed order of their indices, so the
 * items a CPU's path goes through (item[cpu & (n − 1)]) sit over the CPUs they gather and no
 * edge crosses another.
 */
export function levelOrder(count: number): number[] {
  let bits = 0;
  while (1 << bits < count) bits++;
  const rev = (i: number) => {
    let r = 0;
    for (let b = 0; b < bits; b++) if (i & (1 << b)) r |= 1 << (bits - 1 - b);
    return r;
  };
  return Array.from({ length: count }, (_, i) => i).sort((a, b) => rev(a) - rev(b));
}
