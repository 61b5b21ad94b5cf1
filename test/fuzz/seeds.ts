// The fuzzer's seed texts: every catalogue entry's program at its defaults, and the litmus files
// in test/fuzz/litmus. Node only (it reads files): the fuzzer itself is pure.

import { readdirSync, readFileSync } from 'node:fs';
import { catalogue } from '../../src/scenarios/index.ts';
import { resolveParams } from '../../src/scenarios/params.ts';
import { programText } from '../../src/scenarios/text.ts';

const LITMUS = new URL('./litmus/', import.meta.url);

export function fuzzSeeds(): string[] {
  const texts = catalogue
    .filter((sc) => sc.text)
    .map((sc) => programText(sc, resolveParams(sc, {})));
  for (const f of readdirSync(LITMUS)
    .filter((f) => f.endsWith('.litmus'))
    .sort())
    texts.push(readFileSync(new URL(f, LITMUS), 'utf8'));
  return texts;
}
