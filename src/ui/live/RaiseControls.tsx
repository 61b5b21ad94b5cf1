// The buttons that raise an IRQ, an NMI or a migration on one CPU of a running Live run. A part
// of the Live screen's run controls, in a file of its own: it keeps the CPU chosen, and it offers
// only what that CPU can take.

import { useId, useState } from 'react';
import type { Machine } from '../../machine/machine.ts';
import type { LiveState } from '../../store/liveStore.ts';

export interface RaiseControlsProps {
  readonly machine: Machine;
  /** The Live store's actions (as RunControls takes them): a button raises through them. */
  readonly actions: Pick<LiveState, 'raiseRequested'>;
}

export function RaiseControls({ machine, actions }: RaiseControlsProps) {
  const id = useId();
  const [cpu, setCpu] = useState(0);
  const cpus = machine.cpus;
  // Only the CPUs that have a handler: the buttons say what the selected CPU can take.
  const hasIrq = machine.irqCtx[cpu] !== undefined && machine.irqCtx[cpu] !== -1;
  const hasNmi = machine.nmiCtx[cpu] !== undefined && machine.nmiCtx[cpu] !== -1;
  const raises = [
    { what: 'irq', label: 'Raise IRQ', shown: hasIrq },
    { what: 'nmi', label: 'Raise NMI', shown: hasNmi },
    { what: 'migration', label: 'Migrate its task', shown: cpus > 1 },
  ] as const;
  return (
    <span className="raise">
      <label htmlFor={id}>On CPU</label>
      <select
        id={id}
        value={cpu}
        onChange={(e) => {
          setCpu(Number(e.target.value));
        }}
      >
        {Array.from({ length: cpus }, (_, k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
      {raises
        .filter((r) => r.shown)
        .map(({ what, label }) => (
          <button
            key={what}
            type="button"
            onClick={() => {
              actions.raiseRequested(cpu, what);
            }}
          >
            {label}
          </button>
        ))}
    </span>
  );
}
