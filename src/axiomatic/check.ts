// The axiomatic engine's answer for a compiled program under the kernel's memory model: every
// consistent execution (herd7's word), grouped by the end state it leaves, each end state a
// machine state, so the clauses a program already has (its condition, filter, observables and
// herd7's locations) judge it as they judge the explorer's end states.

import { hiOf, loOf } from '../machine/int64.ts';
import {
  CPU_CUR,
  CPU_IRQS,
  CPU_NMIS,
  CPU_TASKS,
  CTX_CPU,
  CTX_DONE,
  CTX_PC,
  CTX_REGS,
  CTX_RETRIES,
  CTX_TALLY,
  cpuBase,
  ctxBase,
  type Machine,
} from '../machine/machine.ts';
import { initialState } from '../machine/interpreter.ts';
import { Op } from '../machine/isa.ts';
import { memo } from '../machine/memo.ts';
import type { CompiledProgram } from '../lang/compiled.ts';
import { symbolWord } from '../lang/herdAnswer.ts';
import { candidates, skeleton, type Skeleton } from './candidates.ts';
import { herdNumbers } from './herdNames.ts';
import { Tag } from './events.ts';
import type { Execution } from './execution.ts';
import { exploreCandidates } from './exploreCheck.ts';
import { lkmm, type LkmmVerdict } from './lkmm.ts';
import { type AxiomaticModel, consistentUnder } from './models.ts';
import { modelThreads, type ModelThreads, withinBounds } from './plans.ts';
import { AxiomaticRefusal, atWidth, isLockEvent, planRuns, type ThreadRun } from './threads.ts';
import {
  addExtras,
  comparands,
  type Extras,
  nameUnknowns,
  resolve,
  supportedRuns,
  testedLoads,
  Tokens,
} from './unresolved.ts';

export { AxiomaticRefusal } from './threads.ts';

export interface AxiomaticLimits {
  /** How many times a loop may go round (herd7's default is 2). */
  readonly unroll: number;
  /** Most runs of one thread. */
  readonly maxRuns: number;
  /** Most combinations of thread runs. */
  readonly maxCombinations: number;
  /** Most candidate executions judged. */
  readonly maxCandidates: number;
  /** Most execution graphs the exploring engine makes, partial ones included (250,000). */
  readonly maxGraphs?: number;
}

/**
 * How the engine finds the consistent executions: `candidates` enumerates every candidate and
 * judges each, as herd7 does; `explore` builds execution graphs event by event (explore.ts,
 * GenMC's way) and judges each complete one, handing the few programs it cannot take to
 * `candidates` (exploreCheck.ts). By default the lab's own programs are explored (a counter's
 * reads multiply the candidates past what can be enumerated) and herd7's files enumerated: the
 * candidates herd7 keeps with unresolved values (unresolved.ts) are built only by enumerating.
 */
export type AxiomaticEngine = 'explore' | 'candidates';

export const DEFAULT_AXIOMATIC_LIMITS: AxiomaticLimits = {
  unroll: 2,
  maxRuns: 20_000,
  maxCombinations: 2_000_000,
  maxCandidates: 5_000_000,
};

/** One consistent execution, kept so a person can look at it. */
export interface AxiomaticExecution {
  readonly skeleton: Skeleton;
  readonly execution: Execution;
  readonly verdict: LkmmVerdict;
}

/** An end state and the consistent executions that reach it. */
export interface AxiomaticState {
  readonly state: Int32Array;
  /** How many consistent executions end here. */
  readonly executions: number;
  /** The first of them. */
  readonly example: AxiomaticExecution;
}

export interface AxiomaticResult {
  readonly model: AxiomaticModel;
  /** End states by a key of their memory and registers, in the order first reached. */
  readonly states: readonly AxiomaticState[];
  /** Consistent executions (herd7 counts these, not states). */
  readonly executions: number;
  /** Candidates the model judged, consistent or not (complete graphs, for `explore`). */
  readonly candidates: number;
  /** The engine that answered, and for `explore` the partial graphs it dropped. */
  readonly engine: AxiomaticEngine;
  readonly pruned: number;
  /** Why `explore` handed the program to `candidates`, or null. */
  readonly enumerated: string | null;
  /** Flags raised by some consistent execution (`data-race`…), sorted by name. */
  readonly flags: readonly string[];
  /** Runs left out because a loop went past the bound (herd7 then answers `Loop Ok`/`Loop No`). */
  readonly loopCut: boolean;
  readonly ms: number;
}

const now = (): number => Date.now();

/** Each machine's initial state (the layout's values, and what the machine sets: hotplug's masks). */
const initials = new WeakMap<Machine, Int32Array>();

/** The initial value of a location, read at a width (0 past the program's memory: the chains). */
function initialValue(m: Machine, loc: number, width: number): bigint {
  const s = memo(initials, m, () => initialState(m));
  const lo = loc < m.memWords ? (s[loc] ?? 0) : 0;
  if (width !== 64) return BigInt(lo);
  const hi = loc + 1 < m.memWords ? (s[loc + 1] ?? 0) : 0;
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo >>> 0));
}

/** The model's threads of a program (plans.ts). */
function threadsOf(p: CompiledProgram): ModelThreads {
  return modelThreads(p);
}

/**
 * Every run of each thread whose reads could return what they return: the initial state, a
 * write some run of another thread makes, and what herd7's symbolic reads stand for
 * (unresolved.ts: a tested read's comparands, a copied read's token), with the runs no other
 * thread's writes support left out.
 */
function valueSets(
  p: CompiledProgram,
  model: ModelThreads,
  limits: AxiomaticLimits,
  tokens: Tokens,
): { runs: (readonly ThreadRun[])[]; cut: boolean } {
  const m = p.machine;
  const threads = model.plans;
  // What each thread's runs write, by location: a thread's reads are offered the others'.
  const sets = threads.map(() => new Map<number, Set<bigint>>());
  const extras: Extras[] = threads.map(() => new Map<number, Set<bigint>>());
  // herd7's symbolic values stand in for the values a herd7 file's reads cannot settle; the
  // lab's own programs are answered on their values alone (the extras multiply a counter's
  // runs past what the engine enumerates, and herd7 cannot read those programs anyway).
  const herd = !isLabProgram(p);
  const constants = threads.map((t) => comparands(m.programs[t.ctx]?.instrs ?? []));
  const tested = threads.map((t) => testedLoads(m.programs[t.ctx]?.instrs ?? []));
  const valuesFor =
    (t: number) =>
    (loc: number, width: number): bigint[] => {
      const out = new Set<bigint>([initialValue(m, loc, width)]);
      sets.forEach((byLoc, u) => {
        if (u !== t) for (const v of byLoc.get(loc) ?? []) out.add(atWidth(v, width));
      });
      for (const v of extras[t]?.get(loc) ?? []) out.add(atWidth(v, width));
      return [...out].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    };
  for (let round = 0; ; round++) {
    let grew = false;
    let cut = false;
    const runs = threads.map((t, i) => {
      const r = planRuns(m, t, model.scheduling, valuesFor(i), limits);
      if (r.cut > 0) cut = true;
      return r.runs;
    });
    for (const [i, rs] of runs.entries())
      for (const r of rs)
        for (const e of r.events) {
          if (e.dir !== 'W' || isLockEvent(e.tags)) continue;
          const mine = sets[i] as Map<number, Set<bigint>>;
          const set = mine.get(e.loc) ?? new Set<bigint>();
          mine.set(e.loc, set);
          if (!set.has(e.value)) {
            set.add(e.value);
            grew = true;
            if (set.size > 256)
              throw new AxiomaticRefusal(
                'a location may hold more than 256 values (a loop that counts without bound?): too many to enumerate',
              );
          }
        }
    if (herd && addExtras(extras, runs, constants, tested, tokens)) grew = true;
    // A value a read may really return comes down a chain of reads, each reading a write that
    // the one before computed, and no read twice in a chain (herd7 drops such self-justifying
    // values unless they only copy one another). So chains are no longer than all the reads a
    // run of each thread makes, and a round per read (and one to offer the extras) is enough:
    // later rounds only add values no execution can justify.
    const reads = runs.reduce(
      (n, rs) => n + Math.max(0, ...rs.map((r) => r.events.filter((e) => e.dir === 'R').length)),
      0,
    );
    if (!grew || round > reads + 1)
      return { runs: supportedRuns(runs, (loc, width) => initialValue(m, loc, width)), cut };
    if (round > 64)
      throw new AxiomaticRefusal(
        'the values a read may return do not settle: too many to enumerate',
      );
  }
}

/**
 * Whether every ordinary read of a combination of runs has a write it could read from: the
 * initial value or some run's write of the same value at the same location. Most combinations
 * of guessed values fail this, and are dropped before their relations are built.
 */
function sourced(
  runs: readonly ThreadRun[],
  initial: (loc: number, width: number) => bigint,
): boolean {
  const written = new Map<number, bigint[]>();
  for (const r of runs)
    for (const e of r.events)
      if (e.dir === 'W' && !isLockEvent(e.tags)) {
        const at = written.get(e.loc);
        if (at) at.push(e.value);
        else written.set(e.loc, [e.value]);
      }
  for (const r of runs)
    for (const e of r.events) {
      if (e.dir !== 'R' || isLockEvent(e.tags)) continue;
      if (initial(e.loc, e.width) === e.value) continue;
      if (!(written.get(e.loc) ?? []).some((v) => atWidth(v, e.width) === e.value)) return false;
    }
  return true;
}

/** What the runs of some threads may write: per location, every value any of their runs writes. */
type WriteSets = ReadonlyMap<number, readonly bigint[]>;

/** For each thread i, what the threads from i on may write (the last entry: nothing). */
function laterWrites(runs: readonly (readonly ThreadRun[])[]): WriteSets[] {
  const out: WriteSets[] = [];
  let acc = new Map<number, Set<bigint>>();
  out[runs.length] = new Map();
  for (let i = runs.length - 1; i >= 0; i--) {
    acc = new Map([...acc].map(([k, v]) => [k, new Set(v)]));
    for (const r of runs[i] ?? [])
      for (const e of r.events)
        if (e.dir === 'W' && !isLockEvent(e.tags)) {
          const set = acc.get(e.loc) ?? new Set<bigint>();
          set.add(e.value);
          acc.set(e.loc, set);
        }
    out[i] = new Map([...acc].map(([k, v]) => [k, [...v]]));
  }
  return out;
}

/**
 * Whether every ordinary read of the runs picked so far could read from a write: the initial
 * value, a picked run's write of the same value, or one some thread still to be picked may write.
 */
function sourcedBy(
  picked: readonly ThreadRun[],
  later: WriteSets,
  initial: (loc: number, width: number) => bigint,
): boolean {
  const written = new Map<number, bigint[]>();
  for (const r of picked)
    for (const e of r.events)
      if (e.dir === 'W' && !isLockEvent(e.tags)) {
        const at = written.get(e.loc);
        if (at) at.push(e.value);
        else written.set(e.loc, [e.value]);
      }
  for (const r of picked)
    for (const e of r.events) {
      if (e.dir !== 'R' || isLockEvent(e.tags)) continue;
      if (initial(e.loc, e.width) === e.value) continue;
      const same = (v: bigint) => atWidth(v, e.width) === e.value;
      if ((written.get(e.loc) ?? []).some(same) || (later.get(e.loc) ?? []).some(same)) continue;
      return false;
    }
  return true;
}

/**
 * The machine state an execution ends in: each context's registers (a task's at its end, a
 * handler's when it last returned), tally and retries, what record() kept, and each location's
 * last write.
 */
function endState(m: Machine, model: ModelThreads, sk: Skeleton, x: Execution): Int32Array {
  const s = initialState(m);
  for (let k = 0; k < m.cpus; k++) {
    s[cpuBase(m, k) + CPU_CUR] = -1;
    s[cpuBase(m, k) + CPU_TASKS] = 0;
  }
  const setRegs = (ctx: number, regs: readonly bigint[]) => {
    const cb = ctxBase(m, ctx);
    regs.forEach((v, r) => {
      s[cb + CTX_REGS + 2 * r] = loOf(v);
      s[cb + CTX_REGS + 2 * r + 1] = hiOf(v);
    });
  };
  const tallies = new Map<number, bigint>();
  const retries = new Map<number, number>();
  const used = new Set<number>();
  model.plans.forEach((t, i) => {
    const run = sk.runs[i] as ThreadRun;
    const cb = ctxBase(m, t.ctx);
    if (t.idle === undefined) {
      s[cb + CTX_PC] = m.code[t.ctx]?.length ?? 0;
      s[cb + CTX_DONE] = 1;
      if (run.cpu !== undefined) s[cb + CTX_CPU] = run.cpu;
      setRegs(t.ctx, run.regs);
    } else if (run.events.length > 0) {
      setRegs(t.ctx, run.regs);
      if (t.hotplug !== undefined) s[cb + CTX_DONE] = 1;
    }
    for (const [ctx, regs] of run.finals ?? []) setRegs(ctx, regs);
    for (const [ctx, v] of run.tallies ?? []) tallies.set(ctx, (tallies.get(ctx) ?? 0n) + v);
    for (const [ctx, n] of run.retries ?? []) retries.set(ctx, (retries.get(ctx) ?? 0) + n);
    for (const [k, [irqs, nmis]] of run.handled ?? []) {
      s[cpuBase(m, k) + CPU_IRQS] = (s[cpuBase(m, k) + CPU_IRQS] as number) + irqs;
      s[cpuBase(m, k) + CPU_NMIS] = (s[cpuBase(m, k) + CPU_NMIS] as number) + nmis;
    }
    for (const [base, capacity, v] of run.records) {
      const at = m.resOff + base;
      if (!used.has(at)) s[at] = 0;
      used.add(at);
      const n = s[at] as number;
      const k = n < capacity ? n : capacity - 1;
      s[at + 1 + 2 * k] = loOf(v);
      s[at + 2 + 2 * k] = hiOf(v);
      s[at] = k + 1;
    }
  });
  for (const [ctx, v] of tallies) {
    const cb = ctxBase(m, ctx);
    s[cb + CTX_TALLY] = loOf(v);
    s[cb + CTX_TALLY + 1] = hiOf(v);
  }
  for (const [ctx, n] of retries) s[ctxBase(m, ctx) + CTX_RETRIES] = n;
  // Each location's last write in co (a lock's word aside: the model does not value it).
  for (const w of sk.events) {
    if (w.dir !== 'W' || isLockEvent(w.tags) || w.loc >= m.memWords) continue;
    if (x.co.successors(w.id).some((v) => !isLockEvent((sk.events[v] as { tags: number }).tags)))
      continue;
    const width = sk.origin[w.id]?.width ?? widthAt(sk, w.loc);
    s[w.loc] = loOf(w.value);
    if (width === 64) s[w.loc + 1] = hiOf(w.value);
  }
  return s;
}

function widthAt(sk: Skeleton, loc: number): number {
  let w = 32;
  for (const o of sk.origin) if (o && o.loc === loc) w = Math.max(w, o.width);
  return w;
}

function stateKey(s: Int32Array, m: Machine): string {
  // Memory, then every context's registers and the results: what a clause can read.
  return (
    Array.from(s.subarray(0, m.cpuOff)).join(',') + '|' + Array.from(s.subarray(m.ctxOff)).join(',')
  );
}

/**
 * How many times a loop may go round. herd7 unrolls a litmus test's loops twice (its -unroll
 * 2), and `#pragma lab loop_bound N` gives N; the lab's own programs (a counter, observables,
 * invariants, records) go round as often as the program's loop_bound (8 by default), the bound
 * Explore's machine also stops a loop at.
 */
function unrollOf(p: CompiledProgram, limits: AxiomaticLimits): number {
  if (p.ast.items.some((it) => it.kind === 'pragma' && it.key === 'loop_bound'))
    return p.module.settings.loopBound;
  return isLabProgram(p) ? p.module.settings.loopBound : limits.unroll;
}

/** A program in the lab's own form (a counter, observables, invariants, records, a pragma). */
function isLabProgram(p: CompiledProgram): boolean {
  return (
    p.recordCounts.size > 0 ||
    p.ast.items.some(
      (it) =>
        it.kind === 'counter' ||
        it.kind === 'observe' ||
        it.kind === 'invariant' ||
        it.kind === 'pragma',
    )
  );
}

/**
 * herd7's number for each unknown of a candidate (herdNames.ts), or, for code herdNames.ts does
 * not number, the unknowns counted from 1 in the order their tokens were made; null when the
 * numbering finds an unknown the run computes with or tests (herd7 drops the candidate).
 */
function unknownNames(
  p: CompiledProgram,
  sk: Skeleton,
  unknowns: ReadonlyMap<bigint, readonly number[]>,
): Map<bigint, number> | null {
  if (unknowns.size === 0) return new Map();
  const readIndex = (id: number) => {
    const e = sk.events[id] as { thread: number; po: number };
    const run = sk.runs[e.thread] as ThreadRun;
    let k = 0;
    for (let i = 0; i < e.po; i++) {
      const o = run.events[i];
      if (o && o.dir === 'R' && !isLockEvent(o.tags)) k++;
    }
    return { thread: e.thread, read: k };
  };
  const numbering = herdNumbers(p.ast, sk.runs, readIndex, unknowns);
  if (numbering === null) return new Map([...unknowns.keys()].map((t, i) => [t, i + 1]));
  return numbering.dropped ? null : numbering.names;
}

/**
 * A candidate whose events show its unknowns by herd7's names (S8) instead of the engine's
 * tokens, for the graph and the words that describe it; the model reads no value.
 */
function named(
  sk: Skeleton,
  x: Execution,
  names: ReadonlyMap<bigint, number>,
  state: Int32Array,
): Candidate {
  const events = sk.events.map((e) => {
    const n = names.get(e.value);
    return n === undefined ? e : { ...e, value: BigInt(symbolWord(n)) };
  });
  return { skeleton: { ...sk, events }, execution: { ...x, events }, state };
}

/** One candidate execution of a program and the end state it leaves. */
export interface Candidate {
  readonly skeleton: Skeleton;
  readonly execution: Execution;
  readonly state: Int32Array;
}

/** A program's candidates, and whether some runs were cut at a loop bound. */
export interface Candidates {
  readonly all: Iterable<Candidate>;
  readonly loopCut: boolean;
}

/**
 * Every candidate execution of a program, consistent or not, that herd7 keeps (its values solved,
 * or unknown only through copies: unresolved.ts) and whose end state passes the program's
 * filter; throws AxiomaticRefusal for a program the engine cannot take, with the reason and the
 * size found.
 */
export function candidatesOf(
  p: CompiledProgram,
  limits: AxiomaticLimits = DEFAULT_AXIOMATIC_LIMITS,
): Candidates {
  const m = p.machine;
  const threads = threadsOf(p);
  const bound = unrollOf(p, limits);
  const tokens = new Tokens();
  const { runs, cut } = valueSets(p, threads, { ...limits, unroll: bound }, tokens);
  // An unsolved read of an exchange leaves no equation; of any other read-modify-write it does.
  const rmwKept = (sk: Skeleton) => (id: number) => {
    const e = sk.events[id];
    const ctx = e ? (sk.origin[id]?.ctx ?? threads.plans[e.thread]?.ctx) : undefined;
    return ctx !== undefined && m.code[ctx]?.[e?.pc ?? -1]?.op === Op.Xchg;
  };
  runs.forEach((r, i) => {
    if (r.length === 0 && cut)
      throw new AxiomaticRefusal(
        `every run of ${threads.names[i] ?? 'a thread'} goes round a loop more than ${bound} times, the bound`,
        'loop-bound',
      );
  });
  const { bounds } = threads.scheduling;
  const initial = (loc: number, width: number) => initialValue(m, loc, width);
  const later = laterWrites(runs);
  const filter = p.clauses.filter;
  function* all(): Generator<Candidate> {
    const pick: ThreadRun[] = [];
    let judged = 0;
    let combined = 0;
    function* visit(i: number): Generator<Candidate> {
      // A partial combination whose reads no run left to pick could source, or that spends
      // more of the bounds than the program allows, has no candidate: dropped here, before
      // the threads after it multiply it.
      if (i > 0 && i < runs.length) {
        if (
          !withinBounds(
            pick.map((r) => r.spent),
            bounds,
          )
        )
          return;
        if (!sourcedBy(pick, later[i] as WriteSets, initial)) return;
      }
      if (i === runs.length) {
        if (
          !withinBounds(
            pick.map((r) => r.spent),
            bounds,
          )
        )
          return;
        if (!sourced(pick, initial)) return;
        if (++combined > limits.maxCombinations)
          throw new AxiomaticRefusal(
            `the threads' runs combine in more than ${limits.maxCombinations} ways that source every read (${runs.map((r) => r.length).join(' × ')} runs): more than the engine enumerates`,
          );
        const sk = skeleton(pick.slice(), (loc, width) => initialValue(m, loc, width));
        const kept = rmwKept(sk);
        for (const x of candidates(sk)) {
          const resolution = resolve(sk, x, tokens, kept);
          if (!resolution.kept) continue;
          const names = unknownNames(p, sk, resolution.unknowns);
          if (names === null) continue;
          const state = nameUnknowns(endState(m, threads, sk, x), names);
          if (filter && !filter(m, state)) continue;
          if (++judged > limits.maxCandidates)
            throw new AxiomaticRefusal(
              `more than ${limits.maxCandidates} candidate executions: too many to judge`,
            );
          yield names.size === 0
            ? { skeleton: sk, execution: x, state }
            : named(sk, x, names, state);
        }
        return;
      }
      for (const r of runs[i] as readonly ThreadRun[]) {
        pick.push(r);
        yield* visit(i + 1);
        pick.pop();
      }
    }
    yield* visit(0);
  }
  return { all: all(), loopCut: cut };
}

/**
 * Every consistent execution of a program under the LKMM; throws AxiomaticRefusal for a program
 * the engine cannot take, with the reason and the size found.
 */
export function checkLkmm(
  p: CompiledProgram,
  limits: AxiomaticLimits = DEFAULT_AXIOMATIC_LIMITS,
): AxiomaticResult {
  return checkUnder('lkmm', p, limits);
}

/**
 * Every execution of a program consistent under `model`: the kernel's (with its flags), or sc or
 * x86-TSO judged axiomatically (src/axiomatic/models.ts), which counts executions as herd7 does.
 * `engine` picks how they are found (the answer is the same; see AxiomaticEngine).
 */
export function checkUnder(
  model: AxiomaticModel,
  p: CompiledProgram,
  limits: AxiomaticLimits = DEFAULT_AXIOMATIC_LIMITS,
  engine: AxiomaticEngine = isLabProgram(p) ? 'explore' : 'candidates',
): AxiomaticResult {
  const t0 = now();
  const m = p.machine;
  const states = new Map<
    string,
    { state: Int32Array; executions: number; example: AxiomaticExecution }
  >();
  const flags = new Set<string>();
  let executions = 0;
  let judged = 0;
  const judge = ({ skeleton: sk, execution: x, state }: Candidate): void => {
    judged++;
    const verdict = lkmm(x);
    if (model === 'lkmm' ? !verdict.consistent : !consistentUnder(model, x)) return;
    executions++;
    if (model === 'lkmm') for (const f of verdict.flags) flags.add(f);
    const key = stateKey(state, m);
    const seen = states.get(key);
    if (seen) seen.executions++;
    else
      states.set(key, { state, executions: 1, example: { skeleton: sk, execution: x, verdict } });
  };
  const found = engine === 'explore' ? explored(p, limits, judge) : null;
  let loopCut: boolean;
  if (found !== null && !('fallback' in found)) loopCut = found.loopCut;
  else {
    const c = candidatesOf(p, limits);
    for (const x of c.all) judge(x);
    loopCut = c.loopCut;
  }
  const explorer = found !== null && !('fallback' in found) ? found : null;
  return {
    model,
    states: [...states.values()],
    executions,
    candidates: judged,
    engine: explorer ? 'explore' : 'candidates',
    pruned: explorer ? explorer.pruned + explorer.blocked + explorer.duplicates : 0,
    enumerated: found !== null && 'fallback' in found ? found.fallback : null,
    flags: [...flags].sort(),
    loopCut,
    ms: now() - t0,
  };
}

/**
 * The exploring engine's answer (explore.ts), each candidate handed to `judge`, or why it hands
 * the program back. Like candidatesOf, it refuses a program whose every execution is cut.
 */
function explored(p: CompiledProgram, limits: AxiomaticLimits, judge: (c: Candidate) => void) {
  const m = p.machine;
  const threads = threadsOf(p);
  const unroll = unrollOf(p, limits);
  const counts = exploreCandidates(
    p,
    {
      threads,
      initial: (loc, width) => initialValue(m, loc, width),
      endState: (sk, x) => endState(m, threads, sk, x),
      unroll,
      // Ten to twenty seconds here, several times what the catalogue's largest answer visits.
      maxVisits: limits.maxGraphs ?? 250_000,
    },
    judge,
  );
  if (!('fallback' in counts) && counts.complete === 0 && counts.loopCut)
    throw new AxiomaticRefusal(
      `every execution goes round a loop more than ${unroll} times, the bound`,
      'loop-bound',
    );
  return counts;
}

/** Whether an event is an initial write. */
export function isInitialWrite(tags: number): boolean {
  return (tags & Tag.Init) !== 0;
}
