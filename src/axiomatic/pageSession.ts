// The page's axiomatic session: the kernel's memory model (memory lkmm) on one program at a
// time, as the axiomatic worker runs it (src/workers/axiomaticApi.ts exposes it). `answer`
// answers as herd7 does and keeps the program, so that what follows on the same worker (an end
// state's execution graph, "Why not?", "Be the memory system") is a quick call, not a new
// enumeration. Everything returned is plain data; a program the engine cannot take comes back as
// a refusal with the engine's reason, not as an error. Pure, so Node tests call it directly and
// the store's port is typed by it without reaching into src/workers.

import {
  AxiomaticRefusal,
  type AxiomaticResult,
  type Candidate,
  candidatesOf,
  checkLkmm,
} from './check.ts';
import { executionGraph, type ExecutionGraph, whyNot } from './explain.ts';
import { herdOf } from './herd.ts';
import { refusalAdvice } from './refusalAdvice.ts';
import { MemorySystem, type MemorySystemView, type ReadChoice } from './memorySystem.ts';
import type { CompiledProgram } from '../lang/compiled.ts';
import { herdLine, type HerdAnswer } from '../lang/herdAnswer.ts';
import { openRequest, type ScenarioRequest } from '../scenarios/index.ts';
import { observablesLine, observe, type Violation } from '../scenarios/outcome.ts';
import { lkmmViolations, type NotJudged, notJudgedUnderLkmm } from './judge.ts';
import { type MarkedAnswer, racesAnswer } from './outcomes.ts';
import type { Race } from './races.ts';
import { ParamError, resolveParams } from '../scenarios/params.ts';
import type { Params, Scenario } from '../scenarios/types.ts';

export interface AxiomaticRequest extends ScenarioRequest {
  /** Parameter overrides as text, as links carry them (memory=lkmm among them). */
  readonly params: Readonly<Record<string, string>>;
}

/** An end state the model allows, and how many consistent executions reach it. */
export interface AxiomaticStateJson {
  /** As herd7 prints it (`1:r0=1; 1:r1=0;`), or the program's observables where herd7 has none. */
  readonly line: string;
  readonly executions: number;
  /** Whether the program's final condition holds in it; null for a program without one. */
  readonly condition: boolean | null;
  /** The program's final invariants it breaks. */
  readonly broken: readonly Violation[];
}

/** What the answer passes on from the engine's result as it is (check.ts says what each is). */
type AxiomaticCounts = Pick<
  AxiomaticResult,
  'executions' | 'candidates' | 'engine' | 'pruned' | 'flags' | 'loopCut' | 'ms'
>;

export type AxiomaticAnswer =
  | (AxiomaticCounts & {
      readonly ok: true;
      readonly model: 'lkmm';
      /** The program's name (herd7's test name). */
      readonly name: string;
      /** herd7's answer (text, states, Ok/No, Observation) where the program has a condition. */
      readonly herd: HerdAnswer | null;
      readonly states: readonly AxiomaticStateJson[];
      /** The program's invariants the model does not judge, each with the reason (judge.ts). */
      readonly notJudged: readonly NotJudged[];
      /** The accesses that race, where the model raises `Flag data-race` (races.ts). */
      readonly races: readonly Race[];
      /** The answer with those accesses marked, or null. */
      readonly marked: MarkedAnswer | null;
      /**
       * The condition's state is never reached although some candidate execution reaches it:
       * how many such candidates "Why not?" can show (at most WHY_NOT_LIMIT); 0 otherwise.
       */
      readonly whyNot: number;
    })
  | {
      readonly ok: false;
      readonly model: 'lkmm';
      /** Why the engine cannot take the program, in its words. */
      readonly refusal: string;
    };

/** A read of "Be the memory system", with its name without the value it happens to read. */
export interface MemoryRead extends ReadChoice {
  /** "P1: R flag": the read, whichever write it reads from. */
  readonly name: string;
}

export type MemoryView = Omit<MemorySystemView, 'reads'> & {
  readonly reads: readonly MemoryRead[];
};

/** The most forbidden candidates "Why not?" shows. */
export const WHY_NOT_LIMIT = 12;
/** The most candidates "Be the memory system" chooses among (a litmus test has tens). */
export const MEMORY_SYSTEM_LIMIT = 20_000;

interface Session {
  readonly program: CompiledProgram;
  readonly result: AxiomaticResult;
  /** For each end state the answer lists, the result's state it shows an execution of. */
  readonly shown: readonly number[];
  /** An end state as the answer's lines read it (herd7's, or the program's observables). */
  readonly line: (s: Int32Array) => string;
  memory: MemorySystem | null;
  /** "Why not?"'s graphs, once made. */
  whyNot: ExecutionGraph[] | null;
}

function programOf(req: AxiomaticRequest): { sc: Scenario; params: Params; p: CompiledProgram } {
  const sc = openRequest(req, 'lkmm');
  const params = resolveParams(sc, { ...req.params, memory: 'lkmm' });
  const p = sc.program?.(params);
  if (!p) throw new ParamError(`${sc.id} is not a program the memory model can read`);
  return { sc, params, p };
}

function stateLine(sc: Scenario, params: Params, p: CompiledProgram, s: Int32Array): string {
  if (p.clauses.herdLocations.length > 0) return herdLine(p, s).line;
  return observablesLine(observe(sc, p.machine, s, params));
}

const withName = (r: ReadChoice): MemoryRead => ({ ...r, name: r.label.replace(/=[^=]*$/, '') });

/**
 * A refusal in the page's words: a catalogue entry is made smaller in the Parameters panel, and
 * its text takes a #pragma in a copy (Edit a copy); a program's own text keeps the engine's.
 */
export function refusalInPage(
  opened: { readonly sc: Scenario; readonly params: Params },
  e: AxiomaticRefusal,
): string {
  return refusalAdvice(opened.sc, opened.params, e, {
    loopBound: () =>
      'a catalogue entry takes no #pragma: Edit a copy, and raise the bound in its text with #pragma lab loop_bound',
    setting: (name, value) => `${name} ${String(value)} in Parameters`,
    parameters: () => 'the Parameters panel lists them',
  });
}

/** A fresh API: one open program at a time (the worker entry exposes one; tests make their own). */
export function createAxiomaticApi() {
  let session: Session | null = null;

  const open = (): Session => {
    if (!session) throw new Error('no program is open: answer one first');
    return session;
  };
  const memorySystem = (s: Session): MemorySystem => {
    if (s.memory) return s.memory;
    // The answer may come from the exploring engine, which never lists the candidates: they are
    // enumerated here, and counted as they come.
    const all: Candidate[] = [];
    for (const c of candidatesOf(s.program).all) {
      if (all.length === MEMORY_SYSTEM_LIMIT)
        throw new AxiomaticRefusal(
          `the program has more than ${MEMORY_SYSTEM_LIMIT.toLocaleString('en')} candidate executions, more than one can choose among read by read`,
        );
      all.push(c);
    }
    s.memory = new MemorySystem(s.program, all);
    return s.memory;
  };
  const memoryView = (v: MemorySystemView): MemoryView => ({ ...v, reads: v.reads.map(withName) });
  const forbiddenReaching = (s: Session): ExecutionGraph[] => {
    const p = s.program;
    const cond = p.clauses.condition;
    if (!cond) return [];
    s.whyNot ??= whyNot(p, candidatesOf(p).all, (st) => cond.holds(p.machine, st), WHY_NOT_LIMIT);
    return s.whyNot;
  };

  // "Why not?" enumerates candidates, which a program the exploring engine answered may have too
  // many of: then it offers none (and says why when asked).
  const forbiddenCount = (s: Session): number => {
    try {
      return forbiddenReaching(s).length;
    } catch (e) {
      if (e instanceof AxiomaticRefusal) return 0;
      throw e;
    }
  };

  return {
    /**
     * Answers a program under the kernel's memory model, as herd7 does, and keeps it open for the
     * calls below. A program the engine cannot take (interrupts, too many executions, a compile
     * error) is refused with the reason.
     */
    answer(req: AxiomaticRequest): AxiomaticAnswer {
      session = null;
      let opened: ReturnType<typeof programOf> | null = null;
      let result: AxiomaticResult;
      try {
        opened = programOf(req);
        result = checkLkmm(opened.p);
      } catch (e) {
        if (e instanceof AxiomaticRefusal && opened)
          return { ok: false, model: 'lkmm', refusal: refusalInPage(opened, e) };
        if (e instanceof AxiomaticRefusal || e instanceof ParamError)
          return { ok: false, model: 'lkmm', refusal: e.message };
        throw e;
      }
      const { sc, params, p } = opened;
      const herd = herdOf(p, result, { seconds: result.ms / 1000 });
      const cond = p.clauses.condition;
      // End states that read alike (registers the line does not show differ) are one line, with
      // their executions added up; its "Show an execution" shows the first's.
      const byLine = new Map<string, { json: AxiomaticStateJson; first: number }>();
      result.states.forEach((s, i) => {
        const line = stateLine(sc, params, p, s.state);
        const seen = byLine.get(line);
        if (seen) {
          seen.json = { ...seen.json, executions: seen.json.executions + s.executions };
          return;
        }
        const json: AxiomaticStateJson = {
          line,
          executions: s.executions,
          condition: cond ? cond.holds(p.machine, s.state) : null,
          broken: lkmmViolations(
            sc,
            observe(sc, p.machine, s.state, params),
            params,
            p.machine,
            s.state,
          ),
        };
        byLine.set(line, { json, first: i });
      });
      const states = [...byLine.values()].map((g) => g.json);
      const kept: Session = {
        program: p,
        result,
        shown: [...byLine.values()].map((g) => g.first),
        line: (st) => stateLine(sc, params, p, st),
        memory: null,
        whyNot: null,
      };
      session = kept;
      const never = cond !== null && !states.some((s) => s.condition === true);
      const forbidden = never ? forbiddenCount(kept) : 0;
      return {
        ok: true,
        model: 'lkmm',
        name: p.name,
        herd,
        states,
        executions: result.executions,
        candidates: result.candidates,
        engine: result.engine,
        pruned: result.pruned,
        flags: result.flags,
        loopCut: result.loopCut,
        notJudged: notJudgedUnderLkmm(sc),
        ...racesAnswer(sc, params, p, result),
        ms: result.ms,
        whyNot: forbidden,
      };
    },

    /** The graph of one consistent execution that ends in end state `index` of the answer. */
    execution(index: number): ExecutionGraph {
      const s = open();
      const st = s.result.states[s.shown[index] ?? -1];
      if (!st) throw new Error(`the answer has no end state ${index + 1}`);
      const x = st.example;
      // Named by the line the answer lists it under (a program without herd7's locations has
      // only its observables to name an end state by).
      return {
        ...executionGraph(s.program, x.skeleton, x.execution, st.state, x.verdict),
        state: s.line(st.state),
      };
    },

    /**
     * "Why not?": the candidate executions that would reach the condition's state, each forbidden,
     * with the axiom it breaks and the cycle that breaks it (none when the state is reached).
     */
    whyNot(): ExecutionGraph[] {
      const s = open();
      const cond = s.program.clauses.condition;
      if (!cond || s.result.states.some((st) => cond.holds(s.program.machine, st.state))) return [];
      return forbiddenReaching(s);
    },

    /** "Be the memory system": the reads, their choices so far, and what the model says. */
    memoryView(): MemoryView {
      return memoryView(memorySystem(open()).view());
    },

    /** Chooses the write a read sees (null: takes the choice back). */
    memoryChoose(read: string, write: string | null): MemoryView {
      return memoryView(memorySystem(open()).choose(read, write));
    },

    /** Forgets every choice. */
    memoryReset(): MemoryView {
      return memoryView(memorySystem(open()).reset());
    },
  };
}
