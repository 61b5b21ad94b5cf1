// npm run bench:lkmm-catalogue [-- --only ID,ID] [--json]: every catalogue entry and variant
// under the kernel's memory model, beside Explore's answer under sc: whether the model answers
// (or why not), its outcomes, consistent executions and what was judged to find them, the final
// invariants it finds broken beside sc's, whether every sc outcome is also an lkmm outcome, and
// the time.

import { parseArgs } from 'node:util';
import { AxiomaticRefusal } from '../src/axiomatic/check.ts';
import { judgedWords } from '../src/axiomatic/judgedWords.ts';
import { axiomaticAnswer } from '../src/axiomatic/outcomes.ts';
import { explore } from '../src/explore/explore.ts';
import { catalogue } from '../src/scenarios/index.ts';
import { resolveParams } from '../src/scenarios/params.ts';
import type { Scenario } from '../src/scenarios/types.ts';

const { values } = parseArgs({
  options: { only: { type: 'string' }, json: { type: 'boolean', default: false } },
});
const only = values.only?.split(',');

interface Row {
  id: string;
  variant: string;
  answered: boolean;
  why?: string;
  outcomes?: number;
  executions?: number;
  candidates?: number;
  /** What the engine judged, in words (judgedWords.ts). */
  judged?: string;
  loopCut?: boolean;
  broken?: string[];
  scOutcomes: number;
  scBroken: string[];
  scMissing?: string[];
  ms: number;
}

const key = (o: Readonly<Record<string, unknown>>) => JSON.stringify(o);

function variants(sc: Scenario): (string | undefined)[] {
  const v = sc.params.find((p) => p.name === 'variant');
  return v && v.kind === 'choice' ? [...v.choices] : [undefined];
}

const rows: Row[] = [];
for (const sc of catalogue) {
  if (only && !only.includes(sc.id)) continue;
  for (const variant of variants(sc)) {
    const set: Record<string, string> = variant === undefined ? {} : { variant };
    const sc0 = resolveParams(sc, set);
    const scResult = explore(sc, sc0, { ...sc.bounds, switches: Infinity });
    const scKeys = new Set(scResult.outcomes.map((o) => key(o.observables)));
    const scBroken = [
      ...new Set(scResult.outcomes.flatMap((o) => o.violations.map((v) => v.id))),
    ].sort();
    const t0 = Date.now();
    try {
      const a = axiomaticAnswer(sc, resolveParams(sc, { ...set, memory: 'lkmm' }));
      const lk = new Set(a.outcomes.map((o) => key(o.observables)));
      rows.push({
        id: sc.id,
        variant: variant ?? '',
        answered: true,
        outcomes: a.outcomes.length,
        executions: a.executions,
        candidates: a.candidates,
        judged: judgedWords(a),
        loopCut: a.loopCut,
        broken: [...new Set(a.outcomes.flatMap((o) => o.violations.map((v) => v.id)))].sort(),
        scOutcomes: scKeys.size,
        scBroken,
        scMissing: [...scKeys].filter((k) => !lk.has(k)),
        ms: Date.now() - t0,
      });
    } catch (e) {
      if (!(e instanceof AxiomaticRefusal)) throw e;
      rows.push({
        id: sc.id,
        variant: variant ?? '',
        answered: false,
        why: e.message,
        scOutcomes: scKeys.size,
        scBroken,
        ms: Date.now() - t0,
      });
    }
  }
}

if (values.json) console.log(JSON.stringify(rows, null, 2));
else {
  for (const r of rows) {
    const name = `${r.id}${r.variant ? ` (${r.variant})` : ''}`.padEnd(40);
    if (!r.answered) {
      console.log(`${name} refused: ${r.why ?? ''}`);
      continue;
    }
    const missing =
      r.scMissing && r.scMissing.length > 0
        ? ` MISSING ${String(r.scMissing.length)} sc outcomes`
        : '';
    console.log(
      `${name} ${String(r.outcomes)} outcomes (sc ${String(r.scOutcomes)}), ${String(r.executions)} executions of ${r.judged ?? ''}${r.loopCut ? ', loop cut' : ''}, broken [${(r.broken ?? []).join(' ')}] (sc [${r.scBroken.join(' ')}]), ${String(r.ms)} ms${missing}`,
    );
  }
  const answered = rows.filter((r) => r.answered).length;
  console.log(`\n${String(answered)} of ${String(rows.length)} answered under lkmm`);
}
