// A typed program as a scenario, so every mode takes it as it takes the catalogue's: Step,
// Explore, Live, Scaling and the CLI. Its parameters are its #define constants; its observables,
// invariants and condition are its final clauses; its listing is its own text.

import { compileProgram, type CompiledProgram, type CompileOptions } from '../lang/compile.ts';
import type { LangError } from '../lang/source.ts';
import { describeError, LineMap } from '../lang/source.ts';
import { defineScenario } from './define.ts';
import { ParamError } from './params.ts';
import type {
  BuildOptions,
  ExploreBounds,
  IntParam,
  InvariantSpec,
  ObservableSpec,
  Params,
  Scenario,
} from './types.ts';

/** The id under which a typed program runs (links and workers carry its text beside it). */
export const PROGRAM_ID = 'program';

export const PROGRAM_GROUP = 'Your programs';

export type ProgramResult =
  | { readonly ok: true; readonly scenario: Scenario; readonly compiled: CompiledProgram }
  | { readonly ok: false; readonly errors: readonly LangError[] };

/** What the compiler says of a parameter set it refuses, as the parameter screens show errors. */
function refuse(source: string, errors: readonly LangError[]): never {
  const map = new LineMap(source);
  throw new ParamError(errors.map((e) => describeError(map, e)).join('; '));
}

/** The values of a program's #defines in a parameter set. */
function definesOf(params: readonly IntParam[], p: Params): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const spec of params) {
    const v = p[spec.name];
    if (typeof v === 'number') out.set(spec.name, BigInt(v));
  }
  return out;
}

/** The Explore bounds a program asks for (`#pragma lab bounds irqs=1 …`), else from its threads. */
function boundsOf(c: CompiledProgram): Partial<ExploreBounds> {
  const m = c.machine;
  const sharing = new Set<number>();
  const cpus = new Set<number>();
  for (const t of c.threads) {
    if (t.role !== 'P') continue;
    if (cpus.has(t.cpu)) sharing.add(t.cpu);
    cpus.add(t.cpu);
  }
  const out: Record<string, number> = {
    irqs: [...m.irqCtx].some((x) => x >= 0) ? 1 : 0,
    nmis: [...m.nmiCtx].some((x) => x >= 0) ? 1 : 0,
    preemptions: sharing.size > 0 ? 1 : 0,
    migrations: 0,
  };
  for (const it of c.ast.items) {
    if (it.kind !== 'pragma' || it.key !== 'bounds') continue;
    for (const part of it.value.split(/[\s,]+/).filter(Boolean)) {
      const m2 = /^(irqs|nmis|preemptions|migrations)=(\d+)$/.exec(part);
      if (m2) out[m2[1] as string] = Math.min(15, Number(m2[2]));
    }
  }
  return out;
}

/**
 * The scenario of a program's text, compiled once with its defaults (to know its parameters,
 * observables and invariants) and again for each parameter set it is built with.
 */
export function programScenario(source: string, id = PROGRAM_ID): ProgramResult {
  const first = compileProgram(source);
  if (!first.ok) return first;
  const c = first.program;
  const params: IntParam[] = [...c.module.defines.entries()].map(([name, d]) => ({
    name,
    kind: 'int',
    default: Number(c.module.constantName(name, d.span) ?? 0n),
    min: name === 'NR_CPUS' ? 1 : name === 'BITS_PER_LONG' ? 32 : -Number.MAX_SAFE_INTEGER,
    max: name === 'NR_CPUS' ? 64 : name === 'BITS_PER_LONG' ? 64 : Number.MAX_SAFE_INTEGER,
    description: `#define ${name} (${source.slice(d.value.span.start, d.value.span.end)} in the program)`,
  }));
  const cache = new Map<string, CompiledProgram>();
  /** The program compiled for a parameter set (and a layout). */
  const compiled = (p: Params, opts: CompileOptions = {}): CompiledProgram => {
    const key = JSON.stringify([p, opts.layout ?? null, opts.loopBounds ?? true]);
    const known = cache.get(key);
    if (known) return known;
    const r = compileProgram(source, { ...opts, defines: definesOf(params, p) });
    if (!r.ok) refuse(source, r.errors);
    if (cache.size > 64) cache.clear();
    cache.set(key, r.program);
    return r.program;
  };
  const byDefault = (p: Params) => compiled(p);
  const observables = (p: Params): ObservableSpec[] =>
    byDefault(p).clauses.observables.map((o) => ({
      name: o.name,
      description: o.description,
      read: (m, s) => o.read(m, s),
    }));
  const invariants: InvariantSpec[] = c.clauses.invariants.map((inv, i) => {
    const at = (p: Params) => byDefault(p).clauses.invariants[i] ?? inv;
    return inv.when === 'final'
      ? {
          id: inv.id,
          when: 'final',
          description: inv.description,
          final: (_o, p, m, s) => at(p).check(m, s),
        }
      : {
          id: inv.id,
          when: 'always',
          description: inv.description,
          always: (m, s, p) => at(p).check(m, s),
          ...(inv.reads ? { reads: inv.reads } : {}),
        };
  });
  const handlers = c.threads
    .filter((t) => t.role !== 'P')
    .map((t) => `${t.role} on CPU${t.cpu}: ${t.name}()`);
  const scenario = defineScenario({
    id,
    title: c.name === 'program' ? 'Your program' : c.name,
    group: PROGRAM_GROUP,
    source: 'a program typed into the lab',
    summary: c.ast.doc ?? firstComment(source) ?? 'A program typed into the lab.',
    reconstruction: false,
    params,
    build(p: Params, opts?: BuildOptions) {
      const live = opts?.live === true;
      const layout = opts
        ? {
            ...(opts.padded !== undefined ? { padded: opts.padded } : {}),
            ...(opts.packedCells !== undefined ? { packedCells: opts.packedCells } : {}),
          }
        : {};
      const program = compiled(p, { layout, loopBounds: !live });
      return {
        params: p,
        machine: program.machine,
        listing: { lines: source.split('\n'), notes: listingNotes(program) },
      };
    },
    text: () => source,
    observables,
    invariants,
    handlers,
    bounds: boundsOf(c),
    witnesses: [],
    lesson: { summary: c.ast.doc ?? '', question: '', answer: '' },
  });
  return { ok: true, scenario, compiled: c };
}

/** The notes a listing shows: what the program's barriers do on this machine, by line. */
function listingNotes(p: CompiledProgram): string[] {
  return [...p.notes.entries()]
    .sort((a, b) => a[0] - b[0])
    .flatMap(([line, texts]) => texts.map((t) => `line ${line}: ${t}`));
}

/** The text of the program's first comment, as its summary. */
function firstComment(source: string): string | null {
  const m = /\(\*([\s\S]*?)\*\)|\/\*([\s\S]*?)\*\//.exec(source);
  const text = (m?.[1] ?? m?.[2] ?? '').replace(/^\s*\*?\s?/gm, '').trim();
  return text === '' ? null : (text.split('\n\n')[0]?.replace(/\s+/g, ' ') ?? null);
}
