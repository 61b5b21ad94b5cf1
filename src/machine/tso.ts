// Store buffers: the x86-TSO machine (Sewell, Sarkar, Owens, Zappa Nardelli, Myreen, "x86-TSO: A
// Rigorous and Usable Programmer's Model for x86 Multiprocessors", CACM 53(7), 2010).
//
// Each CPU has a FIFO of stores that it has executed but memory has not yet seen. A plain store
// (and the store half of a non-LOCK per-CPU operation) enters the buffer; a load takes the newest
// buffered store of its own CPU to that word, else memory; the scheduler's `flush k` event writes
// CPU k's oldest entry to memory. LOCK-prefixed operations and smp_mb() drain the buffer first.
// An IRQ or NMI handler runs on the CPU it interrupts, so it sees (and adds to) that buffer.
//
// A buffer lives in the state (count, then entries oldest first, unused entries zero), so copies,
// hashes and the explorer's visited set see it like any other word.

import { SB_DEPTH, SB_ENTRY, type Machine } from './machine.ts';

/** Stores waiting in CPU k's buffer. */
export function buffered(m: Machine, s: Int32Array, k: number): number {
  return m.sbStride === 0 ? 0 : (s[m.sbOff + k * m.sbStride] as number);
}

/** Word a as CPU k sees it: its newest buffered store covering a, else memory. */
export function seenWord(m: Machine, s: Int32Array, k: number, a: number): number {
  const b = m.sbOff + k * m.sbStride;
  for (let i = (s[b] as number) - 1; i >= 0; i--) {
    const e = b + 1 + i * SB_ENTRY;
    const at = s[e] as number;
    if (at === a) return s[e + 2] as number;
    if (s[e + 1] === 2 && at + 1 === a) return s[e + 3] as number;
  }
  return s[a] as number;
}

/**
 * Appends a store of `words` words (1, or 2 for a single-step 64-bit store) at address a to CPU
 * k's buffer. A full buffer first writes its oldest entry to memory (the CPU stalls until one
 * drains, which is that flush followed by this store).
 */
export function bufferStore(
  m: Machine,
  s: Int32Array,
  k: number,
  a: number,
  words: number,
  lo: number,
  hi: number,
): void {
  const b = m.sbOff + k * m.sbStride;
  if (s[b] === SB_DEPTH) flushOldest(m, s, k);
  const n = s[b] as number;
  const e = b + 1 + n * SB_ENTRY;
  s[e] = a;
  s[e + 1] = words;
  s[e + 2] = lo;
  s[e + 3] = words === 2 ? hi : 0;
  s[b] = n + 1;
}

/** Writes the buffered store whose entry starts at word e to memory. */
function writeEntry(s: Int32Array, e: number): void {
  const a = s[e] as number;
  s[a] = s[e + 2] as number;
  if (s[e + 1] === 2) s[a + 1] = s[e + 3] as number;
}

/** Writes CPU k's oldest buffered store to memory (the `flush k` event). */
export function flushOldest(m: Machine, s: Int32Array, k: number): void {
  const b = m.sbOff + k * m.sbStride;
  const n = s[b] as number;
  if (n === 0) return;
  writeEntry(s, b + 1);
  // Entries move up one place, and the freed last one is cleared: a state has one form.
  s.copyWithin(b + 1, b + 1 + SB_ENTRY, b + 1 + n * SB_ENTRY);
  s.fill(0, b + 1 + (n - 1) * SB_ENTRY, b + 1 + n * SB_ENTRY);
  s[b] = n - 1;
}

/** Writes every store of CPU k's buffer to memory, oldest first (a LOCK operation, smp_mb()). */
export function drain(m: Machine, s: Int32Array, k: number): number {
  if (m.sbStride === 0) return 0;
  const b = m.sbOff + k * m.sbStride;
  const n = s[b] as number;
  for (let i = 0; i < n; i++) writeEntry(s, b + 1 + i * SB_ENTRY);
  s.fill(0, b, b + 1 + n * SB_ENTRY);
  return n;
}

/** One waiting store, for the charts and the narration. */
export interface BufferedStore {
  /** Word address. */
  readonly addr: number;
  /** 1, or 2 for a 64-bit store. */
  readonly words: number;
  readonly value: bigint;
}

/** CPU k's buffer, oldest first. */
export function bufferOf(m: Machine, s: Int32Array, k: number): BufferedStore[] {
  const out: BufferedStore[] = [];
  const b = m.sbOff + k * m.sbStride;
  for (let i = 0; i < buffered(m, s, k); i++) {
    const e = b + 1 + i * SB_ENTRY;
    const words = s[e + 1] as number;
    const lo = s[e + 2] as number;
    const value = words === 2 ? (BigInt(s[e + 3] as number) << 32n) | BigInt(lo >>> 0) : BigInt(lo);
    out.push({ addr: s[e] as number, words, value });
  }
  return out;
}

/** Every CPU's buffer is empty. */
export function buffersEmpty(m: Machine, s: Int32Array): boolean {
  if (m.sbStride === 0) return true;
  for (let k = 0; k < m.cpus; k++) if (s[m.sbOff + k * m.sbStride] !== 0) return false;
  return true;
}
