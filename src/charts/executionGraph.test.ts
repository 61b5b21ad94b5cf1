import { describe, expect, it } from 'vitest';
import { candidatesOf } from '../axiomatic/check.ts';
import { executionGraph, type ExecutionGraph } from '../axiomatic/explain.ts';
import { lkmm } from '../axiomatic/lkmm.ts';
import { examples } from '../scenarios/examples.ts';
import { findScenario, openProgram } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { executionGraphLayout, type GraphLayout, type Point } from './executionGraph.ts';
import type { Box } from './geometry.ts';

// Every candidate execution (allowed or forbidden) of small litmus programs, laid out: the
// properties a reader relies on hold for each of them.

const text = (id: string) => examples.find((e) => e.id === id)?.text() ?? '';
/** A catalogue entry's program text under lkmm: a lesson's picture. */
function entryText(id: string, params: Record<string, string>): string {
  const sc = findScenario(id);
  return sc?.text?.(resolveParams(sc, { ...params, memory: 'lkmm' })) ?? '';
}

const PROGRAMS: Record<string, string> = {
  SB: text('SB'),
  MP: text('MP'),
  IRIW: `C IRIW+mbs
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*x); smp_mb(); r1 = READ_ONCE(*y); }
P2(int *y) { WRITE_ONCE(*y, 1); }
P3(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); smp_mb(); r1 = READ_ONCE(*x); }
exists (1:r0=1 /\\ 1:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)
`,
  'LB+cmpxchg+ctrl': `C LB+cmpxchg+ctrl
{}
P0(int *x, int *y) { int r1; r1 = cmpxchg(x, 2, 3); if (r1 >= 0) WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r2; r2 = READ_ONCE(*y); if (r2 >= 0) WRITE_ONCE(*x, 1); }
exists (0:r1=1 /\\ 1:r2=1)
`,
  'MP+locks': `C MP+locks
{}
P0(int *buf, int *flag, spinlock_t *l) { WRITE_ONCE(*buf, 1); spin_lock(l); WRITE_ONCE(*flag, 1); spin_unlock(l); }
P1(int *buf, int *flag, spinlock_t *l) { int r0; int r1; spin_lock(l); r0 = READ_ONCE(*flag); spin_unlock(l); r1 = READ_ONCE(*buf); }
exists (1:r0=1 /\\ 1:r1=0)
`,
  'MP+rcu-pointer': `C MP+assign+deref
{ p=y; }
P0(int *x, int **p) { WRITE_ONCE(*x, 1); rcu_assign_pointer(*p, x); }
P1(int *x, int **p) { int *r0; int r1; rcu_read_lock(); r0 = rcu_dereference(*p); r1 = READ_ONCE(*r0); rcu_read_unlock(); }
exists (1:r0=x /\\ 1:r1=0)
`,
  // Three initial writes over two columns: their arrows pass the threads' names.
  'seqcount-sum': entryText('seqcount-sum', { variant: 'both' }),
  'CoRR+same-thread': `C CoRR+rfi
{}
P0(int *x) { int r0; int r1; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*x); r1 = READ_ONCE(*x); WRITE_ONCE(*x, 2); }
P1(int *x) { int r0; WRITE_ONCE(*x, 3); r0 = READ_ONCE(*x); }
exists (0:r0=3 /\\ 0:r1=1)
`,
};

function graphsOf(source: string): ExecutionGraph[] {
  const r = openProgram(source);
  if (!r.ok) throw new Error(`does not compile: ${JSON.stringify(r.errors)}`);
  const p = r.scenario.program?.(resolveParams(r.scenario, { memory: 'lkmm' }));
  if (!p) throw new Error('not a program');
  return [...candidatesOf(p).all].map((c) =>
    executionGraph(p, c.skeleton, c.execution, c.state, lkmm(c.execution, true)),
  );
}

const onBoundary = (p: Point, b: Box) => {
  const inX = p.x >= b.x - 0.5 && p.x <= b.x + b.width + 0.5;
  const inY = p.y >= b.y - 0.5 && p.y <= b.y + b.height + 0.5;
  const onX = Math.abs(p.x - b.x) < 0.5 || Math.abs(p.x - b.x - b.width) < 0.5;
  const onY = Math.abs(p.y - b.y) < 0.5 || Math.abs(p.y - b.y - b.height) < 0.5;
  return inX && inY && (onX || onY);
};

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const inside = (b: Box, l: GraphLayout) =>
  b.x >= 0 && b.y >= 0 && b.x + b.width <= l.width + 0.01 && b.y + b.height <= l.height + 0.01;

describe.each(Object.entries(PROGRAMS))('the execution graphs of %s', (name, source) => {
  const graphs = graphsOf(source);

  it('has candidates, forbidden ones with a cycle where a barrier or a lock forbids them', () => {
    expect(graphs.length).toBeGreaterThan(1);
    // Coherence is checked before the model runs: CoRR's incoherent candidates never appear.
    const cycles = graphs.some((g) => !g.consistent && (g.why?.cycle.length ?? 0) > 0);
    expect(cycles).toBe(name !== 'CoRR+same-thread');
  });

  it('puts each thread in a column, program order down it, the initial writes above', () => {
    for (const g of graphs) {
      const l = executionGraphLayout(g);
      expect(l.nodes).toHaveLength(g.events.length);
      expect(l.columns.map((c) => c.thread)).toEqual(
        Array.from({ length: g.threads }, (_, i) => i),
      );
      const firstRow = Math.min(...l.nodes.filter((n) => n.thread >= 0).map((n) => n.y));
      for (const n of l.nodes) {
        expect(inside(n, l)).toBe(true);
        if (n.thread < 0) expect(n.y + n.height).toBeLessThan(firstRow);
      }
      for (let t = 0; t < g.threads; t++) {
        const col = g.events
          .filter((e) => e.thread === t)
          .sort((a, b) => a.po - b.po)
          .map((e) => l.nodes.find((n) => n.id === e.id) as Box);
        expect(new Set(col.map((b) => b.x)).size).toBeLessThanOrEqual(1);
        for (let i = 1; i < col.length; i++)
          expect((col[i] as Box).y).toBeGreaterThan((col[i - 1] as Box).y);
        // Its header is over it.
        const head = l.columns[t];
        if (col[0] && head) {
          expect(head.x).toBeCloseTo(col[0].x + col[0].width / 2);
          expect(head.y).toBeLessThan(col[0].y);
        }
      }
    }
  });

  it("never lets two events, two labels, a label and an event, or a thread's name overlap", () => {
    for (const g of graphs) {
      const l = executionGraphLayout(g);
      const boxes: Box[] = [
        ...l.nodes,
        ...l.columns.map((c) => c.box),
        ...l.edges.flatMap((e) => (e.labelBox ? [e.labelBox] : [])),
      ];
      for (let i = 0; i < boxes.length; i++) {
        expect(inside(boxes[i] as Box, l)).toBe(true);
        for (let j = i + 1; j < boxes.length; j++)
          expect(overlap(boxes[i] as Box, boxes[j] as Box), `${name}: ${i} and ${j}`).toBe(false);
      }
    }
  });

  it('starts every arrow on its event and ends its tip on the next', () => {
    for (const g of graphs) {
      const l = executionGraphLayout(g);
      const box = new Map(l.nodes.map((n) => [n.id, n]));
      for (const e of l.edges) {
        const from = box.get(e.from) as Box;
        const to = box.get(e.to) as Box;
        expect(onBoundary(e.start, from), `${e.kind} ${e.from}→${e.to} starts on its event`).toBe(
          true,
        );
        expect(onBoundary(e.end, to), `${e.kind} ${e.from}→${e.to} ends on its event`).toBe(true);
        expect(e.arrow[0]).toEqual(e.end);
        expect(e.d.startsWith(`M${e.start.x},${e.start.y}`)).toBe(true);
        expect(e.d.endsWith(`${e.end.x},${e.end.y}`)).toBe(true);
      }
    }
  });

  it('draws every edge of the graph, labelled with its relation (po by the columns)', () => {
    for (const g of graphs) {
      const l = executionGraphLayout(g);
      for (const e of g.edges) {
        const drawn = l.edges.find((d) => d.from === e.from && d.to === e.to && d.kind === e.kind);
        expect(drawn).toBeDefined();
        if (e.kind !== 'po') expect(drawn?.label).toMatch(new RegExp(`${e.kind}|^\\d+ `));
      }
    }
  });

  it("numbers the forbidden cycle's steps on the edges it follows, in order", () => {
    for (const g of graphs) {
      const cycle = g.why?.cycle ?? [];
      const l = executionGraphLayout(g);
      const steps = l.edges
        .filter((e) => e.step !== null)
        .sort((a, b) => (a.step ?? 0) - (b.step ?? 0));
      expect(steps.map((s) => s.step)).toEqual(cycle.map((_, i) => i + 1));
      steps.forEach((s, i) => {
        const c = cycle[i];
        expect([s.from, s.to]).toEqual([c?.from, c?.to]);
        expect(s.label).toBe(`${i + 1} ${c?.relation ?? ''}`);
        // Each step follows on from the one before: the cycle closes.
        expect(s.from).toBe(steps[(i + steps.length - 1) % steps.length]?.to);
      });
      const marked = l.nodes.filter((n) => n.inCycle).map((n) => n.id);
      expect(new Set(marked)).toEqual(new Set(cycle.flatMap((c) => [c.from, c.to])));
    }
  });
});

describe('the execution graph layout', () => {
  it('is the same for the same graph (no randomness)', () => {
    const g = graphsOf(PROGRAMS.MP as string)[0] as ExecutionGraph;
    expect(executionGraphLayout(g)).toEqual(executionGraphLayout(g));
  });

  it('draws a cycle step no relation of the graph carries (a fence) as an edge of its own', () => {
    const forbidden = graphsOf(PROGRAMS.MP as string).find((g) => !g.consistent) as ExecutionGraph;
    expect(forbidden.why?.cycle.map((s) => s.relation)).toContain('rmb');
    const l = executionGraphLayout(forbidden);
    const rmb = l.edges.find((e) => e.label.endsWith(' rmb'));
    expect(rmb?.kind).toBe('order');
    expect(rmb?.external).toBe(false);
  });

  it('keeps the four columns of IRIW within a projector-shaped picture', () => {
    const l = executionGraphLayout(graphsOf(PROGRAMS.IRIW as string)[0] as ExecutionGraph);
    expect(l.columns).toHaveLength(4);
    // Wider than tall, and not a ribbon: fits 16:9 and 4:3 stages without tiny type.
    expect(l.width / l.height).toBeGreaterThan(1);
    expect(l.width / l.height).toBeLessThan(3.5);
  });
});
