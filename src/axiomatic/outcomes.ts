// A scenario under the kernel's memory model, as Explore shows one: its outcomes (the observables
// of each end state the model allows, with the final invariants it breaks and how many
// executions reach it) and, when the program has a condition, herd7's answer. The explorer's
// outcomes carry a witness schedule; these carry an execution to look at instead.

import { herdLine, type HerdAnswer } from '../lang/herdAnswer.ts';
import { jsonObservables, observe, type Violation } from '../scenarios/outcome.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import type { CompiledProgram } from '../lang/compiled.ts';
import { AxiomaticRefusal, type AxiomaticResult, checkLkmm } from './check.ts';
import { herdOf } from './herd.ts';
import { lkmmViolations, type NotJudged, notJudgedUnderLkmm } from './judge.ts';
import { dataRaces, type Race, withRacesMarked } from './races.ts';

export interface AxiomaticOutcome {
  /** Observables as JSON (64-bit values beyond 2^53 as decimal strings). */
  readonly observables: Readonly<Record<string, unknown>>;
  readonly violations: readonly Violation[];
  /** Consistent executions ending here. */
  readonly executions: number;
  /** The end state as herd7 prints it (over the condition's and `locations`' locations). */
  readonly state: string;
}

export interface AxiomaticAnswer {
  readonly model: 'lkmm';
  readonly outcomes: readonly AxiomaticOutcome[];
  readonly executions: number;
  readonly candidates: number;
  readonly engine: AxiomaticResult['engine'];
  readonly pruned: number;
  readonly flags: readonly string[];
  readonly loopCut: boolean;
  /** The program's invariants the model does not judge, each with the reason (judge.ts). */
  readonly notJudged: readonly NotJudged[];
  /** The accesses that race, where the model raises `Flag data-race` (races.ts). */
  readonly races: readonly Race[];
  /** The answer with those accesses marked (READ_ONCE()/WRITE_ONCE()), or null. */
  readonly marked: MarkedAnswer | null;
  readonly herd: HerdAnswer | null;
  readonly ms: number;
}

/** What marking the racing accesses changes: the answer of the marked program. */
export interface MarkedAnswer {
  readonly outcomes: number;
  readonly executions: number;
  /** The invariants some outcome breaks, sorted. */
  readonly broken: readonly string[];
  readonly flags: readonly string[];
}

/** The races of an answer (races.ts), and what marking their plain accesses changes. */
export function racesAnswer(
  sc: Scenario,
  params: Params,
  p: CompiledProgram,
  r: AxiomaticResult,
): { races: Race[]; marked: MarkedAnswer | null } {
  const m = p.machine;
  const races = dataRaces(p, r);
  const again = races.length > 0 ? withRacesMarked(p, races) : null;
  if (!again) return { races, marked: null };
  const observed = again.result.states.map((s) => ({ s, o: observe(sc, m, s.state, params) }));
  return {
    races,
    marked: {
      outcomes: new Set(observed.map(({ o }) => JSON.stringify(jsonObservables(o)))).size,
      executions: again.result.executions,
      broken: [
        ...new Set(
          observed.flatMap(({ s, o }) =>
            lkmmViolations(sc, o, params, m, s.state).map((v) => v.id),
          ),
        ),
      ].sort(),
      flags: again.result.flags,
    },
  };
}

/** A scenario's answer under lkmm; throws AxiomaticRefusal with the reason when it has none. */
export function axiomaticAnswer(sc: Scenario, params: Params): AxiomaticAnswer {
  const p = sc.program?.(params);
  if (!p)
    throw new AxiomaticRefusal(
      `${sc.id} is built by code, not from a program: the memory model reads programs`,
    );
  const r = checkLkmm(p);
  const m = p.machine;
  const byKey = new Map<string, { o: AxiomaticOutcome; n: number }>();
  for (const s of r.states) {
    const obs = observe(sc, m, s.state, params);
    const o: AxiomaticOutcome = {
      observables: jsonObservables(obs),
      violations: lkmmViolations(sc, obs, params, m, s.state),
      executions: s.executions,
      state: herdLine(p, s.state).line,
    };
    const key = JSON.stringify(o.observables);
    const seen = byKey.get(key);
    if (seen) seen.n += s.executions;
    else byKey.set(key, { o, n: s.executions });
  }
  const herd = herdOf(p, r);
  const { races, marked } = racesAnswer(sc, params, p, r);
  return {
    model: 'lkmm',
    outcomes: [...byKey.values()].map(({ o, n }) => ({ ...o, executions: n })),
    executions: r.executions,
    candidates: r.candidates,
    engine: r.engine,
    pruned: r.pruned,
    flags: r.flags,
    loopCut: r.loopCut,
    notJudged: notJudgedUnderLkmm(sc),
    races,
    marked,
    herd,
    ms: r.ms,
  };
}
