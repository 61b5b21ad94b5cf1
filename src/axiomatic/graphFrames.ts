// What an execution graph groups a thread's events by, so that a counter's graph of tens of
// events reads on a projector: the call each event comes from (the compiler inlines every call
// and records, per instruction, the calls and for_each_online_cpu turns it is inside:
// Program.source.scopes), the turn of a loop it is in, the interrupt handler whose run was
// placed into the task's program order, and the machinery the model adds (a scheduler turn on a
// CPU's runqueue, a CPU's hotplug, the RCU-sched sections a non-preemptible region makes).
//
// The engine keeps an event's context and instruction, not the path the thread took, so one
// run of a call or one turn of a loop is told from the next by where control went: a later
// event at the same or an earlier instruction of the same context means a loop's back edge was
// taken (the innermost loop holding both), or, outside every loop, a handler run again. A turn
// whose first event lies after the previous turn's last one in the code is not told apart.

import type { CompiledProgram } from '../lang/compiled.ts';
import type { Instr, Program, Scope } from '../machine/isa.ts';
import type { Skeleton } from './candidates.ts';
import { type AxEvent, Tag } from './events.ts';
import { isChain, modelThreads } from './plans.ts';

/** Who made an event: the program's code, or what the model adds around it. */
export type EventMaker = 'program' | 'scheduler' | 'hotplug' | 'rcu';

/** One run of something an event is part of: a call made, a loop, a handler's run. */
export interface GraphFrame {
  /** The same for each event of this run, and unique in the graph. */
  readonly key: string;
  readonly kind: 'handler' | 'call' | 'loop' | 'scheduler' | 'hotplug';
  /**
   * What its box says: "IRQ0", "__percpu_counter_add(&fbc, 1, BATCH)",
   * "for (i = 0; i < 3; i++)", "for_each_online_cpu(cpu)", "scheduler: leaves CPU0".
   */
  readonly label: string;
  /** Its line in the program (a call's, a loop's), or 0. */
  readonly line: number;
  /** For a loop: the turn this event is in (1, 2…); 0 for the others. */
  readonly turn: number;
}

/** Per event (by id): its context's name, its maker and its frames, outermost first. */
export interface EventFrames {
  /** Each thread's name, by column: "P0", "IRQ0 on idle CPU0", "CPU1's offline and DEAD1". */
  readonly threadNames: readonly string[];
  readonly context: readonly string[];
  readonly maker: readonly EventMaker[];
  readonly frames: readonly (readonly GraphFrame[])[];
}

/** A call, a CPU walk or a loop of one context's code, with the instructions it spans. */
interface Level {
  /** Static: one per call inlined, per walk, per loop of the code. */
  readonly id: string;
  readonly kind: 'call' | 'walk' | 'loop';
  readonly label: string;
  readonly line: number;
  readonly lo: number;
  readonly hi: number;
}

/** A context's code, its calls' and loops' spans worked out once. */
interface Code {
  readonly prog: Program | undefined;
  readonly levels: Map<string, Level>;
  /** The loops (back edges' targets to their furthest back edge), innermost last per pc. */
  readonly loops: readonly Level[];
}

/** A level entered by one event: its run's key and the turn (loops and walks). */
interface Entered {
  readonly level: Level;
  readonly key: string;
  readonly turn: number;
  /** For a walk: the CPU of the turn. */
  readonly cpu: number;
}

/** One context running in a column: the thread's own, or a handler inlined in it. */
interface Activation {
  readonly ctx: number;
  /** The handler's run, or '' for the thread's own context. */
  readonly key: string;
  /** The last event it made, or null. */
  last: AxEvent | null;
  entered: Entered[];
}

const firstLine = (t: string) => (t.split('\n')[0] ?? '').trim();

/** How a loop's back edge names it: its statement's first line, a goto, or a do-while's test. */
function loopLabel(text: string): string {
  const t = firstLine(text).replace(/\s*\{$/, '');
  if (/^(for|while|do)\b/.test(t)) return t;
  if (/^goto\b/.test(t)) return t.replace(/;$/, '');
  return `do … while (${t})`;
}

/** A call's text on one line ("f(&x, 1)"), or a walk's head ("for_each_online_cpu(cpu)"). */
function scopeLabel(text: string, walk: boolean): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (!walk) return one;
  let depth = 0;
  for (let i = 0; i < one.length; i++) {
    if (one[i] === '(') depth++;
    else if (one[i] === ')' && --depth === 0) return one.slice(0, i + 1);
  }
  return firstLine(text);
}

function codeOf(p: CompiledProgram, ctx: number): Code {
  const prog = p.machine.programs[ctx];
  const levels = new Map<string, Level>();
  const source = prog?.source;
  const instrs: readonly Instr[] = prog?.instrs ?? [];
  if (source?.scopes) {
    const spans = new Map<number, { scope: Scope; lo: number; hi: number }>();
    source.scopes.forEach((list, pc) => {
      for (const s of list) {
        const was = spans.get(s.id);
        if (was) was.hi = pc;
        else spans.set(s.id, { scope: s, lo: pc, hi: pc });
      }
    });
    for (const [id, { scope, lo, hi }] of spans) {
      const walk = scope.turn >= 0;
      levels.set(`s${String(id)}`, {
        id: `s${String(id)}`,
        kind: walk ? 'walk' : 'call',
        label: scopeLabel(source.text.slice(scope.site.start, scope.site.end), walk),
        line: p.lines.position(scope.site.start).line,
        lo,
        hi,
      });
    }
  }
  // A loop of the machine: a jump back to its head (for, while, do, a backward goto).
  const furthest = new Map<number, number>();
  instrs.forEach((ins, pc) => {
    if (ins.target >= 0 && ins.target <= pc)
      furthest.set(ins.target, Math.max(furthest.get(ins.target) ?? -1, pc));
  });
  const loops: Level[] = [];
  for (const [head, back] of furthest) {
    const site = source?.sites[back];
    const text = source && site ? source.text.slice(site.start, site.end) : '';
    const line = instrs[back]?.line ?? 0;
    const loop: Level = {
      id: `l${String(head)}`,
      kind: 'loop',
      label: text ? loopLabel(text) : `the loop at line ${String(line)}`,
      line,
      lo: head,
      hi: back,
    };
    loops.push(loop);
    levels.set(loop.id, loop);
  }
  return { prog, levels, loops };
}

/** The calls, walks and loops instruction `pc` is inside, outermost first. */
function chainAt(code: Code, pc: number): Level[] {
  const out: Level[] = [];
  for (const s of code.prog?.source?.scopes?.[pc] ?? []) {
    const l = code.levels.get(`s${String(s.id)}`);
    if (l) out.push(l);
  }
  for (const l of code.loops) if (l.lo <= pc && pc <= l.hi) out.push(l);
  // Outermost first: the wider span holds the narrower; a call holds a loop as wide as it.
  const rank = { call: 0, walk: 1, loop: 2 } as const;
  return out.sort((a, b) => b.hi - b.lo - (a.hi - a.lo) || rank[a.kind] - rank[b.kind]);
}

/** The CPU of walk turn `pc` is in, for a walk level. */
function walkCpu(code: Code, level: Level, pc: number): number {
  const s = code.prog?.source?.scopes?.[pc]?.find((x) => `s${String(x.id)}` === level.id);
  return s?.turn ?? -1;
}

/** A pc −1 event's maker, before full barriers take their neighbours'. */
function machineryOf(p: CompiledProgram, e: AxEvent): EventMaker | null {
  const hp = p.machine.hotplug;
  if (e.loc >= 0 && isChain(p.machine, e.loc)) return 'scheduler';
  if (hp && (e.loc === hp.online || e.loc === hp.dying || e.loc === hp.count)) return 'hotplug';
  if (e.tags & Tag.SyncRcu) return 'hotplug';
  if (e.tags & (Tag.RcuLock | Tag.RcuUnlock)) return 'rcu';
  return null;
}

/**
 * Whether control went back from `last` to `e` (the same context): an earlier instruction, or
 * the same one again. One instruction may make several events (a lock's LKR and LKW, an RMW's
 * read and write, a fully ordered RMW's fences): the same again is one like the last.
 */
function backwards(last: AxEvent | null, e: AxEvent): boolean {
  if (!last) return false;
  return e.pc < last.pc || (e.pc === last.pc && e.dir === last.dir && e.tags === last.tags);
}

/** The index of the last element of `xs` that passes `f`, or −1. */
function lastIndex<T>(xs: readonly T[], f: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (f(xs[i] as T)) return i;
  return -1;
}

const samePrefix = (a: readonly GraphFrame[], b: readonly GraphFrame[]): GraphFrame[] => {
  const out: GraphFrame[] = [];
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a[i] as GraphFrame;
    if (x.key !== (b[i] as GraphFrame).key) break;
    out.push(x);
  }
  return out;
};

/** Each event's context, maker and frames (see the file's header). */
export function eventFrames(p: CompiledProgram, sk: Skeleton): EventFrames {
  const threads = modelThreads(p);
  const n = sk.events.length;
  const context: string[] = new Array<string>(n).fill('');
  const maker: EventMaker[] = new Array<EventMaker>(n).fill('program');
  const frames: GraphFrame[][] = Array.from({ length: n }, () => []);
  const codes = new Map<number, Code>();
  const code = (ctx: number) => {
    let c = codes.get(ctx);
    if (!c) codes.set(ctx, (c = codeOf(p, ctx)));
    return c;
  };
  const columns = Math.max(0, ...sk.events.map((e) => e.thread + 1));
  const threadNames = Array.from(
    { length: columns },
    (_, t) => threads.names[t] ?? `P${String(t)}`,
  );
  const ctxName = (ctx: number) => p.machine.programs[ctx]?.name ?? `context ${String(ctx)}`;
  // The initial state of a CPU's runqueue is the scheduler's too.
  for (const e of sk.events)
    if (e.thread < 0 && e.loc >= 0 && isChain(p.machine, e.loc)) maker[e.id] = 'scheduler';

  for (let t = 0; t < columns; t++) {
    const own = threads.plans[t]?.ctx ?? -1;
    const column = sk.events.filter((e) => e.thread === t).sort((a, b) => a.po - b.po);
    let runs = 0;
    const fresh = (id: string) => `${id}#${String(++runs)}`;
    const keyed = (key: string) => `t${String(t)}:${key}`;
    const stack: Activation[] = [];
    // Depth of each event's activation (0: the thread's own; a handler 1, an NMI in it 2…;
    // the machinery sits between program events: Infinity).
    const depth = new Map<number, number>();
    for (const e of column) {
      const ctx = sk.origin[e.id]?.ctx ?? own;
      context[e.id] = ctx === own ? (threadNames[t] as string) : ctxName(ctx);
      if (e.pc < 0) {
        maker[e.id] = machineryOf(p, e) ?? 'scheduler';
        depth.set(e.id, Infinity);
        continue;
      }
      // The activation this event runs in: handlers above it have returned.
      let at = lastIndex(stack, (a) => a.ctx === ctx);
      const c = code(ctx);
      const back = (a: Activation) =>
        backwards(a.last, e) && !c.loops.some((l) => l.lo <= e.pc && (a.last?.pc ?? 0) <= l.hi);
      if (at >= 0) {
        // A handler seen again at or before where its run was, with no loop between: a new run.
        const again = ctx !== own && back(stack[at] as Activation);
        stack.splice(again ? at : at + 1);
        if (again) at = -1;
      }
      if (at < 0) {
        if (ctx === own) stack.length = 0;
        stack.push({ ctx, key: ctx === own ? '' : fresh('irq'), last: null, entered: [] });
        at = stack.length - 1;
      }
      const act = stack[at] as Activation;
      depth.set(e.id, at);
      const chain = chainAt(c, e.pc);
      const last = act.last;
      const jumped = backwards(last, e)
        ? chain[
            lastIndex(chain, (l) => l.kind === 'loop' && l.lo <= e.pc && (last?.pc ?? 0) <= l.hi)
          ]
        : undefined;
      let broken = backwards(last, e) && jumped === undefined;
      const entered: Entered[] = [];
      chain.forEach((level, i) => {
        const was = act.entered[i];
        const parent = entered[i - 1]?.key ?? act.key;
        if (!broken && was?.level.id === level.id) {
          if (level === jumped) {
            entered.push({ ...was, turn: was.turn + 1 });
            broken = true;
            return;
          }
          const cpu = level.kind === 'walk' ? walkCpu(c, level, e.pc) : -1;
          if (level.kind === 'walk' && cpu !== was.cpu) {
            entered.push({ ...was, turn: was.turn + 1, cpu });
            broken = true;
            return;
          }
          entered.push(was);
          return;
        }
        broken = true;
        entered.push({
          level,
          key: `${parent}/${fresh(level.id)}`,
          turn: level.kind === 'call' ? 0 : 1,
          cpu: level.kind === 'walk' ? walkCpu(c, level, e.pc) : -1,
        });
      });
      act.entered = entered;
      act.last = e;
      // A handler's own frame; one it interrupted is its neighbours' (below).
      const handler: GraphFrame[] =
        act.key === ''
          ? []
          : [{ key: keyed(act.key), kind: 'handler', label: ctxName(ctx), line: 0, turn: 0 }];
      frames[e.id] = [
        ...handler,
        ...entered.map((x): GraphFrame => ({
          key: keyed(x.key),
          kind: x.level.kind === 'call' ? 'call' : 'loop',
          label: x.level.label,
          line: x.level.line,
          turn: x.turn,
        })),
      ];
    }

    // A full barrier of the machinery belongs to the nearest machinery event that is no fence,
    // within the same stretch of machinery events (a turn's barriers are the scheduler's).
    column.forEach((e, i) => {
      if (e.pc >= 0 || machineryOf(p, e) !== null) return;
      const inStretch = (j: number) => (column[j]?.pc ?? 0) < 0;
      let lo = i;
      while (inStretch(lo - 1)) lo--;
      let hi = i;
      while (inStretch(hi + 1)) hi++;
      let best: EventMaker = 'scheduler';
      let distance = Infinity;
      for (let j = lo; j <= hi; j++) {
        const m = machineryOf(p, column[j] as AxEvent);
        if (m === null || m === 'rcu' || Math.abs(j - i) >= distance) continue;
        best = m;
        distance = Math.abs(j - i);
      }
      maker[e.id] = best;
    });

    // What interrupts the thread (a handler's run, the machinery) sits inside what both its
    // neighbours of a shallower activation are inside: an IRQ in the middle of a call is boxed
    // within the call, a turn of the scheduler before the thread's first call is not.
    const full = new Map<number, GraphFrame[]>();
    const order = [...new Set(depth.values())].sort((a, b) => a - b);
    for (const d of order) {
      column.forEach((e, i) => {
        if (depth.get(e.id) !== d) return;
        if (d === 0) {
          full.set(e.id, frames[e.id] as GraphFrame[]);
          return;
        }
        const near = (step: number) => {
          for (let j = i + step; j >= 0 && j < column.length; j += step) {
            const o = column[j] as AxEvent;
            if ((depth.get(o.id) ?? Infinity) < d) return full.get(o.id) ?? null;
          }
          return null;
        };
        const before = near(-1);
        const after = near(1);
        const prefix = before && after ? samePrefix(before, after) : [];
        full.set(e.id, [...prefix, ...(frames[e.id] as GraphFrame[])]);
      });
    }
    // The scheduler's and hotplug's runs: boxes of their own, named by what they do.
    let i = 0;
    while (i < column.length) {
      const e = column[i] as AxEvent;
      const m = maker[e.id] as EventMaker;
      if (m !== 'scheduler' && m !== 'hotplug') {
        i++;
        continue;
      }
      let j = i;
      while (j < column.length && maker[(column[j] as AxEvent).id] === m) j++;
      const run = column.slice(i, j);
      const frame: GraphFrame = {
        key: keyed(fresh(m)),
        kind: m,
        label:
          m === 'scheduler'
            ? schedulerWords(p, run)
            : hotplugWords(p, run, threads.plans[t]?.cpu ?? -1),
        line: 0,
        turn: 0,
      };
      for (const r of run) full.set(r.id, [...(full.get(r.id) ?? []), frame]);
      i = j;
    }
    for (const e of column) frames[e.id] = full.get(e.id) ?? [];
  }
  return { threadNames, context, maker, frames };
}

/**
 * A scheduler run in words: "scheduler: takes CPU0", "scheduler: leaves CPU1", and a turn handed
 * on then one taken: "moves to CPU1" (a migration), "preempted on CPU0" (the same CPU again).
 */
function schedulerWords(p: CompiledProgram, run: readonly AxEvent[]): string {
  const steps = run.flatMap((e): { take: boolean; cpu: number }[] => {
    if (e.loc < 0 || !isChain(p.machine, e.loc)) return [];
    const cpu = e.loc - p.machine.memWords;
    if (e.dir === 'R') return [{ take: true, cpu }];
    if (e.tags & Tag.Release) return [{ take: false, cpu }];
    return [];
  });
  const words: string[] = [];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as { take: boolean; cpu: number };
    const next = steps[i + 1];
    if (!s.take && next?.take === true) {
      words.push(
        next.cpu === s.cpu ? `preempted on CPU${String(s.cpu)}` : `moves to CPU${String(next.cpu)}`,
      );
      i++;
    } else words.push(`${s.take ? 'takes' : 'leaves'} CPU${String(s.cpu)}`);
  }
  return `scheduler: ${words.join(', ') || 'a full barrier'}`;
}

/** A hotplug run in words: "hotplug: CPU1 goes offline", "hotplug: CPU1 is dead". */
function hotplugWords(p: CompiledProgram, run: readonly AxEvent[], k: number): string {
  const hp = p.machine.hotplug;
  const bit = k >= 0 ? 1n << BigInt(k) : 0n;
  const words: string[] = [];
  for (const e of run) {
    if (!hp || e.dir !== 'W') continue;
    if (e.loc === hp.online) words.push((e.value & bit) === 0n ? 'goes offline' : 'comes online');
    else if (e.loc === hp.dying && (e.value & bit) === 0n) words.push('is dead');
  }
  const who = k >= 0 ? `CPU${String(k)} ` : '';
  return `hotplug: ${words.length ? who + [...new Set(words)].join(', then ') : 'a full barrier'}`;
}
