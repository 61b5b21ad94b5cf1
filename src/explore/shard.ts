// One shard of an exploration: the nodes whose owner it is, searched level by level.
//
// The search (explore.ts says what it finds) is a Dijkstra over nodes with the lexicographic cost
// (interventions, switches, steps). Every edge costs at least one step, so all the nodes of the
// cheapest cost waiting form a *level* that can be expanded together: nothing they find costs as
// little as they do. Run on several threads, each shard owns the nodes a hash of their state
// gives it, expands its part of each level, and hands the successors it finds for another shard's
// nodes to that shard through a buffer; a barrier separates the levels (shards/).
//
// The answer must not depend on the number of shards. Ties are broken as one thread would break
// them: a level's nodes are expanded in the order of their *discovery key* (the rank of the node
// that first found them, then the index of the event among its successors), and the ranks are
// numbered across all shards in that order. A successor is a *proposal* with the key of its
// parent's rank and event; proposals are applied in key order, the first to reach a node fixes
// its discovery key, and a later one replaces its parent only when strictly cheaper. One shard
// applies them as it finds them, which is already key order; several shards merge what they
// found for each other by key first (`drain`).

import { budgetSlot } from '../machine/budget.ts';
import {
  apply,
  enabledEvents,
  Ev,
  eventCpu,
  eventType,
  isTerminal,
  Legal,
  makeEvent,
} from '../machine/events.ts';
import { MachineFault, topContext } from '../machine/interpreter.ts';
import { CTX_PC, ctxBase, type Machine } from '../machine/machine.ts';
import { hashKey, statesEqual } from '../machine/state.ts';
import { finalViolations, observe, outcomeKey, type Violation } from '../scenarios/outcome.ts';
import type { InvariantSpec, Observables } from '../scenarios/types.ts';
import { Float64Chunks } from './chunks.ts';
import { footprints } from './footprint.ts';
import { fmix, mix } from './interner.ts';
import { BucketQueue } from './queue.ts';
import { brokenIn, capRetries, type SearchSetup } from './setup.ts';
import { stuck } from './stuck.ts';
import { CpuCache, eventsOf, finished, legalOf } from './transitions.ts';
import { MAX_NODES, Visited } from './visited.ts';

/** Why an incomplete run stopped (or, for 'loop-bound', why it could not cover every path). */
export type StopReason = 'max-states' | 'max-memory' | 'cancelled' | 'simplest' | 'loop-bound';

// Cost weights: an intervention outweighs any number of switches, a switch any number of steps.
const W_INTERVENTION = 1e12;
const W_SWITCH = 1e6;

/**
 * A node's metadata word: interventions used (4 bits each: IRQs, NMIs, preemptions,
 * migrations), the CPU of the last step + 1 (8 bits), always-invariants broken (8 bits).
 */
export const usedOf = (meta: number, slot: number) => (meta >>> (4 * slot)) & 15;
export const lastOf = (meta: number) => ((meta >>> 16) & 255) - 1;
export const maskOf = (meta: number) => meta >>> 24;
export const interventionsOf = (meta: number) =>
  usedOf(meta, 0) + usedOf(meta, 1) + usedOf(meta, 2) + usedOf(meta, 3);
/** The metadata word of interventions already packed in `usedBits` (its low 16 bits). */
const packBits = (usedBits: number, last: number, mask: number) =>
  usedBits | ((last + 1) << 16) | (mask << 24);
const pack = (used: readonly number[], last: number, mask: number) =>
  packBits(
    (used[0] as number) |
      ((used[1] as number) << 4) |
      ((used[2] as number) << 8) |
      ((used[3] as number) << 12),
    last,
    mask,
  );

/** The Legal bits of the events a node with `used` interventions may still take. */
function allowedBy(used: readonly number[], limits: readonly number[]): number {
  let bits = Legal.Step | Legal.Flush;
  if ((used[0] as number) < (limits[0] as number)) bits |= Legal.Irq;
  if ((used[1] as number) < (limits[1] as number)) bits |= Legal.Nmi;
  if ((used[2] as number) < (limits[2] as number)) bits |= Legal.Preempt;
  if ((used[3] as number) < (limits[3] as number)) bits |= Legal.Migrate;
  if ((used[4] as number) < (limits[4] as number)) bits |= Legal.Offline | Legal.Online;
  return bits;
}

/** A node's id across shards: the shard in the top bits, its id in that shard below. */
export const REF_SHIFT = 26;
export const refOf = (shard: number, id: number) => (shard << REF_SHIFT) | id;
export const shardOfRef = (ref: number) => ref >>> REF_SHIFT;
export const idOfRef = (ref: number) => ref & ((1 << REF_SHIFT) - 1);

/**
 * Successors per node a key can tell apart (254 CPUs with migrations make 65,532 events). The
 * node's own record comes after its events: a fault's key is its event's, and a deadlock or an
 * end state is recorded after every event.
 */
export const EVENT_SLOTS = 1 << 17;
const RECORD_SLOT = EVENT_SLOTS - 1;

/** What `beginLevel` returns with one shard, whose nodes have no discovery keys. */
const NO_KEYS = new Float64Array(0);

/** Nodes whose successors one shard looks up together (see `Shard.batching`). */
const BATCH = 32;
/** Above this many nodes a batch could fill the set: lookups go one by one. */
const BATCH_ROOM = MAX_NODES - BATCH * EVENT_SLOTS;
/**
 * A batched successor's record: its tuple (component ids, then metadata: what `findAt` reads),
 * then these words after it.
 */
const PEND_PARENT = 0;
const PEND_EVENT = 1;
const PEND_SWITCHES = 2;
const PEND_STEPS = 3;
const PEND_HASH = 4;
const PEND_TAIL = 5;

/** A proposal record's fixed words, before its payload (component ids, or the whole state). */
export const P_PARENT = 0;
export const P_EVENT = 1;
export const P_META = 2;
export const P_SWITCHES = 3;
export const P_STEPS = 4;
export const P_HEAD = 5;

/** Where a shard writes the proposals it finds for one shard (itself included). */
export interface ProposalSink {
  /** Room for one more record of `words` words; returns where to write them. */
  reserve(key: number, words: number): Int32Array;
  /** The offset in that array where the reserved record starts. */
  readonly at: number;
}

/** Proposals to read, in key order: `n` records of `width` words, their keys beside them. */
export interface ProposalSource {
  readonly keys: Float64Array;
  readonly words: Int32Array;
  readonly n: number;
  readonly width: number;
  /** The payload is the whole state (from another shard), not component ids. */
  readonly whole: boolean;
}

/** An outcome as one shard found it, with where its first witness comes from. */
export interface ShardOutcome {
  readonly key: string;
  readonly observables: Observables;
  readonly violations: readonly Violation[];
  readonly terminal: boolean;
  /**
   * Global order of its first finding: rank × EVENT_SLOTS + the event's index, or the record
   * slot, then `image` (a class's members are recorded in the order of their renamings).
   */
  readonly order: number;
  /** The node (a ref) whose path leads here; for a fault, the event after it. */
  readonly node: number;
  readonly event: number;
  /** With symmetry: the renaming of the node's class the outcome was seen under (else 0). */
  readonly image: number;
  readonly mask: number;
  readonly interventions: number;
  readonly switches: number;
  states: number;
}

/** The first expanded node that broke an always-invariant, in global order. */
export interface ShardBroken {
  readonly id: string;
  readonly order: number;
  readonly node: number;
  readonly interventions: number;
  readonly switches: number;
}

export interface ShardOptions {
  /** This shard's index and the number of shards. */
  readonly index: number;
  readonly count: number;
}

export class Shard {
  readonly nodes: Visited;
  readonly queue = new BucketQueue();
  /** Per node (several shards only): the key of the proposal that found it first. */
  private readonly keys: Float64Chunks | null;
  readonly outcomes = new Map<string, ShardOutcome>();
  readonly broken = new Map<string, ShardBroken>();
  stopped: StopReason | null = null;
  /** A violation or a broken invariant was recorded (what `simplest` stops at). */
  violated = false;
  transitions = 0;
  expanded = 0;
  depth = 0;
  /** Every transition, for livelock detection (one shard, endless tasks only). */
  readonly edges = { n: 0, from: new Int32Array(0), to: new Int32Array(0), ev: new Int32Array(0) };

  /** The level being expanded: its node ids in key order. */
  private level: Int32Array = new Int32Array(0);
  private levelCost = 0;

  // The setup's fields `follow` reads at every transition, kept on the shard itself.
  private readonly m: Machine;
  private readonly limits: readonly number[];
  private readonly maxSwitches: number;
  private readonly sym: SearchSetup['symmetry'];
  private readonly endless: boolean;
  private readonly judges: boolean;
  private readonly one: boolean;
  private readonly prints: Int32Array | null;
  /**
   * What each CPU could do from its components, and where it led (transitions.ts): one shard,
   * no symmetry, nothing judged on the way.
   */
  private readonly known: CpuCache | null;
  /** Per CPU: its entry in `known` for the node being expanded (−1: none). */
  private readonly entries: Int32Array;
  /** Every answer of `known` is checked against the interpreter (tests). */
  private readonly checking: boolean;
  private readonly checkIds: Int32Array;
  private readonly cur: Int32Array;
  private readonly next: Int32Array;
  private readonly tmp: Int32Array;
  private readonly curIds: Int32Array;
  private readonly nextIds: Int32Array;
  private readonly used = [0, 0, 0, 0, 0];
  private readonly evs: number[] = [];

  // The node being expanded, shared with `follow`.
  private id = -1;
  private rank = 0;
  private lastCpu = -1;
  private mask = 0;
  private steps = 0;
  private switches = 0;
  private lastCanStep = false;
  /** The node's interventions used, as its metadata word holds them (`pack`'s low 16 bits). */
  private usedBits = 0;
  private moved = false;
  private sinks: readonly ProposalSink[] | null = null;
  /**
   * The component ids of what `cur` holds, when `heldKnown` (`cur` is written only by `seed`
   * and `decode`).
   */
  private readonly held: Int32Array;
  private heldKnown = false;
  /** Whether `cur` holds the state of the node being expanded (see `sync`). */
  private synced = false;

  // One shard without partial-order reduction looks its successors up in batches (`flush`):
  // the successors of BATCH nodes are kept here, in the order found, then their table slots are
  // touched together and they are applied in that order. Records of the tuple then PEND_TAIL
  // words (parent, event, switches, steps, hash). One shard needs no discovery keys: a proposal
  // it applies at once is already in key order.
  private batching = false;
  /** Whether the node being expanded defers its successors (`batching`, with room in the set). */
  private deferring = false;
  private pend = new Int32Array(0);
  private pendN = 0;
  /** Where the touched slots' words go, so that the reads are not optimised away. */
  private touched = 0;

  constructor(
    readonly setup: SearchSetup,
    readonly options: ShardOptions,
  ) {
    const m = setup.m;
    this.m = m;
    this.limits = setup.limits;
    this.maxSwitches = setup.bounds.switches;
    this.sym = setup.symmetry;
    this.endless = setup.endless;
    this.judges = setup.always.length > 0;
    this.one = options.count === 1;
    this.nodes = new Visited(m);
    this.keys = options.count > 1 ? new Float64Chunks() : null;
    // Where a successor can differ from its parent (not with symmetry: renaming moves every word).
    this.prints = setup.symmetry ? null : footprints(m, this.nodes.segments);
    this.cur = new Int32Array(m.size);
    this.next = new Int32Array(m.size);
    this.tmp = new Int32Array(m.size);
    this.curIds = new Int32Array(this.nodes.width);
    this.held = new Int32Array(this.nodes.width);
    this.checkIds = new Int32Array(this.nodes.width);
    this.nextIds = new Int32Array(this.nodes.width);
    this.batching = this.one && setup.por === null;
    this.checking = setup.caches === 'check';
    // Several shards hand each other whole states, symmetry renames every word, and invariants
    // judged on the way read the successor's state: those successors are built in full.
    this.known =
      this.one && !setup.symmetry && !this.judges && setup.caches !== 'off'
        ? CpuCache.for(m, this.nodes.segments, this.limits)
        : null;
    this.entries = new Int32Array(m.cpus).fill(-1);
  }

  /** Record words of a proposal to this shard (component ids) and to another (the state). */
  get localWidth(): number {
    return P_HEAD + this.nodes.width - 1;
  }
  get remoteWidth(): number {
    return P_HEAD + this.m.size;
  }

  /** Puts the root in the shard that owns it. */
  seed(): void {
    const { start, symmetry: sym, always } = this.setup;
    this.cur.set(start);
    this.heldKnown = false;
    this.synced = false;
    let rootLast = -1;
    if (sym) rootLast = sym.canonical(this.cur, -1, this.tmp).last;
    const meta = pack([0, 0, 0, 0], rootLast, always.length ? brokenIn(this.setup, this.cur) : 0);
    if (this.ownerOf(this.cur, meta) !== this.options.index) return;
    this.nodes.components(this.cur, this.curIds);
    const root = this.nodes.find(this.curIds, meta);
    this.keys?.ensure(root + 1);
    this.keys?.set(root, 0);
    this.nodes.setPath(root, 0, 0, -1, -1);
    this.queue.push(root, 0);
  }

  /**
   * The shard that owns a node: a hash of the words that change most between nodes (memory, the
   * CPUs' fields and buffers, each context's pc) and its metadata. One shard owns them all.
   */
  ownerOf(s: Int32Array, meta: number): number {
    const n = this.options.count;
    if (n === 1) return 0;
    const m = this.m;
    let h = mix(0x5bd1e995, meta);
    for (let i = 0; i < m.ctxOff; i++) h = mix(h, s[i] as number);
    for (let c = 0; c < m.contexts; c++) h = mix(h, s[ctxBase(m, c) + CTX_PC] as number);
    return (fmix(h) >>> 0) % n;
  }

  /** Hotplug events on the path to state s: the machine counts them (no room in `meta`). */
  private hotplugsIn(s: Int32Array): number {
    const hp = this.setup.m.hotplug;
    return hp === null ? 0 : (s[hp.count] as number);
  }

  // The search's order weighs IRQs, NMIs, preemptions and migrations; hotplug events, which the
  // state counts, are told in a witness's interventions but not weighed here.
  costOf(id: number): number {
    return (
      interventionsOf(this.nodes.meta(id)) * W_INTERVENTION +
      this.nodes.switchesOf(id) * W_SWITCH +
      this.nodes.stepsOf(id)
    );
  }

  /** The cheapest cost waiting here, Infinity when nothing waits. */
  minCost(): number {
    return this.queue.peekCost();
  }

  /**
   * Takes the level of cost `cost` (the cheapest over every shard): the nodes waiting at that
   * cost, in key order. Returns their discovery keys (several shards rank them together).
   */
  beginLevel(cost: number): Float64Array {
    this.levelCost = cost;
    const nodes = this.nodes;
    let ids: Int32Array = new Int32Array(0);
    if (this.queue.peekCost() === cost) {
      const b = this.queue.popBucket() as { ids: Int32Array };
      // Stale entries: nodes found cheaper since (already expanded), or listed twice.
      let n = 0;
      const all = b.ids;
      for (let i = 0; i < all.length; i++) {
        const id = all[i] as number;
        if (!nodes.isExpanded(id) && this.costOf(id) === cost) all[n++] = id;
      }
      ids = all.subarray(0, n);
    }
    this.level = ids;
    // One shard ranks its level by itself: no keys to hand over (and none to allocate).
    if (!this.keys) return NO_KEYS;
    const keys = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) keys[i] = this.keys.get(ids[i] as number);
    return keys;
  }

  get levelSize(): number {
    return this.level.length;
  }

  /**
   * Expands the level. `rankOf(i)` is the global rank of its i-th node; `sinks[j]` takes the
   * proposals for shard j (null with one shard: they are applied at once). `check` is called
   * every 4096 expansions and may stop the shard.
   */
  expandLevel(
    rankOf: (i: number) => number,
    sinks: readonly ProposalSink[] | null,
    check: () => StopReason | null,
  ): void {
    const { m, por, limits, always, params } = {
      m: this.m,
      por: this.setup.por,
      limits: this.setup.limits,
      always: this.setup.always,
      params: this.setup.params,
    };
    const nodes = this.nodes;
    const cur = this.cur;
    const curIds = this.curIds;
    const used = this.used;
    const evs = this.evs;
    this.sinks = sinks;
    // Batched lookups must not fill the set: a batch adds at most BATCH × EVENT_SLOTS nodes, and
    // the last ones before MAX_NODES are looked up one by one, so that a full set stops the
    // search after the same node as unbatched.
    const batched = this.batching && sinks === null;
    let inBatch = 0;
    for (let i = 0; i < this.level.length && this.stopped === null; i++) {
      const id = this.level[i] as number;
      if (nodes.isExpanded(id)) continue;
      if (inBatch === BATCH) {
        this.flush();
        inBatch = 0;
        if (this.halted()) break;
      }
      this.deferring = batched && nodes.count <= BATCH_ROOM;
      inBatch++;
      nodes.markExpanded(id);
      if (++this.expanded % 4096 === 0) {
        // The check reads the set's size: what the batch found is in it first.
        this.flush();
        const why = check();
        if (why !== null) {
          this.stopped = why;
          break;
        }
      }
      this.id = id;
      this.rank = rankOf(i);
      const meta = nodes.open(id, curIds);
      this.synced = false;
      if (this.known === null) this.sync();
      for (let j = 0; j < 4; j++) used[j] = usedOf(meta, j);
      this.usedBits = meta & 0xffff;
      // Hotplug events have no room in the metadata word: the machine counts them in the state.
      used[4] = m.hotplug !== null ? (cur[m.hotplug.count] as number) : 0;
      this.lastCpu = lastOf(meta);
      this.mask = maskOf(meta);
      this.steps = nodes.openSteps;
      this.switches = nodes.openSwitches;
      if (this.steps > this.depth) this.depth = this.steps;

      if (this.mask !== 0) {
        this.sync();
        this.violated = true;
        for (let j = 0; j < always.length; j++) {
          const inv = always[j] as InvariantSpec;
          if (
            (this.mask & (1 << j)) !== 0 &&
            !this.broken.has(inv.id) &&
            inv.always?.(m, cur, params) != null
          )
            this.broken.set(inv.id, {
              id: inv.id,
              order: this.rank * EVENT_SLOTS,
              node: refOf(this.options.index, id),
              interventions: interventionsOf(meta) + this.hotplugsIn(cur),
              switches: this.switches,
            });
        }
      }
      // An end state is an outcome, and still not the last word: with budget left, an IRQ or an
      // NMI can arrive after every task has finished (replay accepts it), and its handler can
      // change what the end state holds. Those events are all a finished machine has enabled.
      let terminal: boolean;
      let n = 0;
      const known = this.known;
      if (known === null) {
        terminal = isTerminal(m, cur);
        n = enabledEvents(m, cur, evs);
      } else {
        // By components: the state is decoded only for a CPU not met in them before. Events
        // whose budget is spent are left out here rather than refused one by one in `follow`.
        terminal = true;
        const allowed = allowedBy(used, limits);
        for (let k = 0; k < m.cpus; k++) {
          let e = -1;
          let v: number;
          if (known.readsAll(k)) {
            // A CPU whose events read every component is interpreted (see `readsAll`).
            this.sync();
            v = legalOf(m, cur, k);
          } else {
            e = known.find(k, curIds);
            if (e >= 0) {
              v = known.legal(e);
              if (this.checking) this.checkLegal(k, v);
            } else {
              this.sync();
              v = legalOf(m, cur, k);
              e = known.add(k, curIds, v);
            }
          }
          this.entries[k] = e;
          if (!finished(v)) terminal = false;
          n = eventsOf(m, k, v & allowed, evs, n);
        }
      }
      if (terminal) {
        this.sync();
        this.record(meta, true);
      }

      // Could the previous step's CPU still step? Then stepping another CPU is a switch.
      this.lastCanStep = false;
      for (let j = 0; j < n; j++) {
        const ev = evs[j] as number;
        if (eventType(ev) === Ev.Step && eventCpu(ev) === this.lastCpu) this.lastCanStep = true;
      }
      this.moved = false;
      // A private step alone, unless it leads back to a node already met (the cycle proviso).
      // With one shard only (setup refuses it otherwise): whether a node is new is known at once.
      if (por) this.sync();
      const alone = por ? por.pick(cur, used, limits) : -1;
      if (alone < 0 || !this.follow(makeEvent(Ev.Step, alone), 0)) {
        for (let j = 0; j < n && !this.halted(); j++) this.follow(evs[j] as number, j + 1);
      }
      if (this.halted()) break;
      if (!terminal && !this.movedYet()) {
        this.sync();
        this.record(meta, false);
      }
    }
    this.flush();
    this.deferring = false;
    this.sinks = null;
  }

  /** Makes `cur` hold the state of the node being expanded, decoding what differs. */
  private sync(): void {
    if (this.synced) return;
    this.nodes.decode(this.id, this.cur, this.held, this.heldKnown);
    this.heldKnown = true;
    this.synced = true;
  }

  /** Applies the batched successors (see `batching`) in the order they were found. */
  private flush(): void {
    const n = this.pendN;
    if (n === 0) return;
    this.pendN = 0;
    const nodes = this.nodes;
    const pend = this.pend;
    const width = nodes.width;
    const rec = width + PEND_TAIL;
    const hash = width + PEND_HASH;
    // Every first slot, then the record each names when its hash matches (a node met again): a
    // pass's loads do not wait for each other, so their cache misses overlap.
    let t = 0;
    for (let k = 0; k < n; k++) t ^= nodes.touch(pend[k * rec + hash] as number);
    for (let k = 0; k < n; k++) t ^= nodes.touchRecord(pend[k * rec + hash] as number);
    this.touched ^= t;
    for (let k = 0; k < n && this.stopped === null; k++) {
      const at = k * rec;
      const tail = at + width;
      this.propose(
        0,
        pend[tail + PEND_PARENT] as number,
        pend[tail + PEND_EVENT] as number,
        pend[at + width - 1] as number,
        pend[tail + PEND_SWITCHES] as number,
        pend[tail + PEND_STEPS] as number,
        pend,
        at,
        pend[tail + PEND_HASH] as number,
      );
    }
  }

  /** Makes room for one more batched successor; returns where its record starts in `pend`. */
  private reserve(): number {
    const rec = this.nodes.width + PEND_TAIL;
    if ((this.pendN + 1) * rec > this.pend.length) {
      const more = new Int32Array(Math.max(64, 2 * this.pendN) * rec);
      more.set(this.pend);
      this.pend = more;
    }
    return this.pendN++ * rec;
  }

  // Read through methods: `follow` changes them behind TypeScript's back.
  private halted(): boolean {
    return this.stopped !== null;
  }
  private movedYet(): boolean {
    return this.moved;
  }

  /**
   * Follows event ev (the `slot`-th successor) from the node being expanded. With one shard,
   * applies it and returns whether it led to a new node; with several, proposes it to its owner.
   */
  private follow(ev: number, slot: number): boolean {
    const sym = this.sym;
    const used = this.used;
    const limits = this.limits;
    const slotB = budgetSlot(ev);
    if (slotB >= 0 && (used[slotB] as number) >= (limits[slotB] as number)) return false;
    const isStep = eventType(ev) === Ev.Step;
    const switched = isStep && this.lastCanStep && eventCpu(ev) !== this.lastCpu;
    const switches = this.switches + (switched ? 1 : 0);
    if (switches > this.maxSwitches) return false;
    const nodes = this.nodes;
    const known = this.known;
    let moved = false;
    let cached = -1;
    const k = eventCpu(ev);
    const width = nodes.width;
    // A batched successor (one shard: `known` needs it) is written where `flush` reads it.
    const batched = this.sinks === null && this.deferring;
    const into = batched ? this.reserve() : 0;
    const ids = batched ? this.pend : this.nextIds;
    if (known !== null) {
      const e = this.entries[k] as number;
      cached = known.successor(e, k, eventType(ev), this.curIds, ids, into, width - 1);
      if (cached >= 0) {
        moved = cached === 1;
        if (this.checking) this.checkSuccessor(ev, moved, ids, into);
      }
    }
    if (cached < 0) {
      cached = this.interpret(ev, slot, batched, ids, into);
      if (cached < 0) return false;
      moved = cached === 1;
    }
    this.transitions++;
    let last = isStep ? eventCpu(ev) : this.lastCpu;
    if (sym) last = sym.canonical(this.next, last, this.tmp).last;
    // The node's own counters with this event's one more: a counter below its limit (at most
    // 15) has room for it in its 4 bits.
    const mask = this.judges ? this.mask | brokenIn(this.setup, this.next) : 0;
    const more = slotB >= 0 && slotB < 4 ? 1 << (4 * slotB) : 0;
    const nextMeta = packBits(this.usedBits + more, last, mask);
    // A successor that is another state is a move (nodes with equal states differ only in
    // their metadata, which an event that changes nothing can still change).
    if (moved) this.moved = true;

    const steps = this.steps + 1;
    const parent = refOf(this.options.index, this.id);
    // Without the cache, one shard's ids are worked out here, from the state renamed by symmetry.
    if (known === null && this.one) {
      this.componentsOf(ev, this.next, this.nextIds);
      if (batched) for (let j = 0; j < width - 1; j++) ids[into + j] = this.nextIds[j] as number;
    }
    ids[into + width - 1] = nextMeta;
    if (batched) {
      const tail = into + width;
      ids[tail + PEND_PARENT] = parent;
      ids[tail + PEND_EVENT] = ev;
      ids[tail + PEND_SWITCHES] = switches;
      ids[tail + PEND_STEPS] = steps;
      ids[tail + PEND_HASH] = nodes.hashAt(ids, into);
      return false;
    }
    if (this.one)
      return this.propose(0, parent, ev, nextMeta, switches, steps, ids, 0, nodes.hashAt(ids, 0));
    const owner = this.ownerOf(this.next, nextMeta);
    const mine = owner === this.options.index;
    if (mine) this.componentsOf(ev, this.next, this.nextIds);
    // Several shards: applied in key order with the others' proposals (`drain`); one of this
    // shard's own carries its component ids, one for another shard the whole state.
    const key = this.rank * EVENT_SLOTS + slot;
    const sink = (this.sinks as readonly ProposalSink[])[owner] as ProposalSink;
    const w = sink.reserve(key, mine ? this.localWidth : this.remoteWidth);
    const at = sink.at;
    w[at + P_PARENT] = parent;
    w[at + P_EVENT] = ev;
    w[at + P_META] = nextMeta;
    w[at + P_SWITCHES] = switches;
    w[at + P_STEPS] = steps;
    w.set(mine ? this.nextIds.subarray(0, width - 1) : this.next, at + P_HEAD);
    return false;
  }

  /**
   * `follow`'s successor by ev, built by the interpreter into `next` (and, with the cache, its
   * ids into ids[into ..], learnt by the cache). Returns whether it is another state (1) or the
   * same (0), or −1 when the event faults (recorded as an outcome). Apart from `follow`, whose
   * common case it is not: a function the optimiser compiles on its own, and `follow` quickly.
   */
  private interpret(
    ev: number,
    slot: number,
    batched: boolean,
    ids: Int32Array,
    into: number,
  ): number {
    const m = this.m;
    const known = this.known;
    this.sync();
    const cur = this.cur;
    const next = this.next;
    // One block copy (a memcpy), not a word loop.
    next.set(cur);
    try {
      apply(m, next, ev);
    } catch (e) {
      if (!(e instanceof MachineFault)) throw e;
      if (batched) this.pendN--;
      this.fault(ev, slot, e.message);
      // The state is not stuck: its path ends in the fault, told as an outcome of its own.
      this.moved = true;
      return -1;
    }
    if (this.endless) capRetries(m, next);
    const moved = !statesEqual(next, cur);
    if (known !== null) {
      const k = eventCpu(ev);
      const n = this.nodes.width - 1;
      this.componentsOf(ev, next, this.nextIds);
      known.learn(this.entries[k] as number, k, eventType(ev), this.nextIds, moved);
      if (batched) for (let j = 0; j < n; j++) ids[into + j] = this.nextIds[j] as number;
    }
    return moved ? 1 : 0;
  }

  /** Writes into `ids` the component ids of `next`, a successor by ev of the node expanded. */
  private componentsOf(ev: number, next: Int32Array, ids: Int32Array): void {
    const m = this.m;
    const nodes = this.nodes;
    const prints = this.prints;
    // Migrations and hotplug write another CPU's words: the full comparison (footprint.ts).
    if (prints !== null && eventType(ev) !== Ev.Migrate && eventType(ev) < Ev.Offline) {
      const k = eventCpu(ev);
      const at =
        (k * (m.contexts + 1) + topContext(m, this.cur, k) + 1) * 2 * nodes.segments.length;
      nodes.components(next, ids, this.cur, this.curIds, prints, at);
    } else nodes.components(next, ids, this.cur, this.curIds);
  }

  /** With `checking`: the cached successor by ev (ids at ids[at ..]) is the interpreter's. */
  private checkSuccessor(ev: number, moved: boolean, ids: Int32Array, at: number): void {
    this.sync();
    const next = this.tmp;
    next.set(this.cur);
    apply(this.m, next, ev);
    if (this.endless) capRetries(this.m, next);
    this.componentsOf(ev, next, this.checkIds);
    const n = this.nodes.width - 1;
    let same = moved === !statesEqual(next, this.cur);
    for (let j = 0; j < n; j++) if (this.checkIds[j] !== ids[at + j]) same = false;
    if (!same) throw new Error(`the transition cache is wrong about event ${ev}`);
  }

  /** With `checking`: CPU k's cached legal events `v` are what the state says. */
  private checkLegal(k: number, v: number): void {
    this.sync();
    if (legalOf(this.m, this.cur, k) !== v)
      throw new Error(`the legal-event cache is wrong about CPU ${k}`);
  }

  /**
   * Applies one proposal: finds (or adds) the node whose tuple (component ids, then `meta`) is
   * at src[off ..], of hash `hash`, and makes the proposal its path if it is strictly cheaper
   * than the one it has. Returns whether the node is new.
   */
  private propose(
    key: number,
    parent: number,
    ev: number,
    meta: number,
    switches: number,
    steps: number,
    src: Int32Array,
    off: number,
    hash: number,
  ): boolean {
    const nodes = this.nodes;
    const to = nodes.findAt(src, off, hash);
    if (to < 0) {
      // The table is full (MAX_NODES): the search cannot go on here.
      this.stopped = 'max-states';
      return false;
    }
    const fresh = nodes.fresh;
    if (fresh && this.keys) {
      this.keys.ensure(to + 1);
      this.keys.set(to, key);
    }
    if (this.endless) this.addEdge(idOfRef(parent), to, ev);
    if (nodes.improve(to, steps, switches, parent, ev)) {
      // costOf(to), from what is at hand rather than read back from the node's record.
      this.queue.push(to, interventionsOf(meta) * W_INTERVENTION + switches * W_SWITCH + steps);
    }
    return fresh;
  }

  /**
   * Applies the level's proposals for this shard (several shards): every source is in key
   * order, and they are merged so that the proposals are applied in key order, as one shard
   * applies them. A proposal from another shard carries its whole state, interned here.
   */
  drain(sources: readonly ProposalSource[]): void {
    const heads = sources.map(() => 0);
    const ids = this.nextIds;
    const state = this.next;
    const width = this.nodes.width - 1;
    for (;;) {
      let best = -1;
      let bestKey = Infinity;
      for (let j = 0; j < sources.length; j++) {
        const src = sources[j] as ProposalSource;
        const h = heads[j] as number;
        if (h < src.n && (src.keys[h] as number) < bestKey) {
          bestKey = src.keys[h] as number;
          best = j;
        }
      }
      if (best < 0 || this.stopped !== null) return;
      const src = sources[best] as ProposalSource;
      const h = heads[best] as number;
      heads[best] = h + 1;
      const at = h * src.width;
      const w = src.words;
      if (src.whole) {
        state.set(w.subarray(at + P_HEAD, at + P_HEAD + this.m.size));
        this.nodes.components(state, ids);
      } else ids.set(w.subarray(at + P_HEAD, at + P_HEAD + width));
      const meta = w[at + P_META] as number;
      this.propose(
        bestKey,
        w[at + P_PARENT] as number,
        w[at + P_EVENT] as number,
        meta,
        w[at + P_SWITCHES] as number,
        w[at + P_STEPS] as number,
        ids,
        0,
        this.nodes.hashOf(ids, meta),
      );
    }
  }

  private addEdge(f: number, t: number, e: number): void {
    const edges = this.edges;
    if (edges.n === edges.from.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(Math.max(4096, a.length * 2));
        b.set(a);
        return b;
      };
      edges.from = grow(edges.from);
      edges.to = grow(edges.to);
      edges.ev = grow(edges.ev);
    }
    edges.from[edges.n] = f;
    edges.to[edges.n] = t;
    edges.ev[edges.n] = e;
    edges.n++;
  }

  /** Records the end state of the node being expanded (terminal, or stuck: nothing moves it). */
  private record(meta: number, terminal: boolean): void {
    const { sc, m, params, symmetry: sym } = this.setup;
    const s = this.cur;
    const mask = maskOf(meta);
    const node = refOf(this.options.index, this.id);
    const add = (state: Int32Array, image: number) => {
      const o = observe(sc, m, state, params);
      // Judged per end state (a typed program's final invariants may read the state itself), so
      // end states with the same observables but other verdicts are other outcomes.
      const violations: Violation[] = terminal
        ? finalViolations(sc, o, params, m, state)
        : [stuck(m, state)];
      const key = `${terminal ? 'T' : 'D'}${mask}${violations.map((v) => v.id).join(',')}|${outcomeKey(o)}`;
      const seen = this.outcomes.get(key);
      if (seen) {
        seen.states++;
        return;
      }
      if (violations.length > 0 || mask !== 0) this.violated = true;
      this.outcomes.set(key, {
        key,
        observables: o,
        violations,
        terminal,
        order: this.rank * EVENT_SLOTS + RECORD_SLOT,
        node,
        event: -1,
        image,
        mask,
        interventions: interventionsOf(meta) + this.hotplugsIn(s),
        switches: this.switches,
        states: 1,
      });
    };
    if (!sym) {
      add(s, 0);
      return;
    }
    // Every member of the class is reachable (the start is the same under each renaming); each
    // distinct one counts as an end state, as in the full exploration.
    const seen: { hash: number; last: number; image: Int32Array }[] = [];
    for (let h = 0; h < sym.perms.length; h++) {
      const image = new Int32Array(m.size);
      sym.image(h, s, image);
      const last = sym.cpu(h, lastOf(meta));
      const hash = hashKey(image);
      if (seen.some((x) => x.hash === hash && x.last === last && statesEqual(x.image, image)))
        continue;
      seen.push({ hash, last, image });
      add(image, h);
    }
  }

  /**
   * An event that makes the machine fault (a typed program divides by zero, or unlocks a lock
   * it does not hold): an outcome of its own, with the schedule that leads to it, so Explore
   * answers "this program can fault, here is how" instead of stopping.
   */
  private fault(ev: number, slot: number, reason: string): void {
    const key = `F|${reason}`;
    const seen = this.outcomes.get(key);
    if (seen) {
      seen.states++;
      return;
    }
    this.violated = true;
    this.outcomes.set(key, {
      key,
      observables: observe(this.setup.sc, this.m, this.cur, this.setup.params),
      violations: [{ id: 'fault', reason }],
      terminal: false,
      order: this.rank * EVENT_SLOTS + slot,
      node: refOf(this.options.index, this.id),
      event: ev,
      image: 0,
      mask: 0,
      interventions: interventionsOf(this.nodes.meta(this.id)) + this.hotplugsIn(this.cur),
      switches: this.switches,
      states: 1,
    });
  }

  /** Memory held: the nodes, the queue, the edges, the cache. */
  get bytes(): number {
    return (
      this.nodes.bytes +
      this.queue.bytes +
      this.edges.from.byteLength * 3 +
      (this.keys?.bytes ?? 0) +
      (this.known?.bytes ?? 0)
    );
  }
}
