// The words of the sweep picture: a sum's status line and the note on a batch it did not count
// once. The chart draws them and the figure's caption repeats them as its text equivalent.

import type { FoldSeen, SumSweep } from './sumSweep.ts';

const n = (v: number | bigint) => String(v);

/** "CPU3's sum, pass 2 (1 retry): read fbc->count, CPU0, CPU1; so far 1039". */
export function sweepSummary(s: SumSweep, globalLabel = 'fbc->count'): string {
  const pass =
    s.pass > 1 || s.retries > 0
      ? `, pass ${String(s.pass)} (${String(s.retries)} retr${s.retries === 1 ? 'y' : 'ies'})`
      : '';
  if (s.returned !== null) return `${s.who}'s sum${pass} returned ${n(s.returned)}`;
  const read = [...(s.global ? [globalLabel] : []), ...s.reads.map((r) => `CPU${String(r.cpu)}`)];
  if (read.length === 0) return `${s.who}'s sum${pass}: starts over, nothing read yet`;
  return `${s.who}'s sum${pass}: has read ${read.join(', ')}; so far ${n(s.running)}`;
}

/** The chart's one-line status: "CPU3's sum: so far 1005" or "CPU3's sum returned 1005". */
export function sweepShort(s: SumSweep): string {
  if (s.returned !== null) return `${s.who}'s sum returned ${n(s.returned)}`;
  if (!s.global && s.reads.length === 0) return `${s.who}'s sum starts over`;
  return `${s.who}'s sum so far: ${n(s.running)}`;
}

/** The note on a batch a fold moved behind the sweep's back. */
export function foldNote(f: FoldSeen, who: string): string {
  const cpu = `CPU${String(f.cpu)}`;
  switch (f.fate) {
    case 'missed':
      return `Missed ${n(f.amount)}: ${cpu}'s fold reached fbc->count after ${who} read it, and left ${cpu}'s delta before ${who} read that`;
    case 'at-risk':
      return `${cpu}'s ${n(f.amount)} is now behind the sweep: folded into fbc->count after ${who} read it, gone from ${cpu}'s delta`;
    case 'twice':
      return `Counted twice: ${who} read fbc->count after ${cpu}'s fold of ${n(f.amount)}, and ${cpu}'s delta (${String(f.slotValue ?? 0)}) before its reset`;
  }
}

/** A short form for the chart, where the long one does not fit. */
export function foldShort(f: FoldSeen): string {
  const cpu = `CPU${String(f.cpu)}`;
  switch (f.fate) {
    case 'missed':
      return `MISSED: ${cpu}'s ${n(f.amount)} moved behind the sweep`;
    case 'at-risk':
      return `${cpu}'s ${n(f.amount)} is behind the sweep: will miss`;
    case 'twice':
      return `TWICE: ${cpu}'s ${String(f.slotValue ?? 0)} read in both places`;
  }
}

/** The counter chart's text equivalent: the global count, the pour, the sweep, what it missed. */
export function counterText(o: {
  readonly globalLabel: string;
  readonly globalValue: number | bigint;
  readonly pour: { readonly cpu: number; readonly amount: number } | null;
  readonly sweeps: readonly SumSweep[];
}): string {
  const parts = [`${o.globalLabel} = ${n(o.globalValue)}.`];
  if (o.pour) {
    parts.push(
      `CPU${String(o.pour.cpu)}'s delta reached the batch: it folded ${String(o.pour.amount)} into ${o.globalLabel}.`,
    );
  }
  for (const s of o.sweeps) {
    parts.push(`${sweepSummary(s, o.globalLabel)}.`);
    for (const f of s.folds) parts.push(`${foldNote(f, s.who)}.`);
  }
  return parts.join(' ');
}
