// Sequential consistency and x86-TSO as axiomatic models, over the same candidate executions as
// the kernel's model: the explorer steps these machines, and these predicates judge whole
// executions, so the two can be held to the same end states (src/axiomatic/models.test.ts) and a
// herd7-style answer under sc or tso can count executions, not only end states.
//
// - sc: acyclic(po ∪ rf ∪ co ∪ fr) (Lamport; herd7's sc.cat), with every RMW atomic.
// - tso: x86-TSO (Owens, Sarkar, Sewell, TPHOLs 2009): per-location coherence, and acyclic(ppo ∪
//   rfe ∪ co ∪ fr ∪ fences), where ppo is program order less a write followed by a read (a store
//   may wait in the buffer), and a LOCKed instruction (an RMW, taking a spinlock) or smp_mb()
//   orders everything around it. A CPU reads its own buffered store early (rfi is not global).
// Spinlocks are the kernel model's lock events (lock.cat), so the lock rules are shared.

import type { CompiledProgram } from '../lang/compiled.ts';
import type { Execution } from './execution.ts';
import { Tag } from './events.ts';
import { lkmm } from './lkmm.ts';
import { EventSet, Relation } from './relation.ts';

export type AxiomaticModel = 'sc' | 'tso' | 'lkmm';

/** The events of RCU and SRCU: read-side sections and grace periods. */
const RCU =
  Tag.RcuLock | Tag.RcuUnlock | Tag.SyncRcu | Tag.SrcuLock | Tag.SrcuUnlock | Tag.SyncSrcu;

/** Whether a candidate execution is consistent under `model`. */
export function consistentUnder(model: AxiomaticModel, x: Execution): boolean {
  const v = lkmm(x);
  if (model === 'lkmm') return v.consistent;
  // The lock rules and atomicity hold in every model; the rest is the model's own.
  const lockRules = ['lock-nest', 'nested-is-locked', 'unmatched-locks', 'atomic'] as const;
  if (v.broken.some((b) => (lockRules as readonly string[]).includes(b))) return false;
  const r = v.rel;
  const com = r.rf.union(r.co, r.fr);
  if (model === 'sc') return r.po.union(com).acyclic();
  if (!r.poLoc.union(com).acyclic()) return false;
  const ev = x.events;
  const n = ev.length;
  const W = EventSet.of(
    n,
    ev.filter((e) => e.dir === 'W').map((e) => e.id),
  );
  const R = EventSet.of(
    n,
    ev.filter((e) => e.dir === 'R').map((e) => e.id),
  );
  const M = W.union(R);
  const locked = EventSet.of(
    n,
    ev.filter((e) => (e.tags & (Tag.Rmw | Tag.Lkr | Tag.Lkw | Tag.Lf)) !== 0).map((e) => e.id),
  );
  const mfence = EventSet.of(
    n,
    ev.filter((e) => e.dir === 'F' && (e.tags & Tag.Mb) !== 0).map((e) => e.id),
  );
  const ppo = r.po.restrict(M, M).minus(Relation.cross(W, R));
  const fences = r.po
    .restrict(locked, M)
    .union(r.po.restrict(M, locked), r.po.restrict(null, mfence).seq(r.po).restrict(M, M));
  return ppo.union(fences, r.rf.inter(r.ext), r.co, r.fr).acyclic();
}

/**
 * Whether the engine's executions under `model` are the program's: under sc and tso, RCU's grace
 * periods are the machine's own (code it runs, src/lang/primitives.ts), which these models do not
 * judge, so a program compiled for the engine (memory lkmm) with an RCU or SRCU event is not
 * counted there. Under lkmm they are the model's own events.
 */
export function countableUnder(model: AxiomaticModel, p: CompiledProgram): boolean {
  if (model === 'lkmm') return true;
  return !p.machine.programs.some((t) => t.instrs.some((i) => (i.tag & RCU) !== 0));
}
