// The command line as a user runs it: a real process, its stdout, stderr and exit status, for
// every command that does not race threads (those are cli.live.test.ts, run when nothing else
// loads the cores).

import { describe, expect, it } from 'vitest';
import { labCli, MY_COUNTER } from '../../test/labCli.ts';
import { catalogue } from '../scenarios/index.ts';

const { lab, labJson, file } = await labCli();

describe('lab CLI', () => {
  it('list --json gives id, title, source and reconstruction for each scenario', () => {
    const rows = labJson('list', '--json') as { id: string; reconstruction: boolean }[];
    expect(rows.map((x) => x.id)).toEqual(catalogue.map((s) => s.id));
    expect(rows.filter((x) => x.reconstruction).map((x) => x.id)).toEqual([
      'percpu-atomic64',
      'percpu-lglock',
      'percpu-seq',
      'percpu-seq-multi',
    ]);
    expect(Object.keys(rows[0] ?? {})).toEqual(['id', 'title', 'source', 'reconstruction']);
  });

  it('replay shows the lost update: nr = 1 and no-lost-update violated, exit 0', () => {
    const doc = labJson(
      'replay',
      'global-plain',
      '0 1 0 1',
      '--set',
      'cpus=2',
      '--set',
      'iterations=1',
      '--json',
    ) as {
      steps: {
        index: number;
        event: string;
        cpu: number;
        context: string;
        line: number;
        narration: string;
      }[];
      final: { observables: Record<string, unknown>; violations: { id: string; reason: string }[] };
    };
    expect(doc.steps.map((s) => s.narration)).toEqual([
      'CPU0 `r = nr_files`: reads nr_files: 0',
      'CPU1 `r = nr_files`: reads nr_files: 0',
      'CPU0 `nr_files = r`: writes nr_files = 1; P0 finishes',
      'CPU1 `nr_files = r`: writes nr_files = 1; P1 finishes',
    ]);
    expect(doc.steps[1]).toMatchObject({ index: 1, event: '1', cpu: 1, context: 'P1', line: 18 });
    expect(doc.final.observables).toEqual({ nr: 1, exact: 2 });
    expect(doc.final.violations).toEqual([
      { id: 'no-lost-update', reason: 'nr_files = 1, but the exact total is 2: 1 lost' },
    ]);
  });

  it('explore and replay number a violation alike: the event that broke it, from 1', () => {
    type Doc = { violations: { id: string; step?: number }[]; witness: string };
    const ex = labJson('explore', 'percpu-modern', '--preset', 'irq-past-batch', '--json') as {
      outcomes: Doc[];
    };
    const broken = ex.outcomes.find((o) => o.violations.some((v) => v.step !== undefined));
    if (!broken) throw new Error('no outcome breaks an always-invariant');
    const always = broken.violations.find((v) => v.step !== undefined) as {
      id: string;
      step: number;
    };
    const re = labJson(
      'replay',
      'percpu-modern',
      broken.witness,
      '--preset',
      'irq-past-batch',
      '--json',
    ) as {
      steps: { index: number; step: number }[];
      final: { violations: { id: string; step?: number }[] };
    };
    expect(re.final.violations.find((v) => v.id === always.id)?.step).toBe(always.step);
    // steps[step - 1] is the event that broke it, numbered `step` in the JSON and the text.
    expect(re.steps[always.step - 1]).toMatchObject({ index: always.step - 1, step: always.step });
    const text = lab('replay', 'percpu-modern', broken.witness, '--preset', 'irq-past-batch').out;
    expect(text).toMatch(new RegExp(`\\n\\s+${always.step}  \\S+ +CPU`));
    expect(text).toContain(`VIOLATED ${always.id} (broken at event ${always.step}):`);
    // In explore's text each violation carries its own moment, then its reason.
    const exText = lab('explore', 'percpu-modern', '--preset', 'irq-past-batch').out;
    expect(exText).toMatch(
      new RegExp(
        `read-within-bound \\(at the end\\): [^;]+; slot-below-batch \\(broken at event \\d+\\): |slot-below-batch \\(broken at event \\d+\\): [^;]+; read-within-bound \\(at the end\\): `,
      ),
    );
  });

  it('replay --witness uses the witness parameters', () => {
    const doc = labJson('replay', 'global-plain', '--witness', 'lost-update', '--json') as {
      final: { observables: unknown };
    };
    expect(doc.final.observables).toEqual({
      nr: 101,
      exact: 102,
    });
  });

  it('replay prints the hotplug masks as CPU sets; --json keeps the number', () => {
    const text = lab('replay', 'percpu-hotplug-sum', '--witness', 'false-rss-bug').out;
    expect(text).toContain('reads cpu_online_mask: {0,2}');
    expect(text).toContain('  online = {0,2}');
    const doc = labJson('replay', 'percpu-hotplug-sum', '--witness', 'false-rss-bug', '--json') as {
      final: { observables: Record<string, unknown> };
    };
    expect(doc.final.observables.online).toBe(5);
  });

  it('a malformed schedule exits 2 with the position of the bad token (JSON on stderr)', () => {
    const r = lab('replay', 'global-plain', '0 1 q0', '--json');
    expect(r.status).toBe(2);
    expect(r.out).toBe('');
    expect(JSON.parse(r.err)).toEqual({
      error: {
        message:
          "schedule, column 5: unknown event 'q0': expected N, irqN, nmiN, preN, migN>M, flushN, offN or onN",
        position: 4,
      },
    });
  });

  it('an event that is not legal at its point exits 2 naming it and why', () => {
    const r = lab('replay', 'global-plain', '0 0 0 0 0', '--set', 'iterations=2');
    expect(r.status).toBe(2);
    expect(r.err).toBe(
      "lab: schedule, column 9: event 5 ('0') is not possible at that point: CPU 0 has nothing left to run\n",
    );
  });

  it('bad scenario, parameter and option each exit 2 with one message', () => {
    expect(lab('show', 'nope').err).toMatch(
      /^lab: unknown scenario 'nope'; one of: global-plain, /,
    );
    const bad = lab('replay', 'global-plain', '0', '--set', 'cpus=0');
    expect([bad.status, bad.err]).toEqual([2, 'lab: cpus must be from 1 to 64, got 0\n']);
    expect(lab('list', '--frobnicate').status).toBe(2);
    expect(lab('random', 'global-plain').err).toBe(
      'lab: random needs --seed N (runs are repeatable)\n',
    );
  });

  it('random is repeatable for a seed and finds the lost updates', () => {
    const a = lab('random', 'global-plain', '--seed', '7', '--runs', '300', '--json');
    const b = lab('random', 'global-plain', '--seed', '7', '--runs', '300', '--json');
    expect(a.status).toBe(0);
    expect(a.out).toBe(b.out);
    const doc = JSON.parse(a.out) as {
      runs: number;
      outcomes: { observables: { nr: number }; count: number; schedule: string }[];
    };
    expect(doc.outcomes.map((o) => o.observables.nr).sort()).toEqual([2, 3, 4]);
    expect(doc.outcomes.reduce((n, o) => n + o.count, 0)).toBe(300);
    // Each example schedule replays to its outcome.
    for (const o of doc.outcomes) {
      const r = lab('replay', 'global-plain', o.schedule, '--json');
      expect(
        (JSON.parse(r.out) as { final: { observables: { nr: number } } }).final.observables.nr,
      ).toBe(o.observables.nr);
    }
  });

  it('explore --json lists every outcome with a witness that replays to it', () => {
    const doc = labJson('explore', 'global-plain', '--set', 'iterations=2', '--json') as {
      complete: boolean;
      stats: { states: number };
      outcomes: { observables: { nr: number }; witness: string; witnessSteps: number }[];
    };
    expect(doc.complete).toBe(true);
    expect(doc.outcomes.map((o) => o.observables.nr).sort()).toEqual([2, 3, 4]);
    for (const o of doc.outcomes) {
      const again = lab('replay', 'global-plain', o.witness, '--set', 'iterations=2', '--json');
      const final = (JSON.parse(again.out) as { final: { observables: { nr: number } } }).final;
      expect(final.observables.nr).toBe(o.observables.nr);
    }
    expect(lab('explore', 'global-plain', '--irqs', 'x').status).toBe(2);
  });

  it('explore reports a memory stop as incomplete with what it covered, and progress on stderr', () => {
    // global-plain 3 CPUs × 5: about 780 k states, well over a second.
    const args = ['explore', 'global-plain', '--set', 'cpus=3', '--set', 'iterations=5'];
    const r = lab(...args, '--max-memory', '20');
    expect(r.status).toBe(0);
    expect(r.out).toMatch(
      /^global-plain under sc: \d+ states, \d+ transitions in \d+ ms \(INCOMPLETE: the memory limit of 20 MB; covered \d+ states to depth \d+; raise --max-memory\)/,
    );
    // A state limit stops the search between two levels of cost, so one worker or two reach the
    // same place.
    const capped = (workers: string) =>
      JSON.parse(
        lab(...args, '--json', '--quiet', '--max-states', '1000', '--workers', workers).out,
      ) as {
        complete: boolean;
        stopped: string;
        stats: { states: number; depth: number };
      };
    const doc = capped('1');
    expect([doc.complete, doc.stopped]).toEqual([false, 'max-states']);
    expect(doc.stats.states).toBeGreaterThan(1000);
    expect(doc.stats.states).toBeLessThan(1200);
    expect(capped('2').stats).toMatchObject({ states: doc.stats.states, depth: doc.stats.depth });
    // One level of cost may hold many states past the limit: the text and the help say where
    // the limit is checked, so a run that passes N is not a surprise.
    expect(lab(...args, '--quiet', '--max-states', '1000', '--workers', '1').out).toMatch(
      /\(INCOMPLETE: the state limit, checked as each level of cost ends; covered \d+ states to depth \d+\)/,
    );
    expect(lab('help').out).toMatch(/--max-states N .* first level of cost\s+that passes N states/);
    // Progress every 0 ms: a line at every check (4096 states), however fast this machine is.
    const full = lab(...args, '--progress-ms', '0');
    expect(full.out).toMatch(/^global-plain under sc: 779230 states, \d+ transitions in \d+ ms\n/);
    expect(full.err).toMatch(
      /^explore: \d+ states, \d+ states\/s, \d+ transitions, depth \d+, \d+ MB, \d+\.\d s$/m,
    );
    const reduced = lab(
      'explore',
      'global-plain',
      '--set',
      'cpus=3',
      '--symmetry',
      '--switches',
      '3',
      '--por',
    );
    expect(reduced.out).toMatch(
      /\nsymmetry: on\npor: off \(a switch bound counts the order of steps, which the reduction changes\)\n/,
    );
    expect(lab(...args, '--max-memory', 'lots').err).toBe(
      "lab: --max-memory takes an integer from 0 to 65536, got 'lots'\n",
    );
  }, 60_000);

  it('show --json documents parameters with ranges, observables, invariants and witnesses', () => {
    const doc = JSON.parse(lab('show', 'lazy-nr-files', '--json').out) as Record<string, unknown>;
    expect(doc.params).toContainEqual(
      expect.objectContaining({ name: 'cpus', default: 2, min: 1, max: 64 }),
    );
    expect((doc.invariants as { id: string }[]).map((i) => i.id)).toEqual([
      'no-lost-update',
      'read-within-bound',
    ]);
    // The listing is the program's text, the threshold its parameter.
    expect((doc.listing as { line: number; text: string }[])[0]).toEqual({
      line: 1,
      text: 'C lazy-nr-files',
    });
    expect(doc.listing).toContainEqual(
      expect.objectContaining({ text: '#define NR_FILES_THRESHOLD 1\t/* 16 in the patch */' }),
    );
  });

  it('live refuses what cannot run, with the reason', () => {
    const free = lab('live', 'this-cpu-migrate');
    expect(free.status).toBe(2);
    expect(free.err).toMatch(/does not run free.*--witness/);
    const bad = lab('live', 'global-plain', '--seconds', 'soon');
    expect(bad.status).toBe(2);
    expect(bad.err).toMatch(/--seconds/);
    const unknown = lab('live', 'percpu-classic', '--set', 'bogus=1');
    expect(unknown.status).toBe(2);
    expect(unknown.err).toMatch(/no parameter 'bogus'/);
  });

  it('bench refuses a bad plan with the reason', () => {
    const r = lab('bench', '--cpus', '0,2');
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/CPU counts are whole numbers from 1 to 64, not 0/);
    const s = lab('bench', '--scenarios', 'irq-local-rmw');
    expect(s.status).toBe(2);
    expect(s.err).toMatch(/fixed number of CPUs/);
    const l = lab('bench', '--layout', 'sideways');
    expect(l.err).toMatch(/--layout takes padded, packed or both/);
  });
});

describe('lab with a program file', () => {
  const counter = file('counter.c', MY_COUNTER);

  it('a mistake is printed as a compiler prints it, with status 2', () => {
    const bad = file('bad.c', 'C bad\nint x;\nP0() { WRITE_ONCE(x, 1) }\n');
    const r = lab('explore', bad);
    expect(r.status).toBe(2);
    expect(r.err).toBe(
      `lab: ${bad}:3:25: expected \`;\` after the statement, found \`}\`.\n  |\n3 | P0() { WRITE_ONCE(x, 1) }\n  |                         ^\n`,
    );
  });

  it('prints every mistake of a file, each as a compiler prints it (check and export alike)', () => {
    const bad = file('bad1.c', 'int x;\nP0() { WRITE_ONCE(x, 1) }\nP1() { smp_mbb(); }\n');
    const second = [
      `${bad}:3:8: \`smp_mbb\` is not a primitive the lab knows, nor a function of the program.`,
      '  |',
      '3 | P1() { smp_mbb(); }',
      '  |        ^^^^^^^',
      '  = Did you mean `smp_mb`?',
    ].join('\n');
    for (const args of [
      ['check', bad],
      ['export', bad, '--format', 'litmus'],
    ]) {
      const r = lab(...args);
      expect(r.status).toBe(2);
      expect(r.err).toMatch(/^lab: .*bad1\.c:2:25: expected `;` after the statement, found `}`\./);
      expect(r.err).toContain(second);
    }
  });

  it('explores a file as it explores an entry: the lost update and its witness', () => {
    const doc = labJson('explore', counter, '--json') as {
      outcomes: { observables: Record<string, number>; violations: { id: string }[] }[];
    };
    expect(doc.outcomes.map((o) => [o.observables.hits, o.violations.map((v) => v.id)])).toEqual([
      [2, []],
      [1, ['no-lost-update']],
    ]);
  });

  it('lists with each broken outcome the value its invariant judged', () => {
    // hits=1 exact=2 alone does not say what no-lost-update weighed; its reason does.
    const r = lab('explore', counter);
    expect(r.status, r.err).toBe(0);
    // The program is called by its own name (C my-counter), not the route `program`.
    expect(r.out).toMatch(/^my-counter under sc: \d+ states/);
    expect(r.out).toContain(
      'hits=1 exact=2  (violates no-lost-update (at the end): hits = 1, but the exact total is 2: 1 lost)',
    );
  });

  it('calls a program with no counter by its own name when live refuses it', () => {
    const sb = file('sb.c', 'C my-sb\nint x;\nP0() { WRITE_ONCE(x, 1); }\n');
    const r = lab('live', sb, '--seconds', '0.2');
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/^lab: my-sb does not run free on the workers/);
  });

  it('exports an entry as a program that compiles back to the same scenario answer', () => {
    const text = lab('export', 'global-plain').out;
    expect(text.split('\n')[0]).toBe('C global-plain');
    const path = file('global-plain.c', text);
    const a = labJson('explore', 'global-plain', '--json') as { outcomes: unknown[] };
    const b = labJson('explore', path, '--json') as { outcomes: unknown[] };
    expect(b.outcomes).toEqual(a.outcomes);
  });

  it('exports a question for SPIN at the bounds asked, and refuses what it cannot write', () => {
    const model = lab('export', 'percpu-modern', '--format', 'promela', '--irqs', '2').out;
    expect(model).toContain('proctype cpu0()');
    expect(model).toContain('proctype cpu1()');
    expect(model).toContain('uirq < 2');
    expect(model).toContain('/* no-lost-update */');
    const tso = lab('export', 'global-plain', '--format', 'promela', '--memory', 'tso');
    expect(tso.status).toBe(2);
    expect(tso.err).toMatch(/cannot export global-plain to Promela: memory tso/);
  });
});
