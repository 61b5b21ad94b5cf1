// The explorer's answers for every scenario and variant, compared with fixed expected results
// (golden.json): the same outcomes, witnesses, outcome counts, state and transition counts and
// depth, so a change to how states are stored or queued cannot change an answer unnoticed. The
// parameters are written out in full, so a scenario's changed default does not move the
// goalposts. This is the one catalogue-wide exploration on one thread: the other catalogue-wide
// tests (workers, as-text, teach, tso-catalogue) compare with the record (golden.ts).
//
// After a change that is meant to alter answers: UPDATE_GOLDEN=1 npx vitest run test/explore/golden
// and review the diff of golden.json.

import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue, findScenario } from '../../src/scenarios/index.ts';
import { paramsText, resolveParams } from '../../src/scenarios/params.ts';
import { explore } from '../../src/explore/explore.ts';
import { type Answer, type Case, GOLDEN_FILE, readGolden, recordedFields } from './golden.ts';

function answer(id: string, params: Record<string, string>): Answer {
  const sc = findScenario(id);
  if (!sc) throw new Error(`unknown scenario ${id}`);
  return recordedFields(
    explore(sc, resolveParams(sc, params), { ...sc.bounds, switches: Infinity }),
  );
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const sc of catalogue) {
    const variant = sc.params.find((p) => p.name === 'variant');
    const names = variant?.kind === 'choice' ? variant.choices : [undefined];
    // Under tso too where the store buffers are the lesson, and for one plain counter.
    const memories = sc.id === 'percpu-rwsem' || sc.id === 'global-plain' ? ['sc', 'tso'] : ['sc'];
    for (const v of names) {
      for (const memory of memories) {
        const set: Record<string, string> = v === undefined ? { memory } : { variant: v, memory };
        const params = paramsText(resolveParams(sc, set));
        out.push({ scenario: sc.id, params, answer: answer(sc.id, params) });
      }
    }
  }
  return out;
}

if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN_FILE, `${JSON.stringify(cases(), null, 1)}\n`);
const golden = readGolden();

describe('explore gives the recorded answer', () => {
  it('covers every scenario and variant', () => {
    expect(new Set(golden.map((c) => c.scenario))).toEqual(new Set(catalogue.map((s) => s.id)));
    const variants = catalogue.flatMap((sc) => {
      const v = sc.params.find((p) => p.name === 'variant');
      return v?.kind === 'choice' ? v.choices.map((c) => `${sc.id} ${c}`) : [sc.id];
    });
    const recorded = golden.map((c) =>
      c.params.variant === undefined ? c.scenario : `${c.scenario} ${c.params.variant}`,
    );
    expect(new Set(recorded)).toEqual(new Set(variants));
  });
  it.each(golden.map((c) => [`${c.scenario} ${JSON.stringify(c.params)}`, c] as const))(
    '%s',
    (_, c) => {
      expect(answer(c.scenario, c.params)).toEqual(c.answer);
    },
  );
});
