// The shared memory of a live run: one SharedArrayBuffer that the CPU workers and the page both
// map (docs/machine.md, Live mode's choices). Everything that crosses threads lives here, never in a message: a busy worker
// cannot answer one, and the page reads it once per animation frame.
//
// Lines of 64 bytes, in this order:
//   control      run phase words: barrier, stop, fault, lockstep handoff
//   settings     rates and periods the page may change while the run goes on
//   per CPU      one control line each: requested IRQs and NMIs, the task inbox
//   per CPU      two statistics lines each (Float64: steps, operations, folds…)
//   per CPU      one trace ring each: the latest notable events, for the narration
//   state        the machine's state vector (memory padded to lines, CPUs, contexts, results)
// Each CPU writes only its own lines, so no two workers share a cache line they both write.

import { type Instr, Op } from '../machine/isa.ts';
import { LINE_WORDS } from '../machine/layout.ts';
import type { Machine } from '../machine/machine.ts';
import { bufferOf, sharedWasmMemory, type WasmMemory } from './wasm/runtime.ts';

/** Per-CPU slots and other cells on lines of their own, or adjacent as in the model. */
export type SlotLayout = 'padded' | 'packed';
export const SLOT_LAYOUTS: readonly SlotLayout[] = ['padded', 'packed'];

const WORDS = LINE_WORDS;
export const LINE_BYTES = 4 * LINE_WORDS;

/** Control words (Int32, line 0). */
export const C_READY = 0; // workers that reached the start barrier
export const C_GO = 1; // 1 once every worker is ready: they start together
export const C_STOP = 2; // 1: finish the current operation and stop
export const C_QUIESCED = 3; // workers that saw STOP (they start no more migrations)
export const C_EXITED = 4; // workers that have stopped
export const C_FAULT = 5; // 1 + the CPU whose worker failed first, or 0
export const C_TURN = 6; // lockstep: the CPU whose turn it is (TURN_NONE: the page's)
export const C_EVENT = 7; // lockstep: the event the CPU must apply
/**
 * CPU hotplug's lock (the kernel's cpu_hotplug_lock): 1 + the CPU whose offline or online is in
 * progress, or 0. An offline holds it until its dead callbacks return, so, as in the model,
 * hotplug runs one CPU at a time (cpu/hotplug.ts).
 */
export const C_HOTPLUG = 8;

export const TURN_NONE = -1;
export const TURN_END = -2;

/** Settings (Int32, line 1). */
export const S_IRQ_RATE = 0; // IRQs per second per CPU (0: none)
export const S_NMI_RATE = 1; // NMIs per second per CPU
export const S_MIG_RATE = 2; // migrations per second per CPU
export const S_PERIOD_US = 3; // a summer or reader waits this long between calls
export const S_SEED = 4; // seed of the workers' random choices
export const S_DUTY = 5; // percent of the time each CPU may run (0 or 100: all of it)
export const S_HOTPLUG_RATE = 6; // hotplug events per second per CPU with dead callbacks

/** Per-CPU control words. */
export const K_IRQ_REQ = 0; // IRQs the page asked for (a count; the worker remembers how many it took)
export const K_NMI_REQ = 1;
export const K_INBOX = 2; // tasks handed to this CPU so far; bumping it publishes them
export const K_MIG_REQ = 3; // migrations the page asked for

/** Where the page asks for each kind of event: its per-CPU request word and its rate setting. */
export const REQUEST_WORD = { irq: K_IRQ_REQ, nmi: K_NMI_REQ, migration: K_MIG_REQ } as const;
export const RATE_WORD = {
  irq: S_IRQ_RATE,
  nmi: S_NMI_RATE,
  migration: S_MIG_RATE,
  hotplug: S_HOTPLUG_RATE,
} as const;

/** Per-CPU statistics: the Float64 slots of the CPU's stats line, by name (like Note). */
export const Stat = {
  /** Instructions executed. */
  Steps: 0,
  /** Operations completed by adding tasks (each a call of add()). */
  Adds: 1,
  /** Operations completed by observing tasks (sum(), read()). */
  Calls: 2,
  /** Batch overflows folded into the global count. */
  Folds: 3,
  /** Sequence bumps. */
  SeqBumps: 4,
  /** Steps spent spinning on a held lock. */
  Spins: 5,
  /** Tasks this CPU handed to another. */
  Migrations: 6,
  /** Milliseconds since the start, at the last flush. */
  Time: 7,
  /** The most retries one call (a sum()) took, among calls finished here. */
  MaxRetries: 8,
  /** Retries taken by the calls finished on this CPU. */
  Retries: 9,
  /** sum() calls finished here that returned a value outside their window. */
  BadCalls: 10,
  /** What runs this CPU's programs: ENGINE_CODES (0 before it starts). */
  Engine: 11,
  /** The tiers its bursts ran in so far: TIER_BITS, or'ed. */
  Tiers: 12,
} as const;

/** Stat.Tiers's bits. */
export const TIER_BITS = { bare: 1, exact: 2 } as const;

/** Stat.Engine's values. */
export const ENGINE_CODES = { compiled: 1, interpreted: 2 } as const;
/** Float64 slots per CPU: two lines. */
export const STAT_SLOTS = 16;
const STAT_LINES = (STAT_SLOTS * 8) / LINE_BYTES;

/** Trace ring: a head word (events written so far), then RING entries of two words. */
export const RING = 32;
const RING_WORDS = 1 + 2 * RING;
const RING_LINES = Math.ceil(RING_WORDS / WORDS);

/** What a trace entry records (low byte of its first word). */
export const Note = {
  Fold: 1,
  SeqBump: 2,
  SumRetry: 3,
  Irq: 4,
  Nmi: 5,
  MigratedOut: 6,
  Adopted: 7,
  /** A sum() returned a value outside the exact totals while it ran. */
  BadSum: 8,
  /** This CPU went offline (its dead callbacks start on another CPU). */
  Offline: 9,
  /** This CPU came back online. */
  Online: 10,
  /** This CPU ran another CPU's dead callbacks to the end: that CPU is dead. */
  DeadDone: 11,
} as const;

/** What a run's shared memory is made of: a shared WebAssembly memory, or a bare buffer. */
export type SharedMemory = WasmMemory | SharedArrayBuffer;

export interface LiveMemory {
  /** What workers are given to map (a WebAssembly memory can also be imported by code). */
  readonly shared: SharedMemory;
  readonly buffer: SharedArrayBuffer;
  /** The shared WebAssembly memory the compiled CPUs run on, or null (interpreter only). */
  readonly wasm: WasmMemory | null;
  /** Byte offset of the state vector in the buffer (a whole line). */
  readonly stateByte: number;
  readonly cpus: number;
  /** The whole buffer as words, for the control, settings and per-CPU lines. */
  readonly words: Int32Array;
  readonly stats: Float64Array;
  /** The machine's state vector. */
  readonly state: Int32Array;
  /** The same bytes as `state`, as 64-bit elements for single-step 64-bit accesses. */
  readonly wide: BigInt64Array;
  /** Word index of the settings line, CPU k's control line and ring. */
  readonly settings: number;
  cpuLine(k: number): number;
  ring(k: number): number;
  /** Float64 index of CPU k's statistics. */
  statLine(k: number): number;
}

interface Offsets {
  readonly cpuLines: number; // in words
  readonly statLines: number; // in Float64 slots
  readonly rings: number; // in words
  readonly stateByte: number;
  readonly bytes: number;
}

function offsets(m: Machine): Offsets {
  const cpus = m.cpus;
  const cpuLines = 2 * WORDS;
  const statsByte = (cpuLines + cpus * WORDS) * 4;
  const ringsWord = statsByte / 4 + cpus * STAT_LINES * WORDS;
  const stateByte = (ringsWord + cpus * RING_LINES * WORDS) * 4;
  // The state ends on a whole line and its start is 8-byte aligned (it is on a line).
  const bytes = stateByte + Math.ceil((m.size * 4) / LINE_BYTES) * LINE_BYTES;
  return { cpuLines, statLines: statsByte / 8, rings: ringsWord, stateByte, bytes };
}

/** The number of bytes a run of machine m needs. */
function liveBytes(m: Machine): number {
  return offsets(m).bytes;
}

/** Maps memory made by `allocateLive` (in the page or in a worker: the views are the same). */
export function mapLive(shared: SharedMemory, m: Machine): LiveMemory {
  const o = offsets(m);
  const wasm = shared instanceof SharedArrayBuffer ? null : shared;
  const buffer = wasm ? bufferOf(wasm) : (shared as SharedArrayBuffer);
  if (buffer.byteLength < o.bytes) {
    throw new Error(
      `the shared buffer has ${buffer.byteLength} bytes; this machine needs ${o.bytes}`,
    );
  }
  return {
    shared,
    buffer,
    wasm,
    stateByte: o.stateByte,
    cpus: m.cpus,
    words: new Int32Array(buffer),
    stats: new Float64Array(buffer),
    state: new Int32Array(buffer, o.stateByte, m.size),
    wide: new BigInt64Array(buffer, o.stateByte, Math.floor(m.size / 2)),
    settings: WORDS,
    cpuLine: (k) => o.cpuLines + k * WORDS,
    ring: (k) => o.rings + k * RING_LINES * WORDS,
    statLine: (k) => o.statLines + k * STAT_SLOTS,
  };
}

/**
 * Fresh shared memory for machine m, holding its initial state: a shared WebAssembly memory
 * where there is one (the compiled CPUs need it), else a SharedArrayBuffer.
 */
export function allocateLive(m: Machine, initial: Int32Array): LiveMemory {
  const bytes = liveBytes(m);
  const mem = mapLive(sharedWasmMemory(bytes) ?? new SharedArrayBuffer(bytes), m);
  mem.state.set(initial);
  mem.words[C_TURN] = TURN_NONE;
  return mem;
}

/** Appends an event to CPU k's trace ring (only CPU k's worker writes it). */
export function note(mem: LiveMemory, k: number, what: number, ctx: number, ms: number): void {
  const r = mem.ring(k);
  const head = mem.words[r] as number;
  const at = r + 1 + 2 * (head % RING);
  mem.words[at] = what | (ctx << 8);
  mem.words[at + 1] = ms | 0;
  // The entry is written before the head moves, so a reader never sees a half-written entry.
  Atomics.store(mem.words, r, head + 1);
}

export interface Noted {
  readonly cpu: number;
  readonly what: number;
  readonly ctx: number;
  readonly ms: number;
  /** Position in the CPU's ring history (increasing). */
  readonly seq: number;
}

/** Entries of CPU k's ring after `since` (a head value read before); the newest RING / 2 at most. */
export function notesSince(mem: LiveMemory, k: number, since: number): Noted[] {
  const r = mem.ring(k);
  const head = Atomics.load(mem.words, r);
  const out: Noted[] = [];
  // Only the newer half: the writer may be overwriting the oldest entries as we read.
  for (let seq = Math.max(since, head - RING / 2); seq < head; seq++) {
    const at = r + 1 + 2 * (seq % RING);
    const w = mem.words[at] as number;
    out.push({ cpu: k, what: w & 0xff, ctx: w >> 8, ms: mem.words[at + 1] as number, seq });
  }
  return out;
}

/**
 * Words of the result slots a program records into, in the state (their counts restart with
 * each call): what a task that restarts clears, whichever engine runs it.
 */
export function resultSlots(m: Machine, code: readonly Instr[]): number[] {
  return [
    ...new Set(
      code
        .filter((i) => i.op === Op.Record || i.op === Op.RecordTotal)
        .map((i) => m.resOff + i.base),
    ),
  ];
}
