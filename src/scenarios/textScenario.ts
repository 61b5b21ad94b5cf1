// A scenario whose program is text (docs/language.md): the one home of its program, its listing,
// its observables and its invariants is the text its parameters give; the scenario adds what
// text does not carry yet (the parameters' ranges, the witnesses, the guarantees). Typed
// programs and the catalogue's entries are both made this way.

import { memo } from '../machine/memo.ts';
import { compileProgram } from '../lang/compile.ts';
import type { CompiledProgram, LangInvariant } from '../lang/compiled.ts';
import { describeError, LineMap } from '../lang/source.ts';
import { defineScenario, type ScenarioDraft } from './define.ts';
import type { MemoryModel } from '../machine/machine.ts';
import { MEMORY_MODELS } from '../machine/machine.ts';
import { ParamError } from './params.ts';
import type {
  BuildOptions,
  ChoiceParam,
  InvariantSpec,
  ObservableSpec,
  Params,
  Scenario,
} from './types.ts';

/**
 * Every program runs under a memory model (docs/machine.md, "Memory models"): a parameter like
 * the others, so Step, Explore, links and the CLI carry it with no code of their own. sc and tso
 * are machines the explorer steps; lkmm, the kernel's own model, is axiomatic (src/axiomatic).
 */
export const MEMORY_PARAM: ChoiceParam = {
  name: 'memory',
  kind: 'choice',
  default: 'sc',
  choices: [...MEMORY_MODELS, 'lkmm'],
  description:
    "memory model: sc, sequentially consistent (every store is seen at once); tso, x86-TSO (each CPU's stores wait in a store buffer until flushed); or lkmm, the Linux kernel's memory model (tools/memory-model), answered as herd7 does",
};

/**
 * The memory parameter of a program that answers under `model` unless the user names another:
 * one rule for every front end (docs/memory-models.md, "Which model answers"): a herd7 litmus
 * file answers under lkmm, the lab's own programs and the catalogue under sc (`defaultMemory`).
 */
export function memoryParam(model: 'sc' | 'lkmm'): ChoiceParam {
  return model === MEMORY_PARAM.default ? MEMORY_PARAM : { ...MEMORY_PARAM, default: model };
}

/** The machine a parameter set runs on: lkmm's programs are compiled for a sequential machine. */
export function memoryOf(p: Params): MemoryModel {
  return p.memory === 'tso' ? 'tso' : 'sc';
}

/** Whether a parameter set asks for the kernel's memory model, which the axiomatic engine answers. */
export function isAxiomatic(p: Params): boolean {
  return p.memory === 'lkmm';
}

export type TextScenarioDraft = Omit<ScenarioDraft, 'build' | 'observables' | 'invariants'> & {
  /** The program for a parameter set. */
  readonly text: (p: Params) => string;
  /** Values of the text's #defines for a parameter set (a typed program's parameters). */
  readonly defines?: (p: Params) => ReadonlyMap<string, bigint>;
  /** Notes the listing shows besides the text's own (modelling choices). */
  readonly notes?: (p: Params) => readonly string[];
  /**
   * What running it under x86-TSO changes (memory tso), as found by exploring both models: a
   * note of the listing. test/explore/tso-catalogue.test.ts holds every entry to it.
   */
  readonly underTso?: string;
  /** The parameters the scenario's invariants are listed from (by default, its defaults). */
  readonly sample?: Params;
  /**
   * The text is the author's own, taken as typed (a typed program): the scenario's bounds are
   * not written into it. A catalogue entry's text says its bounds, so a copy explores alike.
   */
  readonly verbatim?: boolean;
  /**
   * The program already compiled from the sample's text under `memory` (a typed program's first
   * compile, which reads its parameters): kept, so a file is compiled once per model.
   */
  readonly compiled?: { readonly memory: MemoryModel | 'lkmm'; readonly program: CompiledProgram };
};

/** Compiled programs of a scenario, by parameter object and layout. */
class Compilations {
  private readonly byParams = new WeakMap<Params, Map<string, CompiledProgram>>();
  private readonly byText = new Map<string, CompiledProgram>();

  constructor(
    private readonly d: TextScenarioDraft,
    sample: Params,
  ) {
    // Compiled without options but the model, as get() compiles the sample under that model:
    // the sample's #define values are the text's own.
    if (d.compiled) this.byText.set(this.textKey(d.compiled.memory, sample), d.compiled.program);
  }

  /** Programs compile alike for the same options, #define values and text. */
  private textKey(key: string, p: Params): string {
    const defines = this.d.defines?.(p) ?? new Map<string, bigint>();
    return `${key}|${JSON.stringify([...defines].map(([k, v]) => [k, String(v)]))}|${this.d.text(p)}`;
  }

  get(p: Params, opts: BuildOptions = {}): CompiledProgram {
    // Live CPUs are real ones: their memory model is the hardware's, so a live build is sc.
    const memory =
      opts.memory ?? (opts.live === true ? 'sc' : isAxiomatic(p) ? 'lkmm' : memoryOf(p));
    const key = `${opts.padded === true ? 'P' : ''}${opts.packedCells === true ? 'K' : ''}${opts.live === true ? 'L' : ''}${memory}`;
    const forP = memo(this.byParams, p, () => new Map<string, CompiledProgram>());
    const known = forP.get(key);
    if (known) return known;
    const source = this.d.text(p);
    const defines = this.d.defines?.(p) ?? new Map<string, bigint>();
    const textKey = this.textKey(key, p);
    let c = this.byText.get(textKey);
    if (!c) {
      const layout = {
        ...(opts.padded !== undefined ? { padded: opts.padded } : {}),
        ...(opts.packedCells !== undefined ? { packedCells: opts.packedCells } : {}),
      };
      const r = compileProgram(source, {
        defines,
        layout,
        loopBounds: opts.live !== true,
        memory,
      });
      if (!r.ok) {
        const map = new LineMap(source);
        throw new ParamError(r.errors.map((e) => describeError(map, e)).join('; '));
      }
      c = r.program;
      if (this.byText.size > 256) this.byText.clear();
      this.byText.set(textKey, c);
    }
    forP.set(key, c);
    return c;
  }
}

/** The scenario of a text program. */
export function textScenario(d: TextScenarioDraft): Scenario {
  // The text says what Explore may do to it, so a copy explores as the entry does.
  const bounds = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, ...d.bounds };
  const full =
    d.bounds && d.verbatim !== true ? (p: Params) => withBounds(d.text(p), bounds) : d.text;
  const sample = d.sample ?? Object.fromEntries(d.params.map((q) => [q.name, q.default]));
  const compiled = new Compilations({ ...d, text: full }, sample);
  const observables = (p: Params): ObservableSpec[] =>
    compiled.get(p).clauses.observables.map((o) => ({
      name: o.name,
      description: o.description,
      read: (m, s) => o.read(m, s),
      ...(o.cpuSet ? { cpuSet: o.cpuSet } : {}),
    }));
  // The invariants' list is the sample's; each judges with the program of its own parameters.
  // Judged at every state Explore reaches: the program's invariants by id, looked up once per
  // parameter set.
  const byId = new WeakMap<Params, ReadonlyMap<string, LangInvariant>>();
  const invariantsOf = (p: Params) =>
    new Map(compiled.get(p).clauses.invariants.map((i) => [i.id, i]));
  const check = (p: Params, id: string) => memo(byId, p, invariantsOf).get(id);
  // Compiled when first asked for, not when the catalogue loads: the page starts without
  // compiling every entry's program.
  let listed: InvariantSpec[] | null = null;
  const invariants = (): InvariantSpec[] =>
    (listed ??= compiled.get(sample).clauses.invariants.map((inv) =>
      inv.when === 'final'
        ? {
            id: inv.id,
            when: 'final',
            description: inv.description,
            final: (_o, p, m, s) => check(p, inv.id)?.check(m, s) ?? null,
          }
        : {
            id: inv.id,
            when: 'always',
            description: inv.description,
            always: (m, s, p) => check(p, inv.id)?.check(m, s) ?? null,
            ...(inv.reads ? { reads: inv.reads } : {}),
          },
    ));
  const { text, defines, notes, sample: first, verbatim, underTso, compiled: kept, ...meta } = d;
  const sc = defineScenario({
    ...meta,
    params: meta.params.some((q) => q.name === MEMORY_PARAM.name)
      ? meta.params
      : [...meta.params, MEMORY_PARAM],
    text: full,
    program: (p, opts) => compiled.get(p, opts),
    build(p: Params, opts?: BuildOptions) {
      const program = compiled.get(p, opts);
      return {
        params: p,
        machine: program.machine,
        listing: {
          lines: program.source.replace(/\n$/, '').split('\n'),
          notes: [
            ...(notes?.(p) ?? []),
            ...(underTso !== undefined ? [underTso] : []),
            ...listingNotes(program),
          ],
        },
      };
    },
    observables,
    invariants: [],
  });
  Object.defineProperty(sc, 'invariants', { get: invariants, enumerable: true });
  return sc;
}

/** The program with a `#pragma lab bounds` line before its first #define (or after its name). */
function withBounds(source: string, b: Readonly<Record<string, number>>): string {
  // hotplugs only where a program has CPU hotplug, so every other entry's text is as it was.
  const hp = (b.hotplugs ?? 0) > 0 ? ` hotplugs=${b.hotplugs}` : '';
  const line = `#pragma lab bounds irqs=${b.irqs ?? 0} nmis=${b.nmis ?? 0} preemptions=${b.preemptions ?? 0} migrations=${b.migrations ?? 0}${hp}`;
  const lines = source.split('\n');
  const at = lines.findIndex((l) => l.startsWith('#define'));
  lines.splice(at >= 0 ? at : 1, 0, line);
  return lines.join('\n');
}

/** The notes a listing shows of its text: what its barriers do on this machine, by line. */
function listingNotes(p: CompiledProgram): string[] {
  return [...p.notes.entries()]
    .sort((a, b) => a[0] - b[0])
    .flatMap(([line, texts]) => texts.map((t) => `line ${line}: ${t}`));
}

/** The compiled program behind a text scenario's parameter set (Live's counter, the editor). */
export function compiledOf(sc: Scenario, p: Params, opts?: BuildOptions): CompiledProgram | null {
  return sc.program?.(p, opts) ?? null;
}
