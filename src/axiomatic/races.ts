// Data races in words. The kernel's memory model raises `Flag data-race` when, in some
// consistent execution, two accesses to one location from different threads conflict (one
// writes), at least one is plain (not READ_ONCE(), WRITE_ONCE(), an atomic or a lock's), and
// nothing orders them (tools/memory-model/Documentation/explanation.txt, "PLAIN ACCESSES AND
// DATA RACES"). A racy program is undefined in C and the model's other guarantees do not hold
// for it, so the answer must say which accesses race, and what marking them would change: the
// same program with those accesses marked, answered again.

import type { CompiledProgram } from '../lang/compiled.ts';
import { Mode, Op, type Instr } from '../machine/isa.ts';
import type { Machine } from '../machine/machine.ts';
import { Tag } from '../machine/tags.ts';
import type { Skeleton } from './candidates.ts';
import {
  type AxiomaticLimits,
  type AxiomaticResult,
  candidatesOf,
  checkLkmm,
  DEFAULT_AXIOMATIC_LIMITS,
} from './check.ts';
import { instructionOf, locationName } from './explain.ts';
import { lkmm } from './lkmm.ts';
import { isChain, modelThreads, type ModelThreads } from './plans.ts';

/** One side of a race: the access, where it is in the program, and who makes it. */
export interface RaceAccess {
  /** The model's thread that makes it ("P0"), or the handler inside it ("IRQ0 in P0"). */
  readonly who: string;
  /** The CPU it runs on then (a task may have migrated before it). */
  readonly cpu: number;
  readonly kind: 'read' | 'write';
  readonly marked: boolean;
  /** The line of the program's text (1-based), or 0. */
  readonly line: number;
  /** The statement as written, or ''. */
  readonly statement: string;
  /** The instruction: its context and position (what marking it changes). */
  readonly ctx: number;
  readonly pc: number;
}

export interface Race {
  readonly location: string;
  readonly a: RaceAccess;
  readonly b: RaceAccess;
  /** The race in a sentence. */
  readonly sentence: string;
  /**
   * Every instruction ([context, position]) of the accesses the sentence stands for: one line
   * may make several (a for_each_cpu loop reads each mask word), all marked together.
   */
  readonly sites: readonly (readonly [number, number])[];
}

function statementOf(m: Machine, ctx: number, pc: number): string {
  const prog = m.programs[ctx];
  const site = prog?.source?.sites[pc];
  if (!prog?.source || !site) return '';
  return prog.source.text.slice(site.start, site.end).replace(/\s+/g, ' ').trim();
}

/**
 * The CPU an event runs on: the CPU whose scheduler chain its thread took last before it
 * (plans.ts), or the CPU its thread starts on.
 */
function cpuOf(p: CompiledProgram, threads: ModelThreads, sk: Skeleton, id: number): number {
  const e = sk.events[id];
  if (!e) return 0;
  let cpu = threads.plans[e.thread]?.cpu ?? 0;
  for (const o of sk.events)
    if (o.thread === e.thread && o.po < e.po && o.dir === 'W' && isChain(p.machine, o.loc)) {
      // A turn's start writes the chain's token with a negative value; its end, positive.
      if ((sk.origin[o.id]?.value ?? 0n) < 0n) cpu = o.loc - p.machine.memWords;
    }
  return cpu;
}

function accessOf(
  p: CompiledProgram,
  sk: Skeleton,
  threads: ModelThreads,
  id: number,
): RaceAccess | null {
  const { names } = threads;
  const e = sk.events[id];
  const origin = sk.origin[id];
  if (!e || !origin || e.thread < 0) return null;
  const ctx = origin.ctx ?? -1;
  const ins = instructionOf(p, sk, e);
  const thread = names[e.thread] ?? `P${String(e.thread)}`;
  const own = p.machine.programs[ctx]?.name ?? thread;
  // A step the machinery makes (a hotplug mask update, a scheduler chain) is its thread's own.
  const inside = e.pc < 0 || own === thread || thread.endsWith(own);
  return {
    who: inside ? thread : `${own} in ${thread}`,
    cpu: cpuOf(p, threads, sk, id),
    kind: e.dir === 'W' ? 'write' : 'read',
    marked: (e.tags & ~Tag.Rmw) !== 0,
    line: ins?.line ?? 0,
    statement: statementOf(p.machine, ctx, e.pc),
    ctx,
    pc: e.pc,
  };
}

function describe(a: RaceAccess): string {
  const what = `${a.kind === 'write' ? 'writes' : 'reads'} it ${a.marked ? 'marked' : 'plainly'}`;
  const on = `on CPU${String(a.cpu)}`;
  if (a.pc < 0)
    return `${a.who} ${what} ${on} (a step of the kernel's own, not a line of the program)`;
  const where = a.line > 0 ? `line ${String(a.line)}` : `instruction ${String(a.pc)}`;
  const said = a.statement ? ` (\`${a.statement}\`)` : '';
  return `${a.who}'s ${where}${said} ${what} ${on}`;
}

/**
 * The races of a program's consistent executions, one a pair of instructions, from the first
 * executions that have them (each state's example first, then every candidate if need be).
 */
export function dataRaces(
  p: CompiledProgram,
  result: AxiomaticResult,
  limits: AxiomaticLimits = DEFAULT_AXIOMATIC_LIMITS,
): Race[] {
  if (!result.flags.includes('data-race')) return [];
  // The model's threads: tasks, handlers on an idle CPU, a CPU's offline (plans.ts).
  const threads = modelThreads(p);
  // One race a sentence: the instructions it stands for are gathered under it.
  const found = new Map<string, Race & { sites: [number, number][] }>();
  const take = (sk: Skeleton, race: ReturnType<typeof lkmm>['rel']['race']) => {
    race?.forEach((x, y) => {
      const a = accessOf(p, sk, threads, x);
      const b = accessOf(p, sk, threads, y);
      const e = sk.events[x];
      if (!a || !b || !e) return;
      // Either way round, one race.
      const [first, second] = describe(a) <= describe(b) ? [a, b] : [b, a];
      const location = locationName(p, e.loc);
      const sentence = `${describe(first)} and ${describe(second)}: the two touch ${location}, one is plain, and nothing orders them (no lock, barrier or release–acquire pair between them).`;
      const race = found.get(sentence) ?? { location, a: first, b: second, sentence, sites: [] };
      found.set(sentence, race);
      for (const x of [a, b])
        if (!race.sites.some(([c, q]) => c === x.ctx && q === x.pc)) race.sites.push([x.ctx, x.pc]);
    });
  };
  for (const s of result.states) take(s.example.skeleton, s.example.verdict.rel.race);
  if (found.size > 0) return [...found.values()];
  for (const c of candidatesOf(p, limits).all) {
    const v = lkmm(c.execution);
    if (!v.consistent || !v.flags.includes('data-race')) continue;
    take(c.skeleton, v.rel.race);
    break;
  }
  return [...found.values()];
}

/** Whether an instruction is a plain access marking can change (a load or store, or a half). */
function markable(ins: Instr): boolean {
  return (
    ins.tag === 0 &&
    ins.mode !== Mode.None &&
    (ins.op === Op.Load ||
      ins.op === Op.Load64 ||
      ins.op === Op.Store ||
      ins.op === Op.Store64 ||
      ins.op === Op.LoadLo ||
      ins.op === Op.LoadHi ||
      ins.op === Op.StoreLo ||
      ins.op === Op.StoreHi)
  );
}

/**
 * The program with the plain accesses of its races marked, as READ_ONCE() and WRITE_ONCE()
 * would (tag Once), and its answer: what marking them would change. Null when no racing access
 * is a plain load or store the lab can mark.
 */
export function withRacesMarked(
  p: CompiledProgram,
  races: readonly Race[],
  limits: AxiomaticLimits = DEFAULT_AXIOMATIC_LIMITS,
): { program: CompiledProgram; result: AxiomaticResult } | null {
  const m = p.machine;
  const at = new Set<string>();
  for (const r of races) for (const [ctx, pc] of r.sites) at.add(`${String(ctx)}:${String(pc)}`);
  const marks = (ctx: number, pc: number, ins: Instr) =>
    at.has(`${String(ctx)}:${String(pc)}`) && markable(ins);
  if (!m.programs.some((prog, ctx) => prog.instrs.some((ins, pc) => marks(ctx, pc, ins))))
    return null;
  const programs = m.programs.map((prog, ctx) => ({
    ...prog,
    instrs: prog.instrs.map((ins, pc) => (marks(ctx, pc, ins) ? { ...ins, tag: Tag.Once } : ins)),
  }));
  const code = programs.map((prog) => prog.instrs);
  const program: CompiledProgram = { ...p, machine: { ...m, programs, code } };
  return { program, result: checkLkmm(program, limits) };
}
