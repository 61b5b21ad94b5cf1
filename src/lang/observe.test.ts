import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import { programScenario } from '../scenarios/program.ts';
import { resolveParams } from '../scenarios/params.ts';

describe('what an observe clause says its name means', () => {
  it('words, not the clause pasted without its spaces ("observeexact;")', () => {
    const r = programScenario(
      'C words\nint x;\nP0() { WRITE_ONCE(x, 1); }\ncounter { count x; }\nobserve x;\nobserve exact;\n',
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const sc = r.scenario;
    const described = sc.observables(resolveParams(sc, {})).map((o) => [o.name, o.description]);
    expect(described).toEqual([
      ['x', 'the value of x'],
      ['exact', 'the exact total: what the counter started at plus every add made'],
    ]);
  });

  it('in every catalogue entry: no description holds a clause keyword', () => {
    for (const sc of catalogue)
      for (const o of sc.observables(resolveParams(sc, {})))
        expect(o.description, `${sc.id} ${o.name}`).not.toMatch(/observe|;/);
  });
});
