import { describe, expect, it } from 'vitest';
import { findScenario, scenarioNamed } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Box } from './geometry.ts';
import { labelBox } from './testFonts.ts';
import { scheduleRun, witnessRun } from './testRun.ts';
import { inside, overlaps } from './textWidth.ts';
import { levelOrder, treeOf, treeText, type TreeView } from './tree.ts';
import { treeLayout } from './treeLayout.ts';

// The sizes the stage gives a chart (MemoryView's fit(): a phone's 366 × 240 to about 490 × 610).
const SIZES = [360, 420, 480, 490].flatMap((width) =>
  [240, 320, 420, 610].map((height) => ({ width, height })),
);

/** Every step of every witness of percpu-tree, and an 8-CPU tree. */
function views(): { at: string; view: TreeView }[] {
  const out: { at: string; view: TreeView }[] = [];
  for (const w of findScenario('percpu-tree')?.witnesses ?? []) {
    const run = witnessRun('percpu-tree', w.name);
    for (let at = 0; at <= run.events.length; at++) {
      const view = treeOf({ ...run, cursor: at });
      if (view) out.push({ at: `${w.name} @${String(at)}`, view });
    }
  }
  const sc = scenarioNamed('percpu-tree');
  const eight = scheduleRun(
    sc,
    resolveParams(sc, { cpus: 8, start: [7, 7, 7, 7, 3, 3, 3, 3], amounts: [1], adds: [1] }),
    '0*5',
  );
  for (let at = 0; at <= eight.events.length; at++) {
    const view = treeOf({ ...eight, cursor: at });
    if (view) out.push({ at: `8 CPUs @${String(at)}`, view });
  }
  return out;
}

describe('the counter tree', () => {
  it('reads the tree from the program: words, items, the root, what a step carried', () => {
    const run = witnessRun('percpu-tree', 'carry-ripple');
    const start = treeOf({ ...run, cursor: 0 });
    expect(start?.levels.map((l) => l.map((n) => n.value))).toEqual([[7, 3, 3, 3], [4, 0], [0]]);
    expect(start?.precise).toBe(16);
    expect(start?.approx).toBe(0);
    const end = treeOf(run);
    expect(end?.levels.map((l) => l.map((n) => n.value))).toEqual([[8, 3, 3, 3], [8, 0], [8]]);
    // The last step carried 8 from CPU0's level-1 item into the root.
    expect(end?.carry).toEqual({ level: 2, index: 0, fromLevel: 1, from: 0, amount: 8 });
    expect(end?.inRange).toBe(true);
  });

  it('says when the approximate sum leaves the range, and that it comes back', () => {
    const run = witnessRun('percpu-tree', 'two-in-flight');
    const out = treeOf({ ...run, cursor: 4 });
    expect(out?.precise).toBe(36);
    expect(out?.approx).toBe(0);
    expect(out?.inRange).toBe(false);
    // 36 − 0, less what the nodes keep settled (3 + 3 + 3 + 3 in the words, 4 + 4 at level 1).
    expect(out?.inFlight).toBe(16);
    expect(treeOf(run)?.inFlight).toBe(0);
    expect(treeText(out as TreeView)).toContain('outside the range');
    expect(treeOf(run)?.inRange).toBe(true);
    // v17: a carry of 8 has no bit level 1 keeps, so it skips it: the root's 8 came from the word.
    expect(treeOf({ ...run, cursor: 6 })?.carry).toEqual({
      level: 2,
      index: 0,
      fromLevel: 0,
      from: 0,
      amount: 8,
    });
  });

  it('draws no tree for a counter that is not one', () => {
    expect(treeOf(witnessRun('percpu-classic', 'read-error-124'))).toBeNull();
  });

  it('orders each level so that no path crosses another', () => {
    expect(levelOrder(4)).toEqual([0, 2, 1, 3]);
    expect(levelOrder(8)).toEqual([0, 4, 2, 6, 1, 5, 3, 7]);
  });

  it.each(SIZES)('lays every step out in $width × $height, nodes apart and in the box', (size) => {
    const frame: Box = { x: 0, y: 0, width: size.width, height: size.height };
    for (const { at, view } of views()) {
      const l = treeLayout(view, size);
      for (const n of l.nodes) expect(inside(n.box, frame), `${at}: node in the box`).toBe(true);
      // Nodes of a row do not overlap, and each item sits over the nodes it gathers.
      for (const a of l.nodes)
        for (const b of l.nodes)
          if (a !== b) expect(overlaps(a.box, b.box), `${at}: nodes apart`).toBe(false);
      for (const e of l.edges)
        expect(e.to.box.y, `${at}: parents above`).toBeLessThan(e.from.box.y);
      // Edges never cross: within a level, children's order is their parents' order.
      for (const e of l.edges)
        for (const f of l.edges)
          if (e.from.level === f.from.level && e.from.cx < f.from.cx)
            expect(e.to.cx <= f.to.cx, `${at}: edges uncrossed`).toBe(true);
      // The range contains the precise sum; the approximate mark is inside it exactly when in range.
      const b = l.band;
      expect(b.lo).toBeLessThanOrEqual(b.precise);
      expect(b.precise).toBeLessThanOrEqual(b.hi);
      expect(b.approx >= b.lo - 1e-9 && b.approx <= b.hi + 1e-9).toBe(view.inRange);
      // The labels stay in the box and apart.
      const approx = labelBox('.tree-chart .approx-label', {
        text: `approximate ${String(view.approx)}: ${view.inRange ? 'inside' : 'OUTSIDE'}`,
        x: b.approx,
        y: b.approxLabelY,
        anchor: b.approxAnchor,
      });
      const precise = labelBox('.tree-chart .precise-label', {
        text: `precise ${String(view.precise)}`,
        x: b.precise,
        y: b.preciseLabelY,
        anchor: b.preciseAnchor,
      });
      const range = labelBox('.tree-chart .band-label', {
        text: `range: precise − ${String(view.shape.under)} to + ${String(view.shape.over)}`,
        x: b.x0,
        y: b.rangeLabelY,
      });
      for (const [name, box] of [
        ['approximate', approx],
        ['precise', precise],
        ['range', range],
      ] as const)
        expect(inside(box, frame), `${at}: the ${name} label in the box`).toBe(true);
      expect(overlaps(precise, range), `${at}: precise and range labels apart`).toBe(false);
      const flight = labelBox('.tree-chart .flight-label', {
        text: `in flight: ${String(view.inFlight)}`,
        x: b.x1,
        y: b.rangeLabelY,
        anchor: 'end',
      });
      if (view.inFlight !== 0) {
        expect(inside(flight, frame), `${at}: the in-flight label in the box`).toBe(true);
        expect(overlaps(flight, range), `${at}: in-flight and range labels apart`).toBe(false);
      }
      // A word's value fits its box.
      for (const n of l.nodes) {
        const v = view.levels[n.level]?.[n.index]?.value ?? 0;
        const t = labelBox('.tree-chart .node-value', {
          text: String(v),
          x: n.cx,
          y: n.box.y + l.valueDy,
          anchor: 'middle',
        });
        expect(inside(t, n.box), `${at}: value ${String(v)} in its node`).toBe(true);
      }
    }
  });
});
