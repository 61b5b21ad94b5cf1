// A torn read of a 64-bit value on a 32-bit CPU: the reader loads the low and the
// high word in two steps, so the value it forms can join a half from before a writer's update
// with a half from after it. This module says, for the latest read in progress or done, which
// step read each half, which step wrote the word it got, and what the two halves form against
// the true value at each read. Pure.

import { pairValue, plus } from '../machine/int64.ts';
import { Op } from '../machine/isa.ts';
import { type Cell } from '../machine/layout.ts';
import { actorName } from '../machine/narrate.ts';
import { cellValue, totalTally } from '../machine/read.ts';
import type { Size } from './geometry.ts';
import { executedAt, type Run } from '../machine/executed.ts';

export interface HalfRead {
  readonly half: 'lo' | 'hi';
  /** The 32-bit word read, as an unsigned number. */
  readonly word: number;
  /** Event index of the read. */
  readonly readAt: number;
  /** Event index of the last write of that word before the read, or −1 (the initial value). */
  readonly writtenAt: number;
  /** Who wrote it ("CPU1"), or null for the initial value. */
  readonly writtenBy: string | null;
  /** The true value (initial + every add so far) when the half was read. */
  readonly truth: number | bigint;
}

export interface TornReadView {
  /** The reading context ("CPU0", "CPU0's IRQ handler"). */
  readonly who: string;
  readonly cell: string;
  /** The halves read so far, in the order read. */
  readonly halves: readonly HalfRead[];
  /** What the two halves form (null until both are read). */
  readonly formed: number | bigint | null;
  /** Both halves read and the value formed is not the true value at either read. */
  readonly torn: boolean;
}

/** "0x0000FFF0" */
export function hex32(w: number): string {
  return `0x${(w >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

/**
 * The latest split read of an s64 global cell by a reading context (one that records what it
 * read: a task's or handler's percpu_counter_read()), or null when there is none.
 */
export function tornRead(
  run: Run,
  cellName = run.m.layout.counter?.count ?? 'count',
): TornReadView | null {
  const { m } = run;
  const cell = m.layout.cells.find((c) => c.name === cellName && !c.perCpu) as Cell | undefined;
  if (!cell || cell.type !== 's64' || m.spec.wordBits !== 32) return null;
  const readers = new Set<number>();
  m.code.forEach((code, ctx) => {
    if (code.some((i) => i.op === Op.Record)) readers.add(ctx);
  });
  const start = run.states[0] as Int32Array;
  const initial = cellValue(start, cell);
  const truth = (s: Int32Array) => plus(initial, totalTally(m, s));
  const lastWrite: [number, number] = [-1, -1];
  const writer: [number, number] = [-1, -1];
  let who = -1;
  let halves: HalfRead[] = [];
  for (let i = 0; i < run.cursor; i++) {
    const before = run.states[i] as Int32Array;
    const after = run.states[i + 1] as Int32Array;
    const x = executedAt(run, i);
    if (x && readers.has(x.ctx) && (x.ins.op === Op.LoadLo || x.ins.op === Op.LoadHi)) {
      if (x.addr === cell.addr) {
        const half = x.ins.op === Op.LoadLo ? 'lo' : 'hi';
        const w = half === 'lo' ? 0 : 1;
        if (x.ctx !== who || halves.length === 2 || halves.some((h) => h.half === half)) {
          halves = [];
          who = x.ctx;
        }
        halves.push({
          half,
          word: (before[cell.addr + w] as number) >>> 0,
          readAt: i,
          writtenAt: lastWrite[w],
          writtenBy: writer[w] >= 0 ? actorName(m, before, writer[w]) : null,
          truth: truth(before),
        });
      }
    }
    for (const w of [0, 1] as const) {
      if (before[cell.addr + w] !== after[cell.addr + w]) {
        lastWrite[w] = i;
        writer[w] = x ? x.ctx : -1;
      }
    }
  }
  if (who < 0) return null;
  const lo = halves.find((h) => h.half === 'lo');
  const hi = halves.find((h) => h.half === 'hi');
  const formed = lo && hi ? pairValue(lo.word | 0, hi.word | 0) : null;
  const torn = formed !== null && halves.every((h) => String(h.truth) !== String(formed));
  const now = run.states[run.cursor] as Int32Array;
  return { who: actorName(m, now, who), cell: cell.label, halves, formed, torn };
}

/** "read at step 8: written at step 6 by CPU1" (steps counted from 1, as on the timeline). */
export function stamp(h: HalfRead): string {
  const written =
    h.writtenAt < 0
      ? 'its initial value'
      : `written at step ${String(h.writtenAt + 1)} by ${h.writtenBy ?? '?'}`;
  return `read at step ${String(h.readAt + 1)}: ${written}`;
}

/** "exactly 2^32 above 4294967280". */
export function offBy(formed: number | bigint, truth: number | bigint): string {
  const d = BigInt(formed) - BigInt(truth);
  const two32 = 1n << 32n;
  if (d === two32) return `exactly 2^32 above ${String(truth)}`;
  if (d === -two32) return `exactly 2^32 below ${String(truth)}`;
  return `${d >= 0n ? '+' : ''}${String(d)} from ${String(truth)}`;
}

/** The text equivalent of a torn-read picture. */
export function tornText(v: TornReadView): string {
  const halves = v.halves
    .map((h) => `${h.half === 'lo' ? 'low' : 'high'} half ${hex32(h.word)}, ${stamp(h)}`)
    .join('; ');
  if (v.formed === null)
    return `${v.who} reads ${v.cell} in two halves: ${halves}; the other half is not read yet`;
  const first = v.halves[0];
  const truths = [...new Set(v.halves.map((h) => String(h.truth)))].join(' then ');
  return `${v.who} read ${v.cell} in two halves: ${halves}. Together: ${String(v.formed)}; the true value was ${truths}${v.torn && first ? `: torn, ${offBy(v.formed, first.truth)}` : ''}.`;
}

/** The torn-read picture's drawn size at least (TornRead.tsx grows it to its box). */
export const TORN_MIN = { width: 480, height: 210 } as const;

/**
 * Where TornRead.tsx puts its parts in a box of `size`: two rows (the high half, then the low)
 * and the verdict under them share the height; each half's box takes about a third of the
 * width, its stamps to the right of it.
 */
export function tornReadLayout(size?: Size): {
  readonly width: number;
  readonly height: number;
  readonly rowH: number;
  readonly boxW: number;
  readonly boxH: number;
} {
  const width = size?.width ?? TORN_MIN.width;
  const height = Math.max(TORN_MIN.height, size?.height ?? TORN_MIN.height);
  const rowH = Math.min(150, (height - 80) / 2);
  return {
    width,
    height,
    rowH,
    boxW: Math.max(170, Math.min(300, width * 0.36)),
    boxH: Math.max(36, rowH - 34),
  };
}
