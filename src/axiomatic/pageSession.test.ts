import { describe, expect, it } from 'vitest';
import { examples } from '../scenarios/examples.ts';
import { PROGRAM_ID } from '../scenarios/program.ts';
import { catalogue } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { AxiomaticRefusal } from './check.ts';
import { createAxiomaticApi, refusalInPage } from './pageSession.ts';

const MP = examples.find((e) => e.id === 'MP')?.text() ?? '';
const SB_PLAIN = `C SB
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x); }
exists (0:r0=0 /\\ 1:r0=0)
`;
const program = (text: string) => ({ scenario: PROGRAM_ID, program: text, params: {} });

/** Plain data only: what survives a structured clone between the worker and the page. */
const plain = (x: unknown) => {
  expect(JSON.parse(JSON.stringify(x))).toEqual(x);
};

describe('the axiomatic worker API (run in Node, as the worker runs it)', () => {
  it('answers MP with smp_wmb/smp_rmb as herd7 does under lkmm: Never, and says why not', () => {
    const api = createAxiomaticApi();
    const a = api.answer(program(MP));
    plain(a);
    if (!a.ok) throw new Error(a.refusal);
    expect(a.herd?.observation).toBe('Never');
    expect(a.herd?.text).toMatch(/\nModel lkmm$/);
    expect(a.states.map((s) => [s.line, s.executions, s.condition])).toEqual([
      ['1:r0=0; 1:r1=0;', 1, false],
      ['1:r0=0; 1:r1=1;', 1, false],
      ['1:r0=1; 1:r1=1;', 1, false],
    ]);
    expect(a.whyNot).toBe(1);
    const [why] = api.whyNot();
    plain(why);
    expect(why?.consistent).toBe(false);
    expect(why?.state).toBe('1:r0=1; 1:r1=0;');
    expect(why?.why?.axiom).toBe('happens-before');
    expect(why?.why?.cycle.map((s) => s.relation)).toEqual(['rmb', 'fre', 'wmb', 'rfe']);
  });

  it('shows an execution that ends in each end state, allowed by the model', () => {
    const api = createAxiomaticApi();
    const a = api.answer(program(SB_PLAIN));
    if (!a.ok) throw new Error(a.refusal);
    expect(a.herd?.observation).toBe('Sometimes');
    expect(a.whyNot).toBe(0);
    a.states.forEach((s, i) => {
      const g = api.execution(i);
      plain(g);
      expect(g.consistent).toBe(true);
      expect(g.state).toBe(s.line);
    });
    expect(api.whyNot()).toEqual([]);
    expect(() => api.execution(a.states.length)).toThrow('has no end state');
  });

  it('lets the student be the memory system until an axiom closes the door', () => {
    const api = createAxiomaticApi();
    api.answer(program(MP));
    const start = api.memoryView();
    plain(start);
    expect(start.reads.map((r) => r.name)).toEqual(['P1: R flag', 'P1: R data']);
    expect(start.candidates).toBe(4);
    expect(start.consistent).toBe(3);
    // The reader sees the flag…
    const flag = start.reads[0];
    const set = flag?.options.find((o) => o.label === 'P0: W flag=1');
    const afterFlag = api.memoryChoose(flag?.read ?? '', set?.write ?? null);
    expect(afterFlag.consistent).toBe(1);
    expect(afterFlag.closedBy).toBeNull();
    // …and the old data: no execution is possible, happens-before forbids it.
    const data = afterFlag.reads[1];
    const old = data?.options.find((o) => o.label.startsWith('init'));
    const closed = api.memoryChoose(data?.read ?? '', old?.write ?? null);
    expect(closed.consistent).toBe(0);
    expect(closed.closedBy).toBe('happens-before');
    expect(closed.graph?.why?.axiom).toBe('happens-before');
    expect(closed.sentence).toContain('happens-before');
    // Taken back, and then every choice forgotten.
    expect(api.memoryChoose(data?.read ?? '', null).consistent).toBe(1);
    expect(api.memoryReset().consistent).toBe(3);
  });

  it('answers a program with an interrupt handler: the IRQ inside the add loses it', () => {
    const api = createAxiomaticApi();
    const a = api.answer({ scenario: 'irq-local-rmw', params: {} });
    if (!a.ok) throw new Error(a.refusal);
    const lines = a.states.map((s) => `${s.line} ${s.broken.map((v) => v.id).join(',')}`.trim());
    expect(lines).toContain('c=11 irqs=1 exact=16 no-lost-update');
    expect(lines).toContain('c=16 irqs=1 exact=16');
    expect(lines).toContain('c=11 irqs=0 exact=11');
  });

  it('refuses an unknown scenario or a program that does not compile, with a message', () => {
    const api = createAxiomaticApi();
    expect(api.answer({ scenario: 'nope', params: {} })).toMatchObject({
      ok: false,
      refusal: "unknown scenario 'nope'",
    });
    expect(api.answer(program('C broken\n{}\nP0( {'))).toMatchObject({
      ok: false,
      refusal: 'the program does not compile',
    });
  });
});

describe('a refusal in the page’s words', () => {
  const fuzzy = catalogue.find((s) => s.id === 'percpu-sum-fuzzy');
  if (!fuzzy) throw new Error('percpu-sum-fuzzy is not in the catalogue');
  const params = resolveParams(fuzzy, { memory: 'lkmm' });
  it('makes a catalogue entry smaller in Parameters, not with a #pragma or --set', () => {
    const e = new AxiomaticRefusal(
      'more than 250,000 execution graphs: too many to explore',
      'smaller',
    );
    const words = refusalInPage({ sc: fuzzy, params }, e);
    expect(words).toBe(
      'more than 250,000 execution graphs: too many to explore; try a smaller program: adds 1 in Parameters',
    );
    expect(words).not.toMatch(/#pragma|--set/);
  });
  it('sends a loop past its bound to a copy of the text, where the #pragma goes', () => {
    const e = new AxiomaticRefusal(
      'every execution goes round a loop more than 8 times, the bound',
      'loop-bound',
    );
    expect(refusalInPage({ sc: fuzzy, params }, e)).toMatch(
      /; a catalogue entry takes no #pragma: Edit a copy, and raise the bound in its text/,
    );
  });
});
