// What an execution graph groups events by: the call each comes from, a loop's turns, a
// handler's run inside the call it interrupted, and the scheduler's turns, named. Small programs
// whose control flow does not depend on what their reads return, so every candidate execution
// groups alike, whichever the engine lists first.

import { describe, expect, it } from 'vitest';
import { compileProgram } from '../lang/compile.ts';
import type { CompiledProgram } from '../lang/compiled.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { type Candidate, candidatesOf, checkLkmm } from './check.ts';
import { executionGraph, type ExecutionGraph } from './explain.ts';
import { lkmm } from './lkmm.ts';

function compiled(source: string): CompiledProgram {
  const r = compileProgram(source, { memory: 'lkmm' });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

const graphOf = (p: CompiledProgram, c: Candidate): ExecutionGraph =>
  executionGraph(p, c.skeleton, c.execution, c.state, lkmm(c.execution, true));

/**
 * A column's events, each as its label, its context and maker when not the thread's program,
 * and its frames; each run's key as a letter (a, b, c… in the order they first appear), so two
 * events of one run show the same letter.
 */
function column(g: ExecutionGraph, thread: number): string[] {
  const letters = new Map<string, string>();
  const letter = (key: string) => {
    if (!letters.has(key)) letters.set(key, String.fromCharCode(97 + letters.size));
    return letters.get(key) as string;
  };
  return g.events
    .filter((e) => e.thread === thread)
    .sort((a, b) => a.po - b.po)
    .map((e) => {
      const who = e.context === g.threadNames[thread] ? '' : ` (${e.context})`;
      const made = e.maker === 'program' ? '' : ` [${e.maker}]`;
      const frames = e.frames.map(
        (f) => `${letter(f.key)}:${f.label}${f.turn > 0 ? ` #${String(f.turn)}` : ''}`,
      );
      return `${e.label}${who}${made} | ${frames.join(' > ')}`;
    });
}

describe('the frames of an execution graph', () => {
  const p = compiled(`C frames
int x;
DEFINE_PER_CPU(int, s);
void add(int n)
{
	WRITE_ONCE(x, READ_ONCE(x) + n);
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

	for (i = 0; i < 2; i++)
		add(1);
	add(5);
}
P1()
{
	int r;

	spin_lock(&l);
	r = sum();
	spin_unlock(&l);
}
spinlock_t l;
observe x = x;`);
  const graphs = [...candidatesOf(p).all].map((c) => graphOf(p, c));

  it('box each call made, and number the turns of a loop of the machine', () => {
    expect(graphs.length).toBeGreaterThan(0);
    for (const g of graphs) {
      expect(g.threadNames).toEqual(['P0', 'P1']);
      expect(column(g, 0)).toEqual([
        'R x=0 | a:for (i = 0; i < 2; i++) #1 > b:add(1)',
        expect.stringMatching(/^W x=1 \| a:for \(i = 0; i < 2; i\+\+\) #1 > b:add\(1\)$/),
        expect.stringMatching(/^R x=\d \| a:for \(i = 0; i < 2; i\+\+\) #2 > c:add\(1\)$/),
        expect.stringMatching(/^W x=\d \| a:for \(i = 0; i < 2; i\+\+\) #2 > c:add\(1\)$/),
        expect.stringMatching(/^R x=\d \| d:add\(5\)$/),
        expect.stringMatching(/^W x=\d \| d:add\(5\)$/),
      ]);
    }
  });

  it("take a lock's two events as one statement, and a CPU walk's turns as a loop's", () => {
    for (const g of graphs)
      expect(column(g, 1)).toEqual([
        'LKR l | ',
        'LKW l | ',
        'R s[0]=0 | a:sum() > b:for_each_online_cpu(cpu) #1',
        'R s[1]=0 | a:sum() > b:for_each_online_cpu(cpu) #2',
        'UL l | ',
      ]);
  });

  it('put a line on each call and loop: where it is written', () => {
    const g = graphs[0] as ExecutionGraph;
    const lines = new Map(g.events.flatMap((e) => e.frames.map((f) => [f.label, f.line])));
    expect(Object.fromEntries(lines)).toEqual({
      'for (i = 0; i < 2; i++)': 21,
      'add(1)': 22,
      'add(5)': 23,
      'sum()': 30,
      'for_each_online_cpu(cpu)': 13,
    });
  });
});

describe("a handler's events in the task it interrupted", () => {
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
  const graphs = [...candidatesOf(p).all].map((c) => graphOf(p, c));

  it('are boxed as the handler’s run, inside the call it came in the middle of', () => {
    const between = graphs.find((g) => {
      const rows = column(g, 0);
      return !rows[0]?.includes('IRQ0') && rows[1]?.includes('IRQ0');
    });
    expect(between && column(between, 0)).toEqual([
      'R c[0]=0 | a:counter_add(1)',
      'R c[0]=0 (IRQ0) | a:counter_add(1) > b:IRQ0 > c:counter_add(5)',
      'W c[0]=5 (IRQ0) | a:counter_add(1) > b:IRQ0 > c:counter_add(5)',
      'W c[0]=1 | a:counter_add(1)',
    ]);
  });

  it('stand alone when the handler ran before the task began', () => {
    const first = graphs.find((g) => column(g, 0)[0]?.includes('IRQ0'));
    expect(first && column(first, 0)).toEqual([
      'R c[0]=0 (IRQ0) | a:IRQ0 > b:counter_add(5)',
      'W c[0]=5 (IRQ0) | a:IRQ0 > b:counter_add(5)',
      'R c[0]=5 | c:counter_add(1)',
      'W c[0]=6 | c:counter_add(1)',
    ]);
  });
});

describe('the scheduler in a graph', () => {
  const p = compiled(`C migrate
#pragma lab bounds irqs=0 nmis=0 preemptions=0 migrations=1
int x;
P0() { WRITE_ONCE(x, 1); WRITE_ONCE(x, 2); }
P1() { int r; r = READ_ONCE(x); }
observe x = x;`);
  const graphs = [...candidatesOf(p).all].map((c) => graphOf(p, c));

  it("names each turn on a CPU's runqueue, and the full barriers of the turn are its", () => {
    const migrated = graphs.find((g) =>
      g.events.some((e) => e.frames.some((f) => f.label.includes('moves to CPU1'))),
    );
    const rows = migrated ? column(migrated, 0) : [];
    expect(rows[0]).toBe(
      "R CPU0's runqueue=0 [scheduler] | a:scheduler: takes CPU0, moves to CPU1",
    );
    // Every event of a turn is the scheduler's, its full barriers too; the program's are not.
    const made = migrated?.events.filter((e) => e.thread === 0).map((e) => e.maker) ?? [];
    expect(made.filter((m) => m === 'program')).toHaveLength(2);
    expect(new Set(made)).toEqual(new Set(['program', 'scheduler']));
    expect(
      migrated?.events.filter((e) => e.maker === 'scheduler' && e.kind === 'F').map((e) => e.label),
    ).toContain('F mb');
    // The runqueues' initial writes too.
    expect(
      migrated?.events
        .filter((e) => e.kind === 'init' && e.maker === 'scheduler')
        .map((e) => e.label),
    ).toEqual(["init CPU0's runqueue=0", "init CPU1's runqueue=0"]);
  });
});

describe('CPU hotplug in a graph', () => {
  it("names the offline's thread, and boxes its steps around the dead callbacks' call", () => {
    const sc = findScenario('percpu-hotplug-sum');
    const p = sc?.program?.(resolveParams(sc, { memory: 'lkmm' }));
    if (!p) throw new Error('percpu-hotplug-sum is not a program');
    const r = checkLkmm(p);
    const graphs = r.states.map((st) =>
      executionGraph(p, st.example.skeleton, st.example.execution, st.state, st.example.verdict),
    );
    // Where CPU1 stays online, its offline makes no event and has no column.
    const offline = graphs.filter((g) => g.threads === 2);
    expect(offline.length).toBeGreaterThan(0);
    for (const g of graphs.filter((x) => x.threads === 1)) expect(g.threadNames).toEqual(['P2']);
    for (const g of offline) {
      expect(g.threadNames).toEqual(['P2', "CPU1's offline and DEAD1"]);
      // Each run of the column once, in order, by what it is.
      const runs = g.events
        .filter((e) => e.thread === 1)
        .sort((a, b) => a.po - b.po)
        .flatMap((e) => (e.frames[0] ? [`${e.frames[0].kind} ${e.frames[0].label}`] : []))
        .filter((f, i, all) => f !== all[i - 1]);
      expect(runs).toEqual([
        'hotplug hotplug: CPU1 goes offline',
        'call percpu_counter_cpu_dead(1)',
        'hotplug hotplug: CPU1 is dead',
      ]);
    }
  });
});
