// One live CPU: the loop a worker runs at full speed on the shared memory (DESIGN §6).
//
// It is the model's own interpreter (`step`) on the shared state vector, with the scheduler's
// events taken from control words instead of a schedule, under the same rules as the model:
//   - an IRQ is taken at an instruction boundary; raised while interrupts are off it stays pending
//     and the interpreter delivers it where they come back on; never between the two halves of a
//     local-atomic instruction;
//   - an NMI is taken at any boundary except inside the NMI handler or mid-instruction;
//   - a task migrates only when it is preemptible (preempt_count 0, interrupts on, no handler).
// Tasks repeat: when a task's program ends (one operation: an add, a sum) it starts over, after
// the summer period for observing tasks. Its tally keeps growing, so the exact total is known.
//
// Only this CPU's worker writes this CPU's fields and the contexts on it. A migrating task is
// handed over through the target's inbox: its CPU field is set to an "in flight to j" marker with
// Atomics (which publishes the context record written before it) and the target adopts it.

import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import type { CallChecks } from './calls.ts';
import { deliverIrq, deliverNmi, runLocals, step, topContext } from '../machine/interpreter.ts';
import { type Instr, Kind, Op } from '../machine/isa.ts';
import {
  CPU_CUR,
  CPU_FIELDS,
  CPU_IN_IRQ,
  CPU_IN_NMI,
  CPU_IRQ_ON,
  CPU_PENDING,
  CPU_PREEMPT,
  CPU_TASKS,
  CTX_CPU,
  CTX_DONE,
  CTX_PC,
  CTX_REGS,
  CTX_RETRIES,
  type Machine,
} from '../machine/machine.ts';
import {
  C_EXITED,
  C_FAULT,
  C_GO,
  C_QUIESCED,
  C_READY,
  C_STOP,
  K_INBOX,
  K_IRQ_REQ,
  K_MIG_REQ,
  K_NMI_REQ,
  type LiveMemory,
  Note,
  note,
  S_IRQ_RATE,
  S_MIG_RATE,
  S_NMI_RATE,
  S_PERIOD_US,
  S_SEED,
  STAT_SLOTS,
  T_ADDS,
  T_BAD_CALLS,
  T_CALLS,
  T_FOLDS,
  T_MAX_RETRIES,
  T_MIGRATIONS,
  T_RETRIES,
  T_SEQ,
  T_SPINS,
  T_STEPS,
  T_TIME,
} from './memory.ts';

/** A task's CPU field while it travels to CPU j: never a CPU number, so nobody runs it. */
export function inFlightTo(j: number): number {
  return -2 - j;
}

/**
 * Steps between looks at the control words and the clock (cheap, but not free). The gap is
 * random: a fixed one would alias with a short task loop (256 steps is a whole number of
 * two-step adds) and every IRQ would land at the same point of the program, never inside it.
 */
const POLL_MIN = 128;
const POLL_SPREAD = 256;

export interface CpuClock {
  /** Milliseconds, monotonic. */
  now(): number;
}

/** What a task does: observing tasks (sum, read) wait the summer period between calls. */
function observers(m: Machine): boolean[] {
  return m.programs.slice(0, m.tasks).map((p) => !p.instrs.some((i) => i.tally !== 0));
}

/** Result slots each task records into, so a repeated call starts with empty ones. */
function resultSlotsOf(m: Machine): number[][] {
  return m.programs
    .slice(0, m.tasks)
    .map((p) => [
      ...new Set(
        p.instrs
          .filter((i) => i.op === Op.Record || i.op === Op.RecordTotal)
          .map((i) => m.resOff + i.base),
      ),
    ]);
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
  checks: CallChecks = [],
): void {
  // An object, not `let`s: the loop's poll() changes it, and TypeScript's narrowing cannot see that.
  const run = { stopping: false };
  try {
    loop(mem, m, k, clock, run, checks);
  } catch (e) {
    Atomics.compareExchange(mem.words, C_FAULT, 0, k + 1);
    Atomics.store(mem.words, C_STOP, 1);
    // A failed CPU starts no more migrations: the others must not wait for it to say so.
    if (!run.stopping) Atomics.add(mem.words, C_QUIESCED, 1);
    throw e;
  } finally {
    Atomics.add(mem.words, C_EXITED, 1);
    Atomics.notify(mem.words, C_EXITED);
  }
}

function loop(
  mem: LiveMemory,
  m: Machine,
  k: number,
  clock: CpuClock,
  run: { stopping: boolean },
  checks: CallChecks,
): void {
  const s = mem.state;
  const wide = mem.wide;
  const w = mem.words;
  const line = mem.cpuLine(k);
  const b = m.cpuOff + k * CPU_FIELDS;
  const observer = observers(m);
  const slotsOf = resultSlotsOf(m);
  const rng = xoroshiro128plus(((w[mem.settings + S_SEED] as number) ^ (k * 0x9e3779b9)) | 0);
  const uniform = () => unsafeUniformIntDistribution(1, 1 << 30, rng) / (1 << 30);
  /** Time to the next event of a Poisson process of `perSecond` events a second, in ms. */
  const gap = (perSecond: number) => (-Math.log(uniform()) * 1000) / perSecond;

  // Statistics are counted locally and flushed with the control poll: no shared write per step.
  let steps = 0;
  let adds = 0;
  let calls = 0;
  let folds = 0;
  let bumps = 0;
  let spins = 0;
  let moved = 0;
  let maxRetries = 0;
  let retried = 0;
  let bad = 0;
  const stat = new Float64Array(STAT_SLOTS);
  const statAt = mem.statLine(k);
  const flush = (t: number) => {
    stat[T_STEPS] = steps;
    stat[T_ADDS] = adds;
    stat[T_CALLS] = calls;
    stat[T_FOLDS] = folds;
    stat[T_SEQ] = bumps;
    stat[T_SPINS] = spins;
    stat[T_MIGRATIONS] = moved;
    stat[T_MAX_RETRIES] = maxRetries;
    stat[T_RETRIES] = retried;
    stat[T_BAD_CALLS] = bad;
    stat[T_TIME] = t;
    mem.stats.set(stat, statAt);
  };

  // The start barrier: every CPU is ready before any runs, so the race starts at once.
  Atomics.add(w, C_READY, 1);
  Atomics.notify(w, C_READY);
  while (Atomics.load(w, C_GO) === 0) Atomics.wait(w, C_GO, 0, 50);
  const t0 = clock.now();
  const ms = () => clock.now() - t0;
  /** The time at the last poll: trace notes use it, so a fold costs no clock read. */
  let now = 0;

  let irqSeen = Atomics.load(w, line + K_IRQ_REQ);
  let nmiSeen = Atomics.load(w, line + K_NMI_REQ);
  let migSeen = Atomics.load(w, line + K_MIG_REQ);
  let inboxSeen = 0;
  let irqs = 0; // IRQs raised and not yet taken
  let nmis = 0;
  let migs = 0;
  let nextIrq = Infinity;
  let nextNmi = Infinity;
  let nextMig = Infinity;
  let rates = [0, 0, 0];
  let period = 0;
  /** Observing tasks that finished a call on this CPU, and when they call again (ms). */
  const sleepers: { task: number; at: number }[] = [];
  let n = 0;
  let nextPoll = 1; // look at the controls before the first step (a stop, the rates)

  /** Puts a finished task back on this CPU's runqueue, fresh, to make its next call. */
  const revive = (t: number) => {
    const cb = m.ctxOff + t * m.ctxStride;
    s.fill(0, cb + CTX_REGS, cb + m.ctxStride);
    for (const at of slotsOf[t] as number[]) s[at] = 0;
    const code = m.code[t] as readonly Instr[];
    s[cb + CTX_PC] = runLocals(m, s, cb, code, 0, null);
    s[cb + CTX_DONE] = 0;
    // Retries count per call (the statistics keep the totals), so a call's bound can be judged.
    s[cb + CTX_RETRIES] = 0;
    s[b + CPU_TASKS] = (s[b + CPU_TASKS] as number) + 1;
    if (s[b + CPU_CUR] === -1) s[b + CPU_CUR] = t;
  };

  /** Takes the tasks other CPUs handed to this one. */
  const adopt = () => {
    const mine = inFlightTo(k);
    for (let t = 0; t < m.tasks; t++) {
      const at = m.ctxOff + t * m.ctxStride + CTX_CPU;
      if (Atomics.load(s, at) !== mine) continue;
      Atomics.store(s, at, k);
      s[b + CPU_TASKS] = (s[b + CPU_TASKS] as number) + 1;
      if (s[b + CPU_CUR] === -1) s[b + CPU_CUR] = t;
      note(mem, k, Note.Adopted, t, now);
    }
  };

  /** Hands the running task to CPU j (the caller checked it is preemptible). */
  const migrate = (j: number) => {
    const t = s[b + CPU_CUR] as number;
    s[b + CPU_TASKS] = (s[b + CPU_TASKS] as number) - 1;
    s[b + CPU_CUR] = -1;
    // The next task waiting here, if any (cyclic by index, as in the model).
    for (let i = 1; i < m.tasks; i++) {
      const u = (t + i) % m.tasks;
      const ub = m.ctxOff + u * m.ctxStride;
      if (s[ub + CTX_DONE] === 0 && s[ub + CTX_CPU] === k) {
        s[b + CPU_CUR] = u;
        break;
      }
    }
    Atomics.store(s, m.ctxOff + t * m.ctxStride + CTX_CPU, inFlightTo(j));
    const target = mem.cpuLine(j) + K_INBOX;
    Atomics.add(w, target, 1);
    Atomics.notify(w, target);
    moved++;
    note(mem, k, Note.MigratedOut, t, now);
  };

  const preemptible = () =>
    (s[b + CPU_CUR] as number) >= 0 &&
    s[b + CPU_IN_IRQ] === 0 &&
    s[b + CPU_IN_NMI] === 0 &&
    s[b + CPU_PREEMPT] === 0 &&
    s[b + CPU_IRQ_ON] !== 0 &&
    !midInstruction();

  const midInstruction = () => {
    const top = topContext(m, s, k);
    if (top < 0) return false;
    const code = m.code[top] as readonly Instr[];
    const pc = s[m.ctxOff + top * m.ctxStride + CTX_PC] as number;
    return pc < code.length && (code[pc] as Instr).tail;
  };

  /** Reads the control words and the clock; raises the events that are due. */
  const poll = () => {
    const t = ms();
    now = t;
    flush(t);
    if (!run.stopping && Atomics.load(w, C_STOP) !== 0) {
      run.stopping = true;
      irqs = nmis = migs = 0;
      // From here this CPU starts no migration, so every task in flight is already published.
      Atomics.add(w, C_QUIESCED, 1);
    }
    if (Atomics.load(w, line + K_INBOX) !== inboxSeen) {
      inboxSeen = Atomics.load(w, line + K_INBOX);
      adopt();
    }
    if (run.stopping) return;
    const wanted = [
      w[mem.settings + S_IRQ_RATE] as number,
      w[mem.settings + S_NMI_RATE] as number,
      w[mem.settings + S_MIG_RATE] as number,
    ];
    if (wanted.some((r, i) => r !== rates[i])) {
      rates = wanted;
      nextIrq = rates[0] ? t + gap(rates[0]) : Infinity;
      nextNmi = rates[1] ? t + gap(rates[1]) : Infinity;
      nextMig = rates[2] && mem.cpus > 1 ? t + gap(rates[2]) : Infinity;
    }
    period = (w[mem.settings + S_PERIOD_US] as number) / 1000;
    const irqReq = Atomics.load(w, line + K_IRQ_REQ);
    const nmiReq = Atomics.load(w, line + K_NMI_REQ);
    const migReq = Atomics.load(w, line + K_MIG_REQ);
    irqs += irqReq - irqSeen;
    nmis += nmiReq - nmiSeen;
    migs += migReq - migSeen;
    irqSeen = irqReq;
    nmiSeen = nmiReq;
    migSeen = migReq;
    // Timed events that fell due since the last poll count once: they do not pile up while the
    // CPU cannot take them (interrupts off, nothing to migrate), to fire in a burst later.
    if (t >= nextIrq) {
      irqs = Math.max(irqs, 1);
      while (t >= nextIrq) nextIrq += gap(rates[0] as number);
    }
    if (t >= nextNmi) {
      nmis = Math.max(nmis, 1);
      while (t >= nextNmi) nextNmi += gap(rates[1] as number);
    }
    if (t >= nextMig) {
      migs = Math.max(migs, 1);
      while (t >= nextMig) nextMig += gap(rates[2] as number);
    }
    for (let i = sleepers.length - 1; i >= 0; i--) {
      const z = sleepers[i] as { task: number; at: number };
      if (t >= z.at) {
        sleepers.splice(i, 1);
        revive(z.task);
      }
    }
  };

  for (;;) {
    if (++n >= nextPoll) {
      nextPoll = n + POLL_MIN + unsafeUniformIntDistribution(0, POLL_SPREAD - 1, rng);
      poll();
    }
    // Scheduler events, at this instruction boundary, under the model's rules.
    if ((irqs | nmis | migs) !== 0 && !midInstruction()) {
      if (nmis > 0) {
        if (m.nmiCtx[k] === -1) nmis = 0;
        else if (s[b + CPU_IN_NMI] === 0) {
          nmis--;
          deliverNmi(m, s, k);
          note(mem, k, Note.Nmi, m.nmiCtx[k] as number, now);
        }
      }
      if (irqs > 0) {
        if (m.irqCtx[k] === -1) irqs = 0;
        else if (s[b + CPU_PENDING] !== 0) {
          // Raised while one is already pending: it merges with it, as on a real IRQ line.
          irqs = 0;
        } else {
          irqs--;
          if (s[b + CPU_IRQ_ON] !== 0) deliverIrq(m, s, k);
          else s[b + CPU_PENDING] = 1;
          note(mem, k, Note.Irq, m.irqCtx[k] as number, now);
        }
      }
      if (migs > 0) {
        if (s[b + CPU_CUR] === -1) {
          // No task to move: as in the model, there is no migration to make.
          migs = 0;
        } else if (preemptible()) {
          migs--;
          const j = (k + unsafeUniformIntDistribution(1, mem.cpus - 1, rng)) % mem.cpus;
          migrate(j);
        }
      }
    }
    const top = topContext(m, s, k);
    if (top < 0) {
      if (run.stopping) {
        // Done once no CPU can hand this one a task any more and the inbox is empty.
        if (
          Atomics.load(w, C_QUIESCED) === mem.cpus &&
          Atomics.load(w, line + K_INBOX) === inboxSeen &&
          s[b + CPU_PENDING] === 0
        )
          break;
      }
      poll();
      if (topContext(m, s, k) < 0) {
        // Idle: sleep until a task arrives or a millisecond passes (sleepers, stop, requests).
        const soonest = Math.min(...sleepers.map((z) => z.at));
        const wait = Math.min(1, Math.max(0, soonest - ms()));
        Atomics.wait(w, line + K_INBOX, inboxSeen, wait);
      }
      continue;
    }
    const cb = m.ctxOff + top * m.ctxStride;
    const pc = s[cb + CTX_PC] as number;
    const ins = (m.code[top] as readonly Instr[])[pc] as Instr;
    const retries = s[cb + CTX_RETRIES] as number;
    step(m, s, k, null, wide);
    steps++;
    if (ins.kind !== Kind.Plain) {
      if (ins.kind === Kind.Fold) {
        folds++;
        note(mem, k, Note.Fold, top, now);
      } else if (ins.kind === Kind.SeqBump) {
        bumps++;
        note(mem, k, Note.SeqBump, top, now);
      }
    }
    if (ins.op === Op.SpinLock && s[cb + CTX_PC] === pc) spins++;
    if (s[cb + CTX_RETRIES] !== retries) note(mem, k, Note.SumRetry, top, now);
    if (top < m.tasks && s[cb + CTX_DONE] !== 0) {
      // The task finished one operation.
      if (observer[top]) {
        calls++;
        const check = checks[top];
        if (check && !check(s)) {
          bad++;
          note(mem, k, Note.BadSum, top, now);
        }
      } else adds++;
      const took = s[cb + CTX_RETRIES] as number;
      retried += took;
      if (took > maxRetries) maxRetries = took;
      if (!run.stopping) {
        if (observer[top] && period > 0) sleepers.push({ task: top, at: ms() + period });
        else revive(top);
      }
    }
  }
  flush(ms());
}
