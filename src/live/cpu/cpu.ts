// One live CPU: the loop a worker runs at full speed on the shared memory (docs/machine.md).
//
// An engine (engine/) runs the top context in bursts of a random number of steps, compiled to
// WebAssembly by default, or interpreted by the model's own `step`. Between bursts the loop takes
// the scheduler's events from the control words, under the model's rules (events.ts decides
// what is legal):
//   - an IRQ is taken at an instruction boundary; raised while interrupts are off it stays pending
//     and is delivered where they come back on; never between the two halves of a local-atomic
//     instruction (a burst never ends there);
//   - an NMI is taken at any boundary except inside the NMI handler;
//   - a task migrates only when it is preemptible (preempt_count 0, interrupts on, no handler).
// Bursts end at random boundaries, so an event lands anywhere in a program, not only between
// operations. Tasks repeat: when a task's program ends (one operation: an add, a sum) it starts
// over, after the summer period for observing tasks; its tally keeps growing, so the exact total
// is known.
//
// CPU hotplug (a program with DEADk() callbacks, at the hotplug rate): a CPU with dead callbacks
// goes offline at a boundary of its loop when the model allows it (no task left on it), and comes
// back online at its next hotplug event; its callbacks run on the control CPU (hotplug.ts). An
// offline CPU runs nothing: a task that reaches it anyway (a migration already in flight) is
// passed on to an online CPU, as the kernel migrates tasks off a CPU going down.
//
// The bare tier: while nothing is asked of this CPU and no rate is set, no event can fall due, so
// a compiled CPU runs its task bare (wasm/codegen.ts): bursts of whole operations, no step
// budget, the tally kept in a register until the burst ends. The first request or rate switches
// it to the exact tier at the next burst; the statistics say which tiers ran.
//
// Only this CPU's worker writes this CPU's fields and the contexts on it. A migrating task is
// handed over through the target's inbox: its CPU field is set to an "in flight to j" marker with
// Atomics (which publishes the context record written before it) and the target adopts it.

import {
  cpuBase,
  ctxBase,
  CPU_CUR,
  CPU_PENDING,
  CPU_TASKS,
  CTX_CPU,
  CTX_DONE,
  CTX_RETRIES,
  CtxKind,
  type Machine,
} from '../../machine/machine.ts';
import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import type { CallChecks } from '../calls.ts';
import { chooseEngines } from '../engine/choose.ts';
import { tallyOf } from '../../machine/isa.ts';
import { type Engine, type EngineKind, restartTask, type Tier } from '../engine/engine.ts';
import { apply, Ev, makeEvent, notPreemptible, whyIllegal } from '../../machine/events.ts';
import { controlCpu, online } from '../../machine/hotplug.ts';
import { nextReady, topContext } from '../../machine/interpreter.ts';
import {
  C_EXITED,
  C_FAULT,
  C_GO,
  C_QUIESCED,
  C_READY,
  C_STOP,
  K_INBOX,
  type LiveMemory,
  Note,
  note,
  resultSlots,
  S_DUTY,
  S_PERIOD_US,
  S_SEED,
} from '../memory.ts';
import { adoptDead, handOver, inFlightTo, releaseHotplug, takeHotplug } from './hotplug.ts';
import { Requests } from './requests.ts';
import { CpuStats } from './stats.ts';

export { inFlightTo } from './hotplug.ts';

/**
 * Steps per burst: a random number in [min, min + spread). Each burst ends with a look at the
 * control words and the clock, which costs about as much as a few hundred compiled steps, so
 * compiled bursts are longer. The length is random: a fixed one would alias with a short task
 * loop (256 steps is a whole number of two-step adds) and every IRQ would land at the same
 * point of the program, never inside it.
 */
const BURST: Readonly<Record<EngineKind, { min: number; spread: number }>> = {
  compiled: { min: 1024, spread: 3072 },
  interpreted: { min: 128, spread: 256 },
};
/**
 * Compiled bursts when no event can fall due (no rate set, nothing asked): sixteen times longer,
 * so the look between bursts costs a few percent of a fast add loop instead of a fifth. Still
 * some tens of microseconds: a stop, a migration button or a summer's period is not kept waiting.
 */
const QUIET_BURST = { min: 16384, spread: 49152 };

/**
 * Bare bursts are whole operations; their number adapts so that a burst lasts about this long
 * (ms): the CPU loop polls (requests, statistics for the page) about a thousand times a second,
 * and the stop word is read inside the burst once a chunk of operations (wasm/codegen.ts).
 */
const BARE_BURST_MS = 1;
const BARE_OPS = { first: 1024, least: 16, most: 1 << 24 };

/** With a duty below 100 %, a CPU runs this long (ms) between yields. */
const SLICE_MS = 2;

export interface CpuClock {
  /** Milliseconds, monotonic. */
  now(): number;
}

export interface CpuOptions {
  /** Per task: a check of each finished call (sum() within its window). */
  readonly checks?: CallChecks;
  /** compiled (default, where the memory is a WebAssembly one) or interpreted. */
  readonly engine?: EngineKind;
  /** bare (default): compiled CPUs run bare while no event can fall due; exact: never. */
  readonly tier?: Tier;
}

/**
 * What a task does: observing tasks (sum, read) wait the summer period between calls. Dead
 * callbacks are neither: they run once per offline and never repeat.
 */
function observers(m: Machine): boolean[] {
  return m.programs
    .slice(0, m.tasks)
    .map((p, t) => m.ctxKind[t] === CtxKind.Task && !p.instrs.some((i) => tallyOf(i) !== 0));
}

/**
 * Runs CPU k until the run stops. Returns normally after a clean stop; throws what the machine
 * threw (a MachineFault) after marking the fault in shared memory so the other CPUs stop too.
 */
export function runCpu(
  mem: LiveMemory,
  m: Machine,
  k: number,
  clock: CpuClock,
  options: CpuOptions = {},
): void {
  let cpu: LiveCpu | null = null;
  try {
    cpu = new LiveCpu(mem, m, k, clock, options);
    cpu.run();
  } catch (e) {
    Atomics.compareExchange(mem.words, C_FAULT, 0, k + 1);
    Atomics.store(mem.words, C_STOP, 1);
    // A failed CPU starts no more migrations: the others must not wait for it to say so.
    if (!cpu?.stopping) Atomics.add(mem.words, C_QUIESCED, 1);
    throw e;
  } finally {
    Atomics.add(mem.words, C_EXITED, 1);
    Atomics.notify(mem.words, C_EXITED);
  }
}

class LiveCpu {
  /** Set once this CPU saw the stop flag: it restarts no task and starts no migration. */
  stopping = false;

  private readonly s: Int32Array;
  private readonly w: Int32Array;
  /** This CPU's control line and its record in the state. */
  private readonly line: number;
  private readonly b: number;
  private readonly engine: Engine;
  /** The bare tier's engine (compiled, asked for), or null. */
  private readonly bare: Engine | null;
  /** Operations in the next bare burst. */
  private bareOps = BARE_OPS.first;
  private readonly burst: { min: number; spread: number };
  private readonly observer: boolean[];
  /** Per task: dead callbacks (CtxKind.Dead), which run once per offline, in the exact tier. */
  private readonly dead: boolean[];
  private readonly slots: number[][];
  private readonly checks: CallChecks;
  private readonly rng: ReturnType<typeof xoroshiro128plus>;
  private readonly requests: Requests;
  private readonly stats: CpuStats;
  private t0 = 0;
  /** The time at the last poll: trace notes use it, so a fold costs no clock read. */
  private now = 0;
  /** When this CPU last came back from a yield (ms). */
  private runSince = 0;
  private inboxSeen = 0;
  /** A summer's period (ms between calls), from the settings. */
  private period = 0;
  /** Observing tasks that finished a call on this CPU, and when they call again (ms). */
  private readonly sleepers: { task: number; at: number }[] = [];

  constructor(
    private readonly mem: LiveMemory,
    private readonly m: Machine,
    private readonly k: number,
    private readonly clock: CpuClock,
    options: CpuOptions,
  ) {
    this.s = mem.state;
    this.w = mem.words;
    this.line = mem.cpuLine(k);
    this.b = cpuBase(m, k);
    const engines = chooseEngines(mem, m, k, options.engine ?? 'compiled', options.tier ?? 'bare');
    this.engine = engines.exact;
    this.bare = engines.bare;
    this.burst = BURST[this.engine.kind];
    this.observer = observers(m);
    this.dead = Array.from({ length: m.tasks }, (_, t) => m.ctxKind[t] === CtxKind.Dead);
    this.slots = m.code.slice(0, m.tasks).map((code) => resultSlots(m, code));
    this.checks = options.checks ?? [];
    this.rng = xoroshiro128plus(((this.w[mem.settings + S_SEED] as number) ^ (k * 0x9e3779b9)) | 0);
    this.requests = new Requests(mem, this.line, this.rng, m.deadCtx[k] !== -1);
    this.stats = new CpuStats(mem, k, this.engine.counters, this.engine.kind);
  }

  private ms(): number {
    return this.clock.now() - this.t0;
  }

  run(): void {
    const { w, s, m, k } = this;
    this.stats.flush(0); // says which engine runs before the first poll
    // The start barrier: every CPU is ready before any runs, so the race starts at once.
    Atomics.add(w, C_READY, 1);
    Atomics.notify(w, C_READY);
    while (Atomics.load(w, C_GO) === 0) Atomics.wait(w, C_GO, 0, 50);
    this.t0 = this.clock.now();
    for (;;) {
      this.poll();
      this.takeEvents();
      this.yieldIfDue();
      const top = topContext(m, s, k);
      if (top < 0) {
        if (this.stopping && this.atRest()) break;
        this.idle();
        continue;
      }
      const cb = ctxBase(m, top);
      const retries = s[cb + CTX_RETRIES] as number;
      // An adder alone on its CPU restarts in place, inside the burst.
      const task = top < m.tasks && this.dead[top] !== true;
      const repeat = !this.stopping && task && !this.observer[top] && s[this.b + CPU_TASKS] === 1;
      if (this.bare && this.requests.quiet && s[this.b + CPU_PENDING] === 0 && task) {
        this.runBare(this.bare, top, repeat);
      } else {
        const burst =
          this.engine.kind === 'compiled' && this.requests.quiet ? QUIET_BURST : this.burst;
        const budget = burst.min + unsafeUniformIntDistribution(0, burst.spread - 1, this.rng);
        this.engine.run(top, budget, repeat);
        this.stats.ran(this.engine.tier);
        this.stats.steps += this.engine.steps;
      }
      this.stats.noteBurst(top, (s[cb + CTX_RETRIES] as number) > retries, this.now);
      if (top < m.tasks && s[cb + CTX_DONE] !== 0) this.operationDone(top);
    }
    this.stats.flush(this.ms());
  }

  /** A bare burst of whole operations, sized to last about BARE_BURST_MS. */
  private runBare(bare: Engine, top: number, repeat: boolean): void {
    if (!repeat) {
      // One operation (a sum, the last add before a stop): nothing to size, no clock to read.
      bare.run(top, 1, false);
      this.stats.ran('bare');
      return;
    }
    const ops = this.bareOps;
    const before = bare.counters.repeats;
    const t0 = this.clock.now();
    bare.run(top, ops, repeat);
    this.stats.ran('bare');
    if (bare.counters.repeats - before < ops) return; // ended, stopped or waiting: not a full burst
    const ms = this.clock.now() - t0;
    const next = ms > 0 ? (ops * BARE_BURST_MS) / ms : ops * 2;
    this.bareOps = Math.round(
      Math.max(BARE_OPS.least, Math.min(BARE_OPS.most, ops * 2, Math.max(ops / 2, next))),
    );
  }

  /**
   * With more CPU workers than cores, each runs only its share of the time (S_DUTY), so the page
   * keeps time to draw. It yields only where the kernel could preempt it: never holding a
   * spinlock or with interrupts off, so no CPU spins on a lock whose holder sleeps.
   */
  private yieldIfDue(): void {
    const duty = this.w[this.mem.settings + S_DUTY] as number;
    if (duty <= 0 || duty >= 100 || this.stopping || this.now - this.runSince < SLICE_MS) return;
    if (topContext(this.m, this.s, this.k) >= 0 && notPreemptible(this.m, this.s, this.k) !== '')
      return;
    Atomics.wait(this.w, this.line + K_INBOX, this.inboxSeen, (SLICE_MS * (100 - duty)) / duty);
    this.runSince = this.ms();
  }

  /** Done once no CPU can hand this one a task any more and the inbox is empty. */
  private atRest(): boolean {
    return (
      Atomics.load(this.w, C_QUIESCED) === this.mem.cpus &&
      Atomics.load(this.w, this.line + K_INBOX) === this.inboxSeen &&
      this.s[this.b + CPU_PENDING] === 0
    );
  }

  /** Nothing to run: sleep until a task arrives or a millisecond passes (sleepers, stop, requests). */
  private idle(): void {
    let soonest = Infinity;
    for (const z of this.sleepers) soonest = Math.min(soonest, z.at);
    const wait = Math.min(1, Math.max(0, soonest - this.ms()));
    Atomics.wait(this.w, this.line + K_INBOX, this.inboxSeen, wait);
  }

  /** Task t finished one operation: count it, judge it, and start the next one. */
  private operationDone(t: number): void {
    const { s, m } = this;
    if (this.dead[t] === true) {
      // Another CPU's dead callbacks returned (finish cleared it from cpu_dying_mask): the
      // offline is over. They are not an operation of the run, and never restart.
      releaseHotplug(this.mem);
      note(this.mem, this.k, Note.DeadDone, t, this.now);
      return;
    }
    const observer = this.observer[t] === true;
    const check = this.checks[t];
    if (observer && check && !check(s)) {
      this.stats.badCalls++;
      note(this.mem, this.k, Note.BadSum, t, this.now);
    }
    this.stats.operation(observer, s[ctxBase(m, t) + CTX_RETRIES] as number);
    // A bare burst ends an adder's operation when it sees the stop word: start no other.
    if (this.stopping || Atomics.load(this.w, C_STOP) !== 0) return;
    if (observer && this.period > 0) this.sleepers.push({ task: t, at: this.ms() + this.period });
    else restartTask(m, s, this.k, t, this.slots[t] as number[]);
  }

  /** Reads the control words and the clock; raises the events that are due. */
  private poll(): void {
    const { w, line } = this;
    const t = this.ms();
    this.now = t;
    this.stats.flush(t);
    if (!this.stopping && Atomics.load(w, C_STOP) !== 0) {
      this.stopping = true;
      this.requests.clear();
      // From here this CPU starts no migration, so every task in flight is already published.
      Atomics.add(w, C_QUIESCED, 1);
    }
    const inbox = Atomics.load(w, line + K_INBOX);
    if (inbox !== this.inboxSeen) {
      this.inboxSeen = inbox;
      this.adopt();
    }
    if (this.stopping) return;
    this.requests.poll(t);
    this.period = (w[this.mem.settings + S_PERIOD_US] as number) / 1000;
    const sleepers = this.sleepers;
    for (let i = sleepers.length - 1; i >= 0; i--) {
      const z = sleepers[i] as { task: number; at: number };
      if (t >= z.at) {
        sleepers.splice(i, 1);
        restartTask(this.m, this.s, this.k, z.task, this.slots[z.task] as number[]);
      }
    }
  }

  /** Scheduler events, at this instruction boundary, under the model's rules. */
  private takeEvents(): void {
    const r = this.requests;
    const { m, s, k } = this;
    if (m.hotplug !== null) this.takeHotplug();
    if ((r.irqs | r.nmis | r.migs) === 0) return;
    if (r.nmis > 0) {
      const ev = makeEvent(Ev.Nmi, k);
      if (m.nmiCtx[k] === -1) r.nmis = 0;
      else if (whyIllegal(m, s, ev) === '') {
        r.nmis--;
        apply(m, s, ev);
        note(this.mem, k, Note.Nmi, m.nmiCtx[k] as number, this.now);
      }
    }
    if (r.irqs > 0) {
      const ev = makeEvent(Ev.Irq, k);
      if (m.irqCtx[k] === -1) r.irqs = 0;
      else if (s[this.b + CPU_PENDING] !== 0) {
        // Raised while one is already pending: it merges with it, as on a real IRQ line.
        r.irqs = 0;
      } else if (whyIllegal(m, s, ev) === '') {
        r.irqs--;
        apply(m, s, ev); // delivered now, or held pending while interrupts are off
        note(this.mem, k, Note.Irq, m.irqCtx[k] as number, this.now);
      }
    }
    if (r.migs > 0) {
      if (s[this.b + CPU_CUR] === -1) {
        // No task to move: as in the model, there is no migration to make.
        r.migs = 0;
      } else {
        const j =
          (k + unsafeUniformIntDistribution(1, this.mem.cpus - 1, this.rng)) % this.mem.cpus;
        if (whyIllegal(m, s, makeEvent(Ev.Migrate, k, j)) === '') {
          r.migs--;
          this.migrate(j);
        }
      }
    }
  }

  /**
   * CPU hotplug, on a machine with it: a task stranded on this CPU while it is offline moves on,
   * and a hotplug event that fell due takes the CPU offline or back online (hotplug.ts).
   */
  private takeHotplug(): void {
    const { m, s, k } = this;
    const r = this.requests;
    const cur = s[this.b + CPU_CUR] as number;
    // Not once stopping: this CPU has said it starts no more migrations (it then finishes the
    // operation here, the one moment a task runs on an offline CPU).
    if (
      !this.stopping &&
      cur >= 0 &&
      this.dead[cur] !== true &&
      !online(m, s, k) &&
      notPreemptible(m, s, k) === ''
    )
      this.migrate(controlCpu(m, s, k));
    if (r.hotplugs === 0) return;
    if (m.deadCtx[k] === -1) {
      r.hotplugs = 0;
      return;
    }
    // Work the state does not show keeps the CPU up: a summer sleeping between calls, a task in
    // the inbox not yet adopted.
    const busy =
      this.sleepers.length > 0 || Atomics.load(this.w, this.line + K_INBOX) !== this.inboxSeen;
    const done = takeHotplug(this.mem, m, k, busy);
    if (done === null) return;
    r.hotplugs--;
    note(
      this.mem,
      k,
      done === 'offline' ? Note.Offline : Note.Online,
      m.deadCtx[k] as number,
      this.now,
    );
  }

  /** Takes the tasks other CPUs handed to this one. */
  private adopt(): void {
    const { m, s, k } = this;
    const mine = inFlightTo(k);
    for (let t = 0; t < m.tasks; t++) {
      const at = ctxBase(m, t) + CTX_CPU;
      if (Atomics.load(s, at) !== mine) continue;
      if (this.dead[t] === true) {
        // Another CPU's dead callbacks: they join this runqueue (or return at once).
        adoptDead(this.mem, m, k, t);
        continue;
      }
      Atomics.store(s, at, k);
      s[this.b + CPU_TASKS] = (s[this.b + CPU_TASKS] as number) + 1;
      if (s[this.b + CPU_CUR] === -1) s[this.b + CPU_CUR] = t;
      note(this.mem, k, Note.Adopted, t, this.now);
    }
  }

  /**
   * Hands the running task to CPU j (legal: events.ts said so). The model's `apply` would write
   * CPU j's fields; here only j may, so the task travels through j's inbox.
   */
  private migrate(j: number): void {
    const { m, s, k, b } = this;
    const t = s[b + CPU_CUR] as number;
    s[b + CPU_TASKS] = (s[b + CPU_TASKS] as number) - 1;
    // The next task waiting here, if any (cyclic by index, as in the model).
    s[b + CPU_CUR] = nextReady(m, s, k, t);
    handOver(this.mem, m, t, j);
    this.stats.moved++;
    note(this.mem, k, Note.MigratedOut, t, this.now);
  }
}
