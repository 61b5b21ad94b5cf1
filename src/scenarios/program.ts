// A typed program as a scenario, so every mode takes it as it takes the catalogue's: Step,
// Explore, Live, Scaling and the CLI. Its parameters are its #define constants; its observables,
// invariants and condition are its final clauses; its listing is its own text.

import { programBounds } from '../lang/bounds.ts';
import { compileProgram } from '../lang/compile.ts';
import type { CompiledProgram } from '../lang/compiled.ts';
import type { LangError } from '../lang/source.ts';
import type { MemoryModel } from '../machine/machine.ts';
import { defaultMemory } from '../lang/litmusText.ts';
import { memoryParam, textScenario } from './textScenario.ts';
import type { IntParam, Params, Scenario } from './types.ts';

/** The id under which a typed program runs (links and workers carry its text beside it). */
export const PROGRAM_ID = 'program';

export const PROGRAM_GROUP = 'Your programs';

/** The title of a typed program that names itself nothing (no `C name` line). */
const UNNAMED = 'Your program';

/**
 * What a scenario is called where people read it: an entry's id, a typed program's own name
 * (`C batch-fold`), not the id `program` that links and workers route it by.
 */
export function shownName(sc: Pick<Scenario, 'id' | 'title'>): string {
  return sc.id === PROGRAM_ID && sc.title !== UNNAMED ? sc.title : sc.id;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export type ProgramResult =
  | { readonly ok: true; readonly scenario: Scenario; readonly compiled: CompiledProgram }
  | { readonly ok: false; readonly errors: readonly LangError[] };

/** The values of a program's #defines in a parameter set. */
function definesOf(params: readonly IntParam[], p: Params): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const spec of params) {
    const v = p[spec.name];
    if (typeof v === 'number') out.set(spec.name, BigInt(v));
  }
  return out;
}

/** The text of the program's first comment, as its summary. */
function firstComment(source: string): string | null {
  const m = /\(\*([\s\S]*?)\*\)|\/\*([\s\S]*?)\*\//.exec(source);
  const text = (m?.[1] ?? m?.[2] ?? '').replace(/^\s*\*?\s?/gm, '').trim();
  return text === '' ? null : (text.split('\n\n')[0]?.replace(/\s+/g, ' ') ?? null);
}

/**
 * The scenario of a program's text; its compile errors when it does not compile. Its memory
 * parameter defaults to the model the text answers under (a herd7 litmus file: lkmm; the lab's
 * own programs: sc), so every command and the page take the same model unless told another.
 * `memory`: the model it will run under first (by default that one), so that its first compile,
 * which reads its parameters, is the program that runs.
 */
export function programScenario(
  source: string,
  id = PROGRAM_ID,
  memory: MemoryModel | 'lkmm' = defaultMemory(source),
): ProgramResult {
  const first = compileProgram(source, { memory });
  if (!first.ok) return first;
  const c = first.program;
  // A parameter is a number of the page's, links' and --set's: a #define beyond ±2^53 (LONG_MAX)
  // would lose its low bits there, so it stays a constant of the text, exact.
  const params: IntParam[] = [...c.module.defines.entries()].flatMap(([name, d]) => {
    const value = c.module.constantName(name, d.span) ?? 0n;
    if (value < -SAFE || value > SAFE) return [];
    return [
      {
        name,
        kind: 'int',
        default: Number(value),
        min: name === 'NR_CPUS' ? 1 : name === 'BITS_PER_LONG' ? 32 : -Number.MAX_SAFE_INTEGER,
        max: name === 'NR_CPUS' ? 64 : name === 'BITS_PER_LONG' ? 64 : Number.MAX_SAFE_INTEGER,
        description: `#define ${name} (${source.slice(d.value.span.start, d.value.span.end)} in the program)`,
      },
    ];
  });
  // The parameters' defaults, under the model compiled for: what the invariants are listed from.
  const sample: Params = { ...Object.fromEntries(params.map((q) => [q.name, q.default])), memory };
  const scenario = textScenario({
    id,
    title: c.name === 'program' ? UNNAMED : c.name,
    group: PROGRAM_GROUP,
    source: 'a program typed into the lab',
    summary: c.ast.doc ?? firstComment(source) ?? 'A program typed into the lab.',
    reconstruction: false,
    params: [...params, memoryParam(defaultMemory(source))],
    text: () => source,
    verbatim: true,
    defines: (p) => definesOf(params, p),
    sample,
    compiled: { memory, program: c },
    handlers: c.threads
      .filter((t) => t.role !== 'P')
      .map((t) => `${t.role} on CPU${t.cpu}: ${t.name}()`),
    bounds: programBounds(c),
    witnesses: [],
    lesson: { summary: c.ast.doc ?? '', question: '', answer: '' },
  });
  return { ok: true, scenario, compiled: c };
}
