import { cpuColour } from '../../charts/palette.ts';
import { Kind } from '../../machine/isa.ts';
import { useStep } from './useStep.ts';

/** Words, not only colours, for the steps worth a sign. */
const SIGNS: Record<number, string> = {
  [Kind.Fold]: 'FOLD: a delta poured into the global count',
  [Kind.Overflow]: 'OVERFLOW: the delta reached the batch',
  [Kind.SeqBump]: 'SEQUENCE BUMP',
  [Kind.SumRetry]: 'RETRY: the sum starts over',
  [Kind.LockSpin]: 'SPIN: waiting for a lock',
  [Kind.TornAccess]: 'TORN: half of a 64-bit access',
  [Kind.IrqEntry]: 'IRQ: the handler starts',
  [Kind.IrqPending]: 'IRQ PENDING: interrupts are off',
  [Kind.IrqExit]: 'IRQ handler returns',
  [Kind.NmiEntry]: 'NMI: the handler starts, whatever the interrupt state',
  [Kind.Migration]: 'MIGRATION',
  [Kind.Preempt]: 'PREEMPTION',
  [Kind.Result]: 'RESULT returned',
  [Kind.Flush]: 'FLUSH: a buffered store reaches memory',
  [Kind.Hotplug]: 'CPU HOTPLUG',
};

/**
 * The step just taken, with a sign for folds, spins, retries, torn accesses and interrupts: the
 * newest narration line, whole, above the stage (in Large it is the only one on screen).
 */
export function LastStep() {
  const session = useStep((s) => s.session);
  const last = session.cursor > 0 ? session.steps[session.cursor - 1] : undefined;
  if (!last)
    return (
      <p className="last-step" role="note" aria-label="Latest step">
        Step {session.cursor}: the start.
      </p>
    );
  const sign = SIGNS[last.kind];
  return (
    <p
      className="last-step"
      role="note"
      aria-label="Latest step"
      style={{ borderLeftColor: cpuColour(last.cpu) }}
    >
      Step {session.cursor}
      {sign && <strong className="sign"> {sign}</strong>}: {last.text}
    </p>
  );
}
