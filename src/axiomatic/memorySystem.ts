// "Be the memory system": the student chooses, read by read, the write each read sees, and the
// lab says at each choice whether some execution is still possible and, when none is, which
// axiom closes the door. Pure: a set of candidates narrowed by the choices made so far.

import type { CompiledProgram } from '../lang/compiled.ts';
import type { Candidate } from './check.ts';
import { Tag } from './events.ts';
import { eventLabel, executionGraph, type ExecutionGraph } from './explain.ts';
import { type Axiom, lkmm, type LkmmVerdict } from './lkmm.ts';
import { isLockEvent } from './threads.ts';

/** An event's name that survives from one candidate to another: `P1.2`, or `init.x`. */
export type EventKey = string;

/** One read and the writes it may read from. */
export interface ReadChoice {
  readonly read: EventKey;
  readonly label: string;
  readonly options: readonly { readonly write: EventKey; readonly label: string }[];
  /** The write chosen for it, if any. */
  readonly chosen: EventKey | null;
}

export interface MemorySystemView {
  /** The reads of the execution in view, each with its choices. */
  readonly reads: readonly ReadChoice[];
  /** Candidates that agree with every choice so far, and how many the model allows. */
  readonly candidates: number;
  readonly consistent: number;
  /** When none is allowed: the axiom that forbids them (the one most of them break). */
  readonly closedBy: Axiom | null;
  /** An execution that agrees with the choices: an allowed one if there is one. */
  readonly graph: ExecutionGraph | null;
  /** What the last choice did, in words (for the narration). */
  readonly sentence: string;
}

interface Judged extends Candidate {
  verdict: LkmmVerdict | null;
}

function keyOf(c: Candidate, id: number): EventKey {
  const e = c.skeleton.events[id];
  if (!e) return '?';
  if (e.tags & Tag.Init) return `init.${e.loc}`;
  return `P${e.thread}.${e.po}`;
}

function sourceOf(c: Candidate, read: EventKey): EventKey | null | undefined {
  const e = c.skeleton.events.find((x) => keyOf(c, x.id) === read);
  if (!e) return undefined;
  const from = c.execution.rf.pairs().find(([, r]) => r === e.id);
  return from ? keyOf(c, from[0]) : null;
}

/** A memory system over a program's candidates (a litmus-sized program: a few thousand). */
export class MemorySystem {
  private readonly all: Judged[];
  private readonly picks = new Map<EventKey, EventKey>();

  constructor(
    private readonly p: CompiledProgram,
    candidates: Iterable<Candidate>,
  ) {
    this.all = [...candidates].map((c) => ({ ...c, verdict: null }));
  }

  private judge(c: Judged): LkmmVerdict {
    c.verdict ??= lkmm(c.execution, true);
    return c.verdict;
  }

  private matching(picks: ReadonlyMap<EventKey, EventKey>): Judged[] {
    return this.all.filter((c) => [...picks].every(([r, w]) => sourceOf(c, r) === w));
  }

  /** Chooses `write` for `read` (or, with null, takes the choice back). */
  choose(read: EventKey, write: EventKey | null): MemorySystemView {
    if (write === null) this.picks.delete(read);
    else this.picks.set(read, write);
    return this.view(read, write);
  }

  /** Forgets every choice. */
  reset(): MemorySystemView {
    this.picks.clear();
    return this.view(null, null);
  }

  view(lastRead: EventKey | null = null, lastWrite: EventKey | null = null): MemorySystemView {
    const left = this.matching(this.picks);
    const allowed = left.filter((c) => this.judge(c).consistent);
    const shown = allowed[0] ?? left[0] ?? null;
    let closedBy: Axiom | null = null;
    if (allowed.length === 0 && left.length > 0) {
      const tally = new Map<Axiom, number>();
      for (const c of left) {
        const a = this.judge(c).broken[0];
        if (a) tally.set(a, (tally.get(a) ?? 0) + 1);
      }
      closedBy = [...tally].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    }
    const reads: ReadChoice[] = [];
    if (shown) {
      for (const e of shown.skeleton.events) {
        if (e.dir !== 'R' || isLockEvent(e.tags)) continue;
        const key = keyOf(shown, e.id);
        // The writes some candidate agreeing with the other choices lets this read see.
        const others = new Map(this.picks);
        others.delete(key);
        const seen = new Map<EventKey, string>();
        for (const c of this.matching(others)) {
          const src = sourceOf(c, key);
          if (src === null || src === undefined || seen.has(src)) continue;
          const w = c.skeleton.events.find((x) => keyOf(c, x.id) === src);
          if (w) seen.set(src, graphLabel(this.p, c, w.id));
        }
        reads.push({
          read: key,
          label: graphLabel(this.p, shown, e.id),
          options: [...seen].map(([write, label]) => ({ write, label })),
          chosen: this.picks.get(key) ?? null,
        });
      }
    }
    const graph = shown
      ? executionGraph(this.p, shown.skeleton, shown.execution, shown.state, this.judge(shown))
      : null;
    const sentence =
      lastRead === null
        ? `${left.length} candidate executions, ${allowed.length} of them allowed by the model.`
        : left.length === 0
          ? `No run of the program has ${lastRead} read from ${lastWrite ?? 'that write'}: the values do not fit.`
          : allowed.length === 0
            ? `No execution is possible any more: every candidate left breaks ${closedBy ?? 'an axiom'}.`
            : `${allowed.length} of the ${left.length} candidate executions left are allowed.`;
    return {
      reads,
      candidates: left.length,
      consistent: allowed.length,
      closedBy,
      graph,
      sentence,
    };
  }
}

function graphLabel(p: CompiledProgram, c: Candidate, id: number): string {
  const e = c.skeleton.events[id];
  return e ? `${e.thread >= 0 ? `P${e.thread}: ` : ''}${eventLabel(p, e)}` : '?';
}
