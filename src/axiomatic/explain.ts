// Executions as a person reads them: the events of each thread with labels, the edges a graph
// draws (po, rf, co, fr, the dependencies, the RMW pairs), and, for an execution the model
// forbids, the axiom it breaks and the cycle that breaks it, each step of the cycle named by
// what orders it ("the smp_rmb() between them", "b reads a's write"). The graph (src/charts),
// "Why not?" and "Be the memory system" are built on this; nothing here draws.

import type { CompiledProgram } from '../lang/compiled.ts';
import { herdLine, herdValue } from '../lang/herdAnswer.ts';
import type { Instr } from '../machine/isa.ts';
import { cellAt } from '../machine/layout.ts';
import type { Candidate } from './check.ts';
import { type AxEvent, Tag, tagNames } from './events.ts';
import type { Execution } from './execution.ts';
import { type Axiom, lkmm, type LkmmVerdict } from './lkmm.ts';
import type { Relation } from './relation.ts';
import type { Skeleton } from './candidates.ts';
import { isChain } from './plans.ts';
import { eventFrames, type EventMaker, type GraphFrame } from './graphFrames.ts';

export type { EventMaker, GraphFrame } from './graphFrames.ts';

/** An event as the graph labels it. */
export interface GraphEvent {
  readonly id: number;
  /** The thread (P0 is 0), or −1 for an initial write. */
  readonly thread: number;
  /** Its place in the thread's program order. */
  readonly po: number;
  readonly kind: 'R' | 'W' | 'F' | 'init';
  /** "W x=1", "R y=0", "F mb", "LKW l", "init x=0". */
  readonly label: string;
  /** Its tags as the model names them: ["Once"], ["Acquire"], ["Mb"]. */
  readonly tags: readonly string[];
  /** The location's name, or '' for a fence. */
  readonly location: string;
  /** The line of the program's text it comes from (1-based), or 0. */
  readonly line: number;
  /**
   * The context whose code made it: its thread's ("P0"), or a handler's whose run the model
   * placed into the thread ("IRQ0"); '' for an initial write.
   */
  readonly context: string;
  /** The program's code, or what the model adds: a scheduler turn, CPU hotplug, RCU-sched. */
  readonly maker: EventMaker;
  /** What it is part of, outermost first: a handler's run, the calls, loops, the machinery. */
  readonly frames: readonly GraphFrame[];
}

export type EdgeKind = 'po' | 'rf' | 'co' | 'fr' | 'addr' | 'data' | 'ctrl' | 'rmw';

export interface GraphEdge {
  readonly from: number;
  readonly to: number;
  readonly kind: EdgeKind;
  /** Between two threads (rf, co and fr across CPUs are what a memory model is about). */
  readonly external: boolean;
}

/** One step of a cycle: from an event to the next, and what orders them. */
export interface CycleStep {
  readonly from: number;
  readonly to: number;
  /** A short name: "rfe", "fre", "coe", "rmb", "wmb", "mb", "addr", "release", "pb"… */
  readonly relation: string;
  /** The step in words: "the smp_rmb() between them orders R y=1 before R x=0". */
  readonly words: string;
}

/** Why the model forbids an execution: the first axiom it breaks and a cycle that shows it. */
export interface Why {
  readonly axiom: Axiom;
  /** The steps of a shortest cycle of the axiom's relation (empty for `atomic`). */
  readonly cycle: readonly CycleStep[];
  /** The whole reason in a sentence a teacher can read out. */
  readonly sentence: string;
}

/** An execution as a picture, with the model's verdict on it (lkmm.ts). */
export interface ExecutionGraph extends Pick<LkmmVerdict, 'consistent' | 'broken' | 'flags'> {
  readonly events: readonly GraphEvent[];
  readonly edges: readonly GraphEdge[];
  /** Threads, in order (their events' columns). */
  readonly threads: number;
  /** Each thread's name, by column: "P0", "IRQ0 on idle CPU0", "CPU1's offline and DEAD1". */
  readonly threadNames: readonly string[];
  /** The end state as herd7 prints it. */
  readonly state: string;
  /** For a forbidden execution: why. */
  readonly why: Why | null;
}

export function locationName(p: CompiledProgram, loc: number): string {
  if (isChain(p.machine, loc)) return `CPU${String(loc - p.machine.memWords)}'s runqueue`;
  const at = cellAt(p.machine.layout, loc);
  if (!at) return `word ${loc}`;
  return at.cpu >= 0 ? `${at.cell.name}[${at.cpu}]` : at.cell.name;
}

/** An event as a graph labels it: "W x=1", "R y=0", "F mb", "LKW l", "init x=0". */
export function eventLabel(p: CompiledProgram, e: AxEvent): string {
  const where = e.loc >= 0 ? locationName(p, e.loc) : '';
  const value = herdValue(p.machine, e.value);
  if (e.tags & Tag.Init) return `init ${where}=${value}`;
  if (e.tags & Tag.Lkr) return `LKR ${where}`;
  if (e.tags & Tag.Lkw) return `LKW ${where}`;
  if (e.tags & Tag.Ul) return `UL ${where}`;
  if (e.tags & Tag.Lf) return `LF ${where}`;
  if (e.tags & Tag.Rl) return `RL ${where}`;
  if (e.tags & Tag.Ru) return `RU ${where}`;
  if (e.dir === 'F') {
    const names = tagNames(e.tags).map((n) => n.toLowerCase());
    return `F ${names.join(' ')}${where ? ` ${where}` : ''}`;
  }
  return `${e.dir} ${where}=${value}`;
}

/** The pairs of r with nothing of r between them (for drawing po and co without clutter). */
function immediate(r: Relation): [number, number][] {
  const out: [number, number][] = [];
  r.forEach((a, b) => {
    if (!r.successors(a).some((c) => c !== b && r.has(c, b))) out.push([a, b]);
  });
  return out;
}

/** The graph of a candidate execution, judged with every relation, and why, if forbidden. */
export function executionGraph(
  p: CompiledProgram,
  sk: Skeleton,
  x: Execution,
  state: Int32Array,
  verdict: LkmmVerdict = lkmm(x, true),
): ExecutionGraph {
  const full = verdict.rel.ppo.isEmpty() && !verdict.consistent ? lkmm(x, true) : verdict;
  const grouped = eventFrames(p, sk);
  const events = sk.events.map((e): GraphEvent => {
    const ins = instructionOf(p, sk, e);
    return {
      id: e.id,
      thread: e.thread,
      po: e.po,
      kind: e.tags & Tag.Init ? 'init' : e.dir,
      label: eventLabel(p, e),
      tags: tagNames(e.tags & ~(Tag.Init | Tag.Rmw)),
      location: e.loc >= 0 ? locationName(p, e.loc) : '',
      line: ins?.line ?? 0,
      context: grouped.context[e.id] ?? '',
      maker: grouped.maker[e.id] ?? 'program',
      frames: grouped.frames[e.id] ?? [],
    };
  });
  const r = full.rel;
  const ext = (a: number, b: number) => r.ext.has(a, b);
  const edges: GraphEdge[] = [];
  const add = (kind: EdgeKind, pairs: Iterable<readonly [number, number]>) => {
    for (const [a, b] of pairs) edges.push({ from: a, to: b, kind, external: ext(a, b) });
  };
  add('po', immediate(r.po));
  add('rf', r.rf.pairs());
  add('co', immediate(r.co));
  // fr to the first write after the one read (the others follow by co).
  add(
    'fr',
    r.fr.pairs().filter(([a, b]) => !r.fr.successors(a).some((c) => c !== b && r.co.has(c, b))),
  );
  add('addr', x.addr.pairs());
  add('data', x.data.pairs());
  add('ctrl', immediateCtrl(x));
  add('rmw', r.rmw.pairs());
  const why = full.consistent ? null : explainBroken(p, sk, full);
  return {
    events,
    edges,
    threads: Math.max(0, ...sk.events.map((e) => e.thread + 1)),
    threadNames: grouped.threadNames,
    consistent: full.consistent,
    broken: full.broken,
    flags: full.flags,
    state: herdLine(p, state).line,
    why,
  };
}

/** ctrl edges to the first event of each branch only: the rest are reached by po. */
function immediateCtrl(x: Execution): [number, number][] {
  return x.ctrl
    .pairs()
    .filter(([a, b]) => !x.ctrl.successors(a).some((c) => c !== b && x.po.has(c, b)));
}

/** The instruction an event came from (a handler's, for an event of a handler it ran). */
export function instructionOf(p: CompiledProgram, sk: Skeleton, e: AxEvent): Instr | undefined {
  if (e.thread < 0 || e.pc < 0) return undefined;
  const ctx = sk.origin[e.id]?.ctx ?? threadCtx(p, e.thread);
  return p.machine.programs[ctx]?.instrs[e.pc];
}

function threadCtx(p: CompiledProgram, thread: number): number {
  return (
    p.threads.filter((t) => t.role === 'P').sort((a, b) => a.index - b.index)[thread]?.ctx ?? -1
  );
}

const FENCE_WORDS: readonly (readonly [keyof LkmmVerdict['rel'], string, string])[] = [
  ['rmb', 'rmb', 'the smp_rmb() between them orders'],
  ['wmb', 'wmb', 'the smp_wmb() between them orders'],
  ['mb', 'mb', 'the full barrier between them orders'],
  ['acqPo', 'acquire', 'the acquire orders'],
  ['poRel', 'release', 'the release orders'],
  ['poUnlockLockPo', 'lock', 'the lock handover orders'],
  ['rcuFence', 'rcu-fence', 'the grace period orders'],
];

/** What orders a before b in one step of a cycle of `axiom`'s relation. */
function stepWords(
  p: CompiledProgram,
  sk: Skeleton,
  v: LkmmVerdict,
  axiom: Axiom,
  a: number,
  b: number,
): CycleStep {
  const r = v.rel;
  const ea = sk.events[a] as AxEvent;
  const eb = sk.events[b] as AxEvent;
  const la = eventLabel(p, ea);
  const lb = eventLabel(p, eb);
  const step = (relation: string, words: string): CycleStep => ({
    from: a,
    to: b,
    relation,
    words,
  });
  const e = r.ext.has(a, b) ? 'e' : 'i';
  if (r.rf.has(a, b)) return step(`rf${e}`, `${lb} reads the value ${la} wrote`);
  if (r.fr.has(a, b))
    return step(
      `fr${e}`,
      `${la} reads a value older than ${lb}, so it comes before ${lb} in memory's order`,
    );
  if (r.co.has(a, b))
    return step(
      `co${e}`,
      `${la} comes before ${lb} in ${eb.loc >= 0 ? locationName(p, eb.loc) : 'memory'}'s order`,
    );
  if (axiom === 'coherence' && r.poLoc.has(a, b))
    return step('po-loc', `${la} comes before ${lb} in its thread, at the same location`);
  if (axiom === 'propagation' && r.pb.has(a, b))
    return step(
      'pb',
      `${la} propagates before ${lb} can happen: a strong fence (smp_mb() or a grace period) stands between them`,
    );
  if (r.addr.has(a, b)) return step('addr', `${lb}'s address depends on the value ${la} read`);
  if (r.data.has(a, b))
    return step('data', `${lb} writes a value computed from the one ${la} read`);
  if (r.ctrl.has(a, b) && eb.dir === 'W')
    return step('ctrl', `${lb} is inside a branch on the value ${la} read`);
  for (const [name, short, words] of FENCE_WORDS) {
    const rel = r[name] as Relation;
    if (rel.has(a, b)) return step(short, `${words} ${la} before ${lb}`);
  }
  if (r.rmw.has(a, b)) return step('rmw', `${la} and ${lb} are one atomic read-modify-write`);
  if (r.prop.has(a, b)) return step('prop', `${la} propagates to ${lb}'s CPU before ${lb}`);
  if (r.ppo.has(a, b)) return step('ppo', `${la} comes before ${lb} in the CPU's preserved order`);
  return step(axiom, `${la} is ordered before ${lb}`);
}

/** Steps whose words name a composed relation rather than one edge a graph draws. */
const COMPOSITE = new Set(['prop', 'pb', 'ppo', 'happens-before', 'propagation']);

/** The edges a person can see: communication, dependencies and what each fence orders. */
function baseRelation(v: LkmmVerdict): Relation {
  const r = v.rel;
  return r.rf.union(
    r.co,
    r.fr,
    r.addr,
    r.data,
    r.ctrl,
    r.rmw,
    r.rmb,
    r.wmb,
    r.mb,
    r.acqPo,
    r.poRel,
    r.poUnlockLockPo,
    r.rcuFence,
    r.poLoc,
  );
}

/** A shortest path from a to b through r, as its edges, or null. */
function shortestPath(r: Relation, a: number, b: number): [number, number][] | null {
  const prev = new Map<number, number>([[a, -1]]);
  const queue = [a];
  for (let q = 0; q < queue.length; q++) {
    const x = queue[q] as number;
    for (const y of r.successors(x)) {
      if (prev.has(y)) continue;
      prev.set(y, x);
      if (y === b) {
        const path: [number, number][] = [];
        for (let z = b; z !== a; z = prev.get(z) as number)
          path.unshift([prev.get(z) as number, z]);
        return path;
      }
      queue.push(y);
    }
  }
  return null;
}

const AXIOM_WORDS: Readonly<Record<Axiom, string>> = {
  coherence: 'a coherence cycle: one location’s reads and writes would disagree with its own order',
  atomic: 'an atomic read-modify-write would have another write between its read and its write',
  'happens-before': 'a happens-before cycle: each event would have to happen before itself',
  propagation: 'a propagation cycle: a write would have to propagate before itself',
  rcu: 'an RCU cycle: a grace period would end before a read-side section that began before it',
  'plain-coherence': 'plain accesses would disagree with the order the marked ones impose',
  'lock-nest': 'a CPU would take a spinlock it already holds',
  'nested-is-locked': 'spin_is_locked() would say free inside its own critical section',
  'unmatched-locks': 'two CPUs would hold the same spinlock, neither releasing it',
};

/** Why a forbidden execution is forbidden: its first broken axiom and a shortest cycle. */
export function explainBroken(p: CompiledProgram, sk: Skeleton, v: LkmmVerdict): Why | null {
  const axiom = v.broken[0];
  if (axiom === undefined) return null;
  const rel = v.rel.ofAxiom[axiom];
  let cycle: CycleStep[] = [];
  if (rel && (axiom === 'coherence' || axiom === 'happens-before' || axiom === 'propagation')) {
    const events = rel.shortestCycle() ?? [];
    const base = baseRelation(v);
    cycle = events.flatMap((a, i) => {
      const b = events[(i + 1) % events.length] as number;
      const step = stepWords(p, sk, v, axiom, a, b);
      if (!COMPOSITE.has(step.relation)) return [step];
      // A step the model composes (prop, pb, ppo): spelt out as its shortest path of base edges.
      const path = shortestPath(base, a, b);
      return path ? path.map(([x, y]) => stepWords(p, sk, v, axiom, x, y)) : [step];
    });
  }
  const steps = cycle.map((s) => s.words).join('; ');
  const sentence = `${axiom}: ${AXIOM_WORDS[axiom]}${steps ? `. ${steps}; and so round again` : ''}.`;
  return { axiom, cycle, sentence };
}

/**
 * "Why not?": the candidate executions whose end state satisfies `wanted` (a state the program
 * asks about and the model never reaches), each judged in full, with why it is forbidden. At
 * most `limit` of them, the ones with the fewest events first.
 */
export function whyNot(
  p: CompiledProgram,
  all: Iterable<Candidate>,
  wanted: (state: Int32Array) => boolean,
  limit = 12,
): ExecutionGraph[] {
  const out: ExecutionGraph[] = [];
  for (const c of all) {
    if (!wanted(c.state)) continue;
    const v = lkmm(c.execution, true);
    out.push(executionGraph(p, c.skeleton, c.execution, c.state, v));
    if (out.length >= limit) break;
  }
  return out.sort((a, b) => a.events.length - b.events.length);
}
