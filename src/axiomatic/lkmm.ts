// The Linux-kernel memory model (LKMM) on one candidate execution: the relations of
// tools/memory-model/linux-kernel.bell, lock.cat and linux-kernel.cat (Linux v6.x, herdtools7's
// `lkmmv2` variant), computed in the order the files define them, and their axioms and flags.
//
// The names follow the model's, so a reader can hold this file beside the kernel's: `ppo`,
// `cumul-fence` (cumulFence), `prop`, `hb`, `pb`, `rcu-link`, `rb`. Where the model redefines a
// name (`rf` after the lock events, `fence` and `strong-fence` after RCU), the later definition is
// a new variable, used only by what the model defines after it.

import { Tag, type AxEvent } from './events.ts';
import { internal, sameLocation, tagged, where, type Execution } from './execution.ts';
import { EventSet, Relation } from './relation.ts';

/** The model's axioms, in the order the files check them. */
export const AXIOMS = [
  'coherence',
  'atomic',
  'happens-before',
  'propagation',
  'rcu',
  'plain-coherence',
  'lock-nest',
  'nested-is-locked',
  'unmatched-locks',
] as const;
export type Axiom = (typeof AXIOMS)[number];

/** What the model says of one candidate. */
export interface LkmmVerdict {
  readonly consistent: boolean;
  /** The axioms it breaks (empty when consistent). */
  readonly broken: readonly Axiom[];
  /** The flags it raises (herd7 prints `Flag <name>` when a consistent execution raises one). */
  readonly flags: readonly string[];
  /** The named relations, for the graph and its explanations. */
  readonly rel: LkmmRelations;
}

/** Relations a picture or an explanation names. */
export interface LkmmRelations {
  readonly po: Relation;
  readonly rf: Relation;
  readonly co: Relation;
  readonly fr: Relation;
  readonly addr: Relation;
  readonly data: Relation;
  readonly ctrl: Relation;
  readonly rmw: Relation;
  readonly poLoc: Relation;
  readonly ppo: Relation;
  readonly fence: Relation;
  readonly strongFence: Relation;
  readonly mb: Relation;
  readonly wmb: Relation;
  readonly rmb: Relation;
  readonly poRel: Relation;
  readonly acqPo: Relation;
  readonly poUnlockLockPo: Relation;
  readonly rfe: Relation;
  readonly ext: Relation;
  readonly int: Relation;
  readonly prop: Relation;
  readonly hb: Relation;
  readonly pb: Relation;
  readonly rb: Relation;
  readonly rcuFence: Relation;
  /** Pairs of conflicting accesses, one plain, that race (what raises `Flag data-race`). */
  readonly race?: Relation;
  /** The relation each acyclicity axiom is about (`coherence`: po-loc | com). */
  readonly ofAxiom: Readonly<Partial<Record<Axiom, Relation>>>;
}

const LOCK_READS = Tag.Lkr | Tag.Lf | Tag.Rl | Tag.Ru;

/** `fencerel(S)`: po ; [S] ; po, from an event before a fence of S to one after it. */
function fencerel(po: Relation, s: EventSet): Relation {
  return po.restrict(null, s).seq(po);
}

/** Matching pairs of nested rcu_read_lock() and rcu_read_unlock() in each thread. */
function rcuSections(events: readonly AxEvent[]): Relation {
  const r = new Relation(events.length);
  const open = new Map<number, number[]>();
  for (const e of [...events].sort((a, b) => a.thread - b.thread || a.po - b.po)) {
    if (e.thread < 0) continue;
    const stack = open.get(e.thread) ?? [];
    open.set(e.thread, stack);
    if (e.tags & Tag.RcuLock) stack.push(e.id);
    else if (e.tags & Tag.RcuUnlock) {
      const l = stack.pop();
      if (l !== undefined) r.add(l, e.id);
    }
  }
  return r;
}

/** `singlestep(r)`: the pairs of r with nothing of r between them. */
function singlestep(r: Relation): Relation {
  return r.minus(r.seq(r));
}

/**
 * Judges one candidate execution under the LKMM. Unless `full`, it stops at the first broken
 * axiom (the relations after it are then left empty): what counting executions needs. `full`
 * computes every relation and checks every axiom, for the graph and its explanations.
 */
export function lkmm(x: Execution, full = false): LkmmVerdict {
  const ev = x.events;
  const n = ev.length;
  const all = EventSet.all(n);
  const id = Relation.identity(n);
  const po = x.po;
  const loc = sameLocation(ev);
  const int = internal(ev);
  const ext = Relation.cross(all, all).minus(int);
  const poLoc = po.inter(loc);
  const t = (tags: number) => tagged(ev, tags);

  // ---- linux-kernel.bell (before lock.cat: R, W and M without the lock events) --------------
  const R0 = where(ev, (e) => e.dir === 'R' && (e.tags & LOCK_READS) === 0);
  const W0 = where(ev, (e) => e.dir === 'W' && (e.tags & (Tag.Lkw | Tag.Ul)) === 0);
  const M0 = R0.union(W0);
  const IW = t(Tag.Init);
  const RMW = t(Tag.Rmw);
  const rmw0 = x.rmw;
  const failedRmw = RMW.minus(rmw0.domain().union(rmw0.range()));
  let acquire = t(Tag.Acquire).minus(W0).minus(failedRmw);
  let release = t(Tag.Release).minus(R0).minus(failedRmw);
  const Mb = t(Tag.Mb).minus(failedRmw);
  const noreturn = t(Tag.Noreturn).minus(W0);
  const srcuLock = t(Tag.SrcuLock);
  const srcuUnlock = t(Tag.SrcuUnlock);
  const syncSrcu = t(Tag.SyncSrcu);
  const LKR = t(Tag.Lkr);
  const LKW = t(Tag.Lkw);
  const UL = t(Tag.Ul);
  const LF = t(Tag.Lf | Tag.Rl);
  const RU = t(Tag.Ru);
  const rf0 = x.rf.restrict(null, R0);
  const flags: string[] = [];
  const flag = (name: string, raised: boolean) => {
    if (raised) flags.push(name);
  };

  const rcuRscs = rcuSections(ev);
  flag('unmatched-rcu-lock', !t(Tag.RcuLock).minus(rcuRscs.domain()).isEmpty());
  flag('unmatched-rcu-unlock', !t(Tag.RcuUnlock).minus(rcuRscs.range()).isEmpty());

  const notSrcuUnlock = srcuUnlock.complement().id();
  const carrySrcuData = x.data.seq(notSrcuUnlock).seq(rf0).star();
  const srcuRscs = srcuLock
    .id()
    .seq(carrySrcuData)
    .seq(x.data)
    .restrict(null, srcuUnlock)
    .inter(loc);
  flag('unmatched-srcu-lock', !srcuLock.minus(srcuRscs.domain()).isEmpty());
  flag('unmatched-srcu-unlock', !srcuUnlock.minus(srcuRscs.range()).isEmpty());
  flag('multiple-srcu-matches', !srcuRscs.inverse().seq(srcuRscs).minus(id).isEmpty());
  flag('invalid-sleep', !rcuRscs.inter(po.restrict(null, syncSrcu).seq(po)).isEmpty());
  let badValue = false;
  srcuRscs.forEach((a, b) => {
    if ((ev[a] as AxEvent).value !== (ev[b] as AxEvent).value) badValue = true;
  });
  flag('srcu-bad-value-match', badValue);

  const marked = M0.complement()
    .union(IW)
    .union(t(Tag.Once | Tag.Release | Tag.Acquire | Tag.Mb | Tag.Rmw))
    .union(
      t(Tag.Lkr | Tag.Lkw | Tag.Ul | Tag.Lf | Tag.Rl | Tag.Ru | Tag.SrcuLock | Tag.SrcuUnlock),
    );
  const plain = M0.minus(marked);
  const rfi0 = rf0.inter(int);
  const carryDep = x.data.seq(notSrcuUnlock).seq(rfi0).star();
  const addr = carryDep.seq(x.addr);
  const ctrl = carryDep.seq(x.ctrl);
  const data = carryDep.seq(x.data);

  // ---- lock.cat ------------------------------------------------------------------------------
  const allLocks = LKR.union(LKW)
    .union(UL)
    .union(LF)
    .union(RU)
    .union(srcuLock)
    .union(srcuUnlock)
    .union(syncSrcu);
  flag('mixed-lock-accesses', !loc.restrict(M0.minus(IW).minus(allLocks), allLocks).isEmpty());
  const poPo = po.seq(po);
  const lkRmw = poLoc.restrict(LKR, LKW).minus(poPo);
  const rmw = rmw0.union(lkRmw);
  flag('unpaired-LKW', !LKW.minus(lkRmw.range()).isEmpty());
  flag('unpaired-LKR', !LKR.minus(lkRmw.domain()).isEmpty());
  const betweenUnlock = poLoc.restrict(null, UL).seq(poLoc);
  const lockNest = poLoc.restrict(LKW, LKR).minus(betweenUnlock);
  const nestedIsLocked = poLoc.restrict(LKW, RU).minus(betweenUnlock);
  const R = R0.union(LKR).union(LF).union(RU);
  let W = W0.union(LKW);
  release = release.union(UL);
  acquire = acquire.union(LKR);
  const critical = poLoc.restrict(LKW, UL).minus(poLoc.restrict(null, LKW.union(UL)).seq(poLoc));
  flag('unmatched-unlock', !UL.minus(critical.range()).isEmpty());
  const unmatchedLkw = LKW.minus(critical.domain());
  const unmatchedLocks = loc.restrict(unmatchedLkw, unmatchedLkw).minus(id);
  const rfiLf = poLoc.restrict(LKW, LF).minus(poLoc.restrict(LKW, UL).seq(poLoc));
  // The candidate's rf holds the failed trylocks' and spin_is_locked()'s choices.
  let rf = rf0.union(x.rf.restrict(null, LF.union(RU))).union(rfiLf);
  W = W.union(UL);
  const M = R.union(W);
  const co = x.co.union(critical, critical.inverse().seq(x.co)).plus();
  rf = rf.union(IW.union(UL).id().seq(singlestep(co)).seq(lkRmw.inverse()));
  const rfe = rf.inter(ext);
  const rfi = rf.inter(int);
  const fr = rf.inverse().seq(co);
  const fre = fr.inter(ext);
  const coe = co.inter(ext);
  const FW = new EventSet(n);
  flag('lock-final', !loc.restrict(FW, allLocks).isEmpty());

  // ---- linux-kernel.cat ----------------------------------------------------------------------
  const acqPo = po.restrict(acquire, M);
  const poRel = po.restrict(M, release);
  const poUnlockLockPo = po.restrict(null, UL).seq(po.union(rf)).restrict(null, LKR).seq(po);
  const R4rmb = R.minus(noreturn);
  const rmb = fencerel(po, t(Tag.Rmb)).restrict(R4rmb, R4rmb);
  const wmb = fencerel(po, t(Tag.Wmb)).restrict(W, W);
  const poOpt = po.opt();
  const mb = fencerel(po, Mb)
    .restrict(M, M)
    .union(
      po.restrict(M, Mb.inter(R)),
      po.restrict(Mb.inter(W), M),
      fencerel(po, t(Tag.BeforeAtomic)).restrict(M, RMW).seq(poOpt).restrict(null, M),
      poOpt
        .restrict(M, RMW)
        .seq(fencerel(po, t(Tag.AfterAtomic)))
        .restrict(null, M),
      poOpt
        .restrict(M, LKW)
        .seq(fencerel(po, t(Tag.AfterSpinlock)))
        .restrict(null, M),
      M.id().seq(poUnlockLockPo).restrict(null, t(Tag.AfterUnlockLock)).seq(po).restrict(null, M),
      poOpt
        .restrict(M, srcuUnlock)
        .seq(fencerel(po, t(Tag.AfterSrcuReadUnlock)))
        .restrict(null, M),
    );
  const syncRcu = t(Tag.SyncRcu);
  const gp = po.restrict(null, syncRcu.union(syncSrcu)).seq(poOpt);
  const strongFence0 = mb.union(gp);
  const nonrwFence = strongFence0.union(poRel, acqPo);
  const fence0 = nonrwFence.union(wmb, rmb);
  const barrierSet = t(
    Tag.Barrier |
      Tag.Rmb |
      Tag.Wmb |
      Tag.Mb |
      Tag.SyncRcu |
      Tag.SyncSrcu |
      Tag.BeforeAtomic |
      Tag.AfterAtomic |
      Tag.RcuLock |
      Tag.RcuUnlock |
      Tag.SrcuLock |
      Tag.SrcuUnlock,
  )
    .union(acquire)
    .union(release);
  const barrier = fencerel(po, barrierSet).union(
    po.restrict(null, release),
    po.restrict(acquire, null),
  );

  const com = rf.union(co, fr);
  const coherenceRel = poLoc.union(com);
  const atomicBad = rmw.inter(fre.seq(coe));
  const broken: Axiom[] = [];
  const empty = new Relation(n);
  const rel = {
    po,
    rf,
    co,
    fr,
    addr,
    data,
    ctrl,
    rmw,
    poLoc,
    ppo: empty,
    fence: empty,
    strongFence: empty,
    mb: empty,
    wmb: empty,
    rmb: empty,
    poRel: empty,
    acqPo: empty,
    poUnlockLockPo: empty,
    rfe,
    ext,
    int,
    prop: empty,
    hb: empty,
    pb: empty,
    rb: empty,
    rcuFence: empty,
    ofAxiom: {} as Partial<Record<Axiom, Relation>>,
  };
  const verdict = (): LkmmVerdict => ({
    consistent: broken.length === 0,
    broken,
    flags: broken.length === 0 ? flags : [],
    rel,
  });
  rel.ofAxiom.coherence = coherenceRel;
  rel.ofAxiom.atomic = atomicBad;
  if (!coherenceRel.acyclic()) broken.push('coherence');
  if (!atomicBad.isEmpty()) broken.push('atomic');
  if (!lockNest.isEmpty()) broken.push('lock-nest');
  if (!nestedIsLocked.isEmpty()) broken.push('nested-is-locked');
  if (!unmatchedLocks.isEmpty()) broken.push('unmatched-locks');
  if (broken.length > 0 && !full) return verdict();

  const dep = addr.union(data);
  const rwdep = dep.union(ctrl).restrict(null, W);
  const overwrite = co.union(fr);
  const toW = rwdep.union(overwrite.inter(int), addr.restrict(null, plain).seq(wmb));
  const toR = addr.restrict(null, R).union(dep.restrict(null, marked).seq(rfi));
  const ppo = toR.union(toW, fence0.inter(int), poUnlockLockPo.inter(int));
  const markedId = marked.id();
  const aCumul = (r: Relation) => rfe.restrict(null, marked).opt().seq(r);
  const rmwSequence = rf.seq(rmw).star();
  const cumulFence = markedId
    .seq(aCumul(strongFence0.union(poRel)).union(wmb, poUnlockLockPo))
    .restrict(null, marked)
    .seq(rmwSequence);
  const prop = markedId
    .seq(overwrite.inter(ext).opt())
    .seq(cumulFence.star())
    .restrict(null, marked)
    .seq(rfe.opt())
    .restrict(null, marked);
  const hb = markedId.seq(ppo.union(rfe, prop.minus(id).inter(int))).restrict(null, marked);
  Object.assign(rel, { ppo, fence: fence0, strongFence: strongFence0, mb, wmb, rmb, poRel, acqPo });
  Object.assign(rel, { poUnlockLockPo, prop, hb });
  rel.ofAxiom['happens-before'] = hb;
  if (!hb.acyclic()) broken.push('happens-before');
  if (broken.length > 0 && !full) return verdict();
  const hbStar = hb.star();
  const pb = prop.seq(strongFence0).seq(hbStar).restrict(null, marked);
  rel.pb = pb;
  rel.ofAxiom.propagation = pb;
  if (!pb.acyclic()) broken.push('propagation');
  if (broken.length > 0 && !full) return verdict();
  const pbStar = pb.star();

  // RCU.
  const rcuGp = syncRcu.id();
  const srcuGp = syncSrcu.id();
  const rcuRscsi = rcuRscs.inverse();
  const srcuRscsi = srcuRscs.inverse();
  const rcuLink = poOpt.seq(hbStar).seq(pbStar).seq(prop).seq(po);
  let rcuOrder = new Relation(n);
  if (!syncRcu.isEmpty() || !syncSrcu.isEmpty()) {
    const base = rcuGp.union(
      srcuGp,
      Relation.seqAll(rcuGp, rcuLink, rcuRscsi),
      Relation.seqAll(srcuGp, rcuLink, srcuRscsi).inter(loc),
      Relation.seqAll(rcuRscsi, rcuLink, rcuGp),
      Relation.seqAll(srcuRscsi, rcuLink, srcuGp).inter(loc),
    );
    rcuOrder = base;
    for (;;) {
      const o = rcuOrder;
      const next = base.union(
        Relation.seqAll(rcuGp, rcuLink, o, rcuLink, rcuRscsi),
        Relation.seqAll(srcuGp, rcuLink, o, rcuLink, srcuRscsi).inter(loc),
        Relation.seqAll(rcuRscsi, rcuLink, o, rcuLink, rcuGp),
        Relation.seqAll(srcuRscsi, rcuLink, o, rcuLink, srcuGp).inter(loc),
        Relation.seqAll(o, rcuLink, o),
      );
      if (equalRel(next, o)) break;
      rcuOrder = next;
    }
  }
  const rcuFence = po.seq(rcuOrder).seq(poOpt);
  const fence = fence0.union(rcuFence);
  const strongFence = strongFence0.union(rcuFence);
  const rb = prop.seq(rcuFence).seq(hbStar).seq(pbStar).restrict(null, marked);
  Object.assign(rel, { fence, strongFence, rcuFence, rb });
  rel.ofAxiom.rcu = rb;
  if (!rb.irreflexive()) broken.push('rcu');
  if (broken.length > 0 && !full) return verdict();

  // Plain accesses and data races.
  const plainW = plain.inter(W);
  const poLocNoBarrier = poLoc.minus(barrier);
  flag(
    'mixed-accesses',
    !poLocNoBarrier
      .restrict(plainW, marked)
      .union(poLocNoBarrier.restrict(marked, plainW))
      .isEmpty(),
  );
  const xbstar = hb.union(pb, rb).star();
  const vis = cumulFence
    .star()
    .seq(rfe.opt())
    .restrict(null, marked)
    .seq(strongFence.restrict(null, marked).seq(xbstar).union(xbstar.inter(int)));
  const rmbFence = fencerel(po, t(Tag.Rmb));
  const notNoreturn = noreturn.complement();
  const wPreBounded = markedId.seq(addr.union(fence).opt());
  const rPreBounded = markedId.seq(
    addr.union(nonrwFence, rmbFence.restrict(R4rmb, notNoreturn)).opt(),
  );
  const wPostBounded = fence.opt().restrict(null, marked).seq(rmwSequence);
  const rPostBounded = nonrwFence
    .union(rmbFence.restrict(notNoreturn, R4rmb))
    .opt()
    .restrict(null, marked);
  const wwVis = fence.union(
    Relation.seqAll(strongFence, xbstar, wPreBounded),
    Relation.seqAll(wPostBounded, vis, wPreBounded),
  );
  const wrVis = fence.union(
    Relation.seqAll(strongFence, xbstar, rPreBounded),
    Relation.seqAll(wPostBounded, vis, rPreBounded),
  );
  const rwXbstar = fence.union(Relation.seqAll(rPostBounded, xbstar, wPreBounded));
  const preRace = ext.inter(Relation.cross(plain, M).union(Relation.cross(M.minus(IW), plain)));
  const wrIncoh = preRace.inter(rf).inter(rwXbstar.inverse());
  const rwIncoh = preRace.inter(fr).inter(wrVis.inverse());
  const wwIncoh = preRace.inter(co).inter(wwVis.inverse());
  const plainCoherenceBad = wrIncoh.union(rwIncoh, wwIncoh);
  const wwNonrace = wwVis
    .inter(Relation.cross(marked, W).union(rwXbstar))
    .inter(Relation.cross(W, marked).union(wrVis));
  const wwRace = preRace.inter(co).minus(wwNonrace);
  const wrRace = preRace.inter(co.opt().seq(rf)).minus(wrVis).minus(rwXbstar.inverse());
  const rwRace = preRace.inter(fr).minus(rwXbstar);
  const race = wwRace.union(wrRace, rwRace);
  Object.assign(rel, { race });
  flag('data-race', !race.isEmpty());

  rel.ofAxiom['plain-coherence'] = plainCoherenceBad;
  if (!plainCoherenceBad.isEmpty()) broken.push('plain-coherence');
  return verdict();
}

function equalRel(a: Relation, b: Relation): boolean {
  for (let k = 0; k < a.rows.length; k++) if (a.rows[k] !== b.rows[k]) return false;
  return true;
}
