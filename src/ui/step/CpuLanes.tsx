import { cpuColour } from '../../charts/palette.ts';
import { StoreBuffer } from '../../charts/StoreBuffer.tsx';
import { currentState } from '../../store/session.ts';
import { CpuButtons } from './Controls.tsx';
import { cpuViews } from './view.ts';
import { useStep } from './useStep.ts';

/**
 * One lane per CPU: what runs there, its preempt_count, interrupts, the next line, under memory
 * tso its store buffer, and the buttons that schedule it, so the class sees the cause (a CPU's
 * step) beside its state.
 */
export function CpuLanes() {
  const session = useStep((s) => s.session);
  const cpus = cpuViews(session.instance.machine, currentState(session));
  return (
    <section className="lanes" aria-label="CPUs">
      {cpus.map((c) => (
        <div
          key={c.cpu}
          className="lane"
          role="group"
          aria-label={`CPU ${c.cpu}`}
          style={{ borderLeftColor: cpuColour(c.cpu) }}
        >
          <h3>
            CPU{c.cpu} <span className="stack">{c.idle ? 'idle' : c.stack.join(' → ')}</span>{' '}
            <span className="next-line">
              {c.nextLine > 0 ? `next: line ${c.nextLine}` : c.idle ? 'nothing to run' : 'finished'}
            </span>
          </h3>
          <p className="flags">
            <span>preempt_count {c.preemptCount}</span> ·{' '}
            <span>interrupts {c.irqsOn ? 'on' : 'off'}</span>
            {c.pending && <span className="pending"> · IRQ pending</span>}
            {c.registers.length > 0 && (
              <>
                {' · '}
                <span className="registers">{c.registers.join(', ')}</span>
              </>
            )}
          </p>
          {c.buffer && <StoreBuffer cpu={c.cpu} stores={c.buffer} colour={cpuColour(c.cpu)} />}
          <CpuButtons k={c.cpu} />
        </div>
      ))}
    </section>
  );
}
