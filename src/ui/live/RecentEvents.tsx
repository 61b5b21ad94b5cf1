// The latest notable events of a Live run in words ("0.125 s: CPU1 folds its delta into the
// global count"), beside the Live screen's charts. The words for each note the CPUs write into
// their rings live here, with the one list that shows them.

import { Note, type Noted } from '../../live/memory.ts';

const NOTE_TEXT: Readonly<Record<number, string>> = {
  [Note.Fold]: 'folds its delta into the global count',
  [Note.SeqBump]: 'bumps the sequence',
  [Note.SumRetry]: 'sum() starts over',
  [Note.Irq]: 'takes an IRQ',
  [Note.Nmi]: 'takes an NMI',
  [Note.MigratedOut]: 'hands its task to another CPU',
  [Note.Adopted]: 'adopts a migrated task',
  [Note.BadSum]: 'sees sum() return a value outside the exact totals while it ran',
  [Note.Offline]: 'goes offline: dying, out of cpu_online_mask, its dead callbacks handed over',
  [Note.Online]: 'comes back online',
  [Note.DeadDone]: "returns from another CPU's dead callbacks: that CPU leaves cpu_dying_mask",
};

/** The latest notable events, in words (sampled ten times a second, not announced). */
export function RecentEvents({ notes, scenario }: { notes: readonly Noted[]; scenario: string }) {
  if (notes.length === 0) return null;
  return (
    <section className="recent" aria-label={`Recent events in ${scenario}`}>
      <h3>Recent events</h3>
      <ol>
        {notes.map((n) => (
          <li key={`${String(n.cpu)}-${String(n.seq)}`}>
            {(n.ms / 1000).toFixed(3)} s: CPU{n.cpu} {NOTE_TEXT[n.what] ?? 'does something'}
          </li>
        ))}
      </ol>
    </section>
  );
}
