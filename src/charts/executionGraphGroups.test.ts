import { describe, expect, it } from 'vitest';
import { candidatesOf } from '../axiomatic/check.ts';
import { executionGraph, type ExecutionGraph } from '../axiomatic/explain.ts';
import { lkmm } from '../axiomatic/lkmm.ts';
import { compileProgram } from '../lang/compile.ts';
import type { CompiledProgram } from '../lang/compiled.ts';
import { examples } from '../scenarios/examples.ts';
import { findScenario } from '../scenarios/index.ts';
import { openProgram } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { executionGraphLayout, type GraphLayout, type GraphNode } from './executionGraph.ts';
import { defaultFolded, loopRuns, quietEvents } from './executionGraphGroups.ts';
import { graphSummary } from './executionGraphText.ts';
import type { Box } from './geometry.ts';
import { fonts } from './testFonts.ts';
import { inside, overlaps, textWidth } from './textWidth.ts';

// A counter's execution graph as a teacher puts it on a projector: each call, loop, handler run
// and scheduler turn boxed and labelled, the scheduler's events small and grey, a loop whose
// iterations repeat each other folded into one box, with a button to show them. Measured with
// the fonts the app serves (test/chartFonts.setup.ts): each label fits its box.

function compiled(source: string): CompiledProgram {
  const r = compileProgram(source, { memory: 'lkmm' });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

function graphs(p: CompiledProgram): ExecutionGraph[] {
  return [...candidatesOf(p).all].map((c) =>
    executionGraph(p, c.skeleton, c.execution, c.state, lkmm(c.execution, true)),
  );
}

/** percpu-classic in small: three adds to a per-CPU slot in a loop, a sum, and a migration. */
const COUNTER = compiled(`C counter
#pragma lab bounds irqs=0 nmis=0 preemptions=0 migrations=1
DEFINE_PER_CPU(int, s);
void add(int n)
{
	this_cpu_write(s, this_cpu_read(s) + n);
}
int sum(void)
{
	int t = 0;
	int cpu;

	for_each_online_cpu(cpu)
		t += READ_ONCE(per_cpu(s, cpu));
	return t;
}
P0()
{
	int i;

	for (i = 0; i < 3; i++)
		add(1);
}
P1()
{
	int r;

	r = sum();
}
observe r = 1;`);

const label = (g: ExecutionGraph, thread: number) =>
  g.events
    .filter((e) => e.thread === thread)
    .sort((a, b) => a.po - b.po)
    .map((e) => e.label);

/** The executions where P0 migrates to CPU1 and adds there, and P1 sums before it adds. */
const MIGRATED = graphs(COUNTER).filter(
  (g) =>
    g.consistent &&
    g.events.some((e) =>
      e.frames.some((f) => f.label === 'scheduler: takes CPU0, moves to CPU1'),
    ) &&
    label(g, 1).includes('R s[1]=0'),
);

const measured = (text: string, size: number, weight = 400) =>
  textWidth(fonts, text, { size, weight, mono: true });

const nodeOf = (l: GraphLayout, id: number) => l.nodes.find((n) => n.id === id) as GraphNode;

/** Every box a reader must see whole: events, names, labels, groups' labels, controls. */
function readable(l: GraphLayout): Box[] {
  return [
    ...l.nodes,
    ...l.columns.map((c) => c.box),
    ...l.edges.flatMap((e) => (e.labelBox ? [e.labelBox] : [])),
    ...l.groups.map((gr) => gr.labelBox),
    ...l.controls.filter((c) => c.expanded),
  ];
}

describe("a counter's graph, folded as it is first shown", () => {
  it('has executions to show', () => {
    expect(MIGRATED.length).toBeGreaterThan(0);
    for (const g of MIGRATED) expect(label(g, 0)).toHaveLength(16);
  });

  it('folds the loop whose iterations repeat each other, not the two-CPU walk', () => {
    for (const g of MIGRATED) {
      const folded = [...defaultFolded(g)].map((k) => loopRuns(g).get(k)?.label);
      expect(folded).toEqual(['for (i = 0; i < 3; i++)']);
    }
  });

  it('draws the folded loop as one node with its iterations, and its button', () => {
    for (const g of MIGRATED) {
      const l = executionGraphLayout(g);
      const folds = l.nodes.filter((n) => n.kind === 'fold');
      expect(folds.map((n) => [n.label, n.tags, n.thread])).toEqual([
        ['for (i = 0; i < 3; i++)', '3 iterations: show ↓', 0],
      ]);
      expect(l.folds.map((f) => [f.label, f.turns, f.events.length, f.folded, f.inside])).toEqual([
        ['for (i = 0; i < 3; i++)', 3, 6, true, 10],
        ['for_each_online_cpu(cpu)', 2, 2, false, 0],
      ]);
      expect(l.controls.map((c) => [c.name, c.expanded])).toEqual([
        ['Show the 3 iterations of for (i = 0; i < 3; i++) in P0 (6 events)', false],
        ['Fold the 2 iterations of for_each_online_cpu(cpu) in P1 into one', true],
      ]);
      // The events it hides have no node; 16 of P0's 6 + 10 are drawn as 10 events and a fold.
      expect(l.nodes.filter((n) => n.thread === 0)).toHaveLength(11);
      const hidden = new Set(l.folds[0]?.events);
      for (const e of l.edges) {
        expect(hidden.has(e.from)).toBe(false);
        expect(hidden.has(e.to)).toBe(false);
      }
      // P1's read of CPU1's slot read the value before P0's adds: from-read to the fold.
      const fr = l.edges.find((e) => e.kind === 'fr' && e.to === l.folds[0]?.node);
      expect(fr?.label).toBe('fr');
      expect(nodeOf(l, fr?.from ?? -99).label).toBe('R s[1]=0');
    }
  });

  it('boxes each run, labelled, the scheduler in grey', () => {
    for (const g of MIGRATED) {
      const l = executionGraphLayout(g);
      expect(l.groups.map((gr) => [gr.thread, gr.kind, gr.label, gr.quiet])).toEqual([
        [0, 'scheduler', 'scheduler: takes CPU0, moves to CPU1', true],
        [0, 'scheduler', 'scheduler: leaves CPU1', true],
        [1, 'scheduler', 'scheduler: takes CPU1', true],
        [1, 'call', 'sum()', false],
        [1, 'loop', 'for_each_online_cpu(cpu) ×2', false],
        [1, 'scheduler', 'scheduler: leaves CPU1', true],
      ]);
      // Quiet events are the scheduler's, smaller; their edges among them grey, unlabelled.
      const quiet = quietEvents(g);
      for (const n of l.nodes.filter((x) => x.thread >= 0))
        expect(n.height).toBe(n.quiet ? 26 : 40);
      expect(l.nodes.filter((n) => n.quiet).map((n) => n.id)).toEqual(
        g.events.filter((e) => quiet.has(e.id)).map((e) => e.id),
      );
      for (const e of l.edges) {
        expect(e.quiet).toBe(e.step === null && quiet.has(e.from) && quiet.has(e.to));
        if (e.quiet) expect(e.labelBox).toBeNull();
      }
    }
  });

  it('places the items down each column with room for the boxes, in exact positions', () => {
    const l = executionGraphLayout(MIGRATED[0] as ExecutionGraph);
    const column = (t: number) =>
      l.nodes.filter((n) => n.thread === t).map((n) => [n.label, n.y, n.height]);
    // The columns' names at 170; P0's first event a label's band (19) below the top (178), the
    // scheduler's events 26 high and 16 apart, the fold 46 below them (more than a box closing
    // needs: 6 + 16), and the next turn of the scheduler 46 below it.
    expect(column(0)).toEqual([
      ["R CPU0's runqueue=0", 197, 26],
      ["W CPU0's runqueue=-4097", 239, 26],
      ['F mb', 281, 26],
      ['F mb', 323, 26],
      ["W CPU0's runqueue=4097", 365, 26],
      ["R CPU1's runqueue=8193", 407, 26],
      ["W CPU1's runqueue=-4098", 449, 26],
      ['F mb', 491, 26],
      ['for (i = 0; i < 3; i++)', 563, 40],
      ['F mb', 649, 26],
      ["W CPU1's runqueue=4098", 691, 26],
    ]);
    // P1: two bands open over the sum's first read and a box closes above them: 6 + 2 × 19 + 16.
    expect(column(1)).toEqual([
      ["R CPU1's runqueue=0", 197, 26],
      ["W CPU1's runqueue=-8193", 239, 26],
      ['F mb', 281, 26],
      ['R s[0]=0', 367, 40],
      ['R s[1]=0', 453, 40],
      ['F mb', 540, 26],
      ["W CPU1's runqueue=8193", 582, 26],
    ]);
    expect(l.columns.map((c) => c.y)).toEqual([170, 170]);
    expect([l.width, l.height]).toEqual([718.76, 743]);
    const sum = l.groups.find((gr) => gr.label === 'sum()') as Box;
    const walk = l.groups.find((gr) => gr.kind === 'loop') as Box;
    // Each box 7 out of the one it holds (the column is 203.38 wide), its band 19 over it.
    expect([sum.x, sum.y, sum.width, sum.height]).toEqual([433.38, 329, 231.38, 176]);
    expect([walk.x, walk.y, walk.width, walk.height]).toEqual([440.38, 348, 217.38, 151]);
  });

  it('keeps every box inside the one that holds it, and every label clear of the rest', () => {
    for (const g of MIGRATED) {
      const l = executionGraphLayout(g);
      const picture = { x: 0, y: 0, width: l.width, height: l.height };
      for (const gr of l.groups) {
        expect(inside(gr, picture)).toBe(true);
        // Its events inside it.
        const ids = new Set(
          g.events.filter((e) => e.frames.some((f) => f.key === gr.key)).map((e) => e.id),
        );
        for (const n of l.nodes.filter((x) => ids.has(x.id))) expect(inside(n, gr)).toBe(true);
        // And inside every group that holds it (whose run comes first in its events' frames).
        const first = g.events.find((e) => ids.has(e.id))?.frames ?? [];
        const depth = first.findIndex((f) => f.key === gr.key);
        for (const outer of first.slice(0, depth)) {
          const box = l.groups.find((x) => x.key === outer.key);
          if (box) expect(inside(gr, box)).toBe(true);
        }
      }
      const boxes = readable(l);
      for (let i = 0; i < boxes.length; i++) {
        expect(inside(boxes[i] as Box, picture)).toBe(true);
        for (let j = i + 1; j < boxes.length; j++)
          expect(overlaps(boxes[i] as Box, boxes[j] as Box), `${i} and ${j}`).toBe(false);
      }
    }
  });

  it('writes each label no wider than its box, in the bundled monospace font', () => {
    for (const g of MIGRATED) {
      const l = executionGraphLayout(g);
      for (const gr of l.groups)
        expect(
          measured(gr.label, gr.fontSize, gr.kind === 'handler' ? 700 : 400),
        ).toBeLessThanOrEqual(gr.labelBox.width - 2);
      for (const c of l.controls.filter((x) => x.expanded))
        expect(measured(c.text, 11, 600)).toBeLessThanOrEqual(c.width);
      for (const n of l.nodes.filter((x) => x.kind === 'fold')) {
        expect(measured(n.label, 13)).toBeLessThanOrEqual(n.width - 18);
        expect(measured(n.tags, 11, 600)).toBeLessThanOrEqual(n.width - 18);
      }
      for (const n of l.nodes.filter((x) => x.quiet))
        expect(measured(n.label, 11)).toBeLessThanOrEqual(n.width);
    }
  });

  it('says what it folds, and names every event and edge all the same', () => {
    const g = MIGRATED[0] as ExecutionGraph;
    const l = executionGraphLayout(g);
    const text = graphSummary(g, l.folds);
    // Its 10 edges: rf and co from one add to the next (2 each), fr and data in each (3 each).
    expect(text).toMatch(
      /\. The picture folds the 3 iterations of for \(i = 0; i < 3; i\+\+\) in P0 \(6 events, with 10 edges between them\), each into one box whose arrows stand for its events' edges; every event and edge is listed above\.$/,
    );
    for (const e of g.events) expect(text).toContain(e.label);
  });
});

describe("a counter's graph unfolded", () => {
  it('draws every event, each call boxed inside its loop, and a button to fold it again', () => {
    for (const g of MIGRATED) {
      const l = executionGraphLayout(g, [], new Set());
      expect(l.nodes.filter((n) => n.kind === 'fold')).toEqual([]);
      expect(l.nodes.filter((n) => n.thread >= 0)).toHaveLength(
        g.events.filter((e) => e.thread >= 0).length,
      );
      expect(l.groups.filter((gr) => gr.thread === 0).map((gr) => gr.label)).toEqual([
        'scheduler: takes CPU0, moves to CPU1',
        'for (i = 0; i < 3; i++) ×3',
        'add(1)',
        'add(1)',
        'add(1)',
        'scheduler: leaves CPU1',
      ]);
      expect(l.controls.map((c) => [c.name, c.expanded, c.text])).toEqual([
        ['Fold the 3 iterations of for (i = 0; i < 3; i++) in P0 into one', true, 'fold'],
        ['Fold the 2 iterations of for_each_online_cpu(cpu) in P1 into one', true, 'fold'],
      ]);
      expect(graphSummary(g, l.folds)).not.toContain('The picture folds');
    }
  });
});

describe("an interrupt handler's run", () => {
  const p = compiled(`C irq
#pragma lab bounds irqs=1 nmis=0 preemptions=0 migrations=0
DEFINE_PER_CPU(long, c);
void counter_add(long amount)
{
	long v;

	preempt_disable();
	v = __this_cpu_read(c) + amount;
	__this_cpu_write(c, v);
	preempt_enable();
}
P0() { counter_add(1); }
IRQ0() { counter_add(5); }
observe c = per_cpu(c, 0);`);
  const at = (g: ExecutionGraph, po: number) =>
    g.events.find((e) => e.thread === 0 && e.po === po)?.context;
  const between = graphs(p).find((g) => at(g, 0) === 'P0' && at(g, 1) === 'IRQ0') as ExecutionGraph;

  it('is a tinted box labelled with the handler, inside the call it interrupted', () => {
    const l = executionGraphLayout(between);
    expect(l.groups.map((gr) => [gr.kind, gr.label])).toEqual([
      ['call', 'counter_add(1)'],
      ['handler', 'IRQ0'],
      ['call', 'counter_add(5)'],
    ]);
    const [task, irq, call] = l.groups.map((gr): Box => gr);
    // Two out of the handler's call (7 each side), one band over it, its two events and two
    // boxes closing under them (6 each).
    expect([irq?.x, irq?.y, irq?.width, irq?.height]).toEqual([54, 199, 110.48, 176]);
    expect(task && irq && call && inside(irq, task) && inside(call, irq)).toBe(true);
    // Nothing folds, nothing is quiet: the task's events and the handler's are the program's.
    expect(l.controls).toEqual([]);
    expect(l.nodes.some((n) => n.quiet)).toBe(false);
  });

  it("names the handler's events in words as the handler's, in the task", () => {
    const l = executionGraphLayout(between);
    expect(graphSummary(between, l.folds)).toContain(
      'P0, in program order: R c[0]=0 (Once), then IRQ0: R c[0]=0 (Once), then IRQ0: W c[0]=5 (Once), then W c[0]=1 (Once).',
    );
  });
});

describe('a graph with a long thread name', () => {
  it("widens the column for CPU1's offline, and the name fits its box", () => {
    const sc = findScenario('percpu-hotplug-sum');
    const p = sc?.program?.(resolveParams(sc, { memory: 'lkmm' }));
    if (!p) throw new Error('not a program');
    const g = graphs(p).find((x) => x.consistent && x.threads === 2) as ExecutionGraph;
    const l = executionGraphLayout(g);
    const name = l.columns[1];
    expect(name?.name).toBe("CPU1's offline and DEAD1");
    expect(
      textWidth(fonts, name?.name ?? '', { size: 14, weight: 700, mono: false }),
    ).toBeLessThanOrEqual((name?.box.width ?? 0) - 4);
  });
});

describe('a litmus test’s graph', () => {
  it('has no boxes, folds, buttons or quiet events: it is drawn as it always was', () => {
    const source = examples.find((e) => e.id === 'MP')?.text() ?? '';
    const r = openProgram(source);
    if (!r.ok) throw new Error('MP does not compile');
    const p = r.scenario.program?.(resolveParams(r.scenario, { memory: 'lkmm' }));
    if (!p) throw new Error('not a program');
    for (const g of graphs(p)) {
      const l = executionGraphLayout(g);
      expect([l.groups, l.folds, l.controls]).toEqual([[], [], []]);
      expect(l.nodes.some((n) => n.quiet)).toBe(false);
      expect(l.columns.map((c) => c.name)).toEqual(['P0', 'P1']);
    }
  });
});
