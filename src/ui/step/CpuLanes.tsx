import { useEffect, useRef } from 'react';
import { cpuColour } from '../../charts/palette.ts';
import { StoreBuffer } from '../../charts/StoreBuffer.tsx';
import { currentState } from '../../store/session.ts';
import { CpuButtons } from './Controls.tsx';
import { type CpuView, cpuViews } from './view.ts';
import { eventCpu } from '../../machine/events.ts';
import type { Session } from '../../store/session.ts';
import { useStep } from './useStep.ts';

/**
 * One lane per CPU: what runs there, its preempt_count, interrupts, the next line, under memory
 * tso its store buffer, and the buttons that schedule it, so the class sees the cause (a CPU's
 * step) beside its state.
 */
export function CpuLanes() {
  const session = useStep((s) => s.session);
  const cpus = cpuViews(session.instance.machine, currentState(session));
  const box = useRef<HTMLElement>(null);
  const acted = actedLast(session);
  // The lane of the CPU that acted last stays in view inside the lanes (never scrolling the
  // page), so with many CPUs the class sees the one that moved; again when the box resizes.
  useEffect(() => {
    const b = box.current;
    if (!b || acted < 0) return;
    const keep = () => {
      const lane = b.children[acted];
      if (!lane) return;
      const outer = b.getBoundingClientRect();
      const r = lane.getBoundingClientRect();
      if (r.top < outer.top) b.scrollTop += r.top - outer.top;
      else if (r.bottom > outer.bottom) b.scrollTop += r.bottom - outer.bottom;
    };
    keep();
    const watch = new ResizeObserver(keep);
    watch.observe(b);
    return () => {
      watch.disconnect();
    };
  }, [acted, session.cursor]);
  // More lanes than fit at full height: one line each for the flags and registers.
  const compact = cpus.length > 4;
  return (
    <section ref={box} className={`lanes${compact ? ' compact' : ''}`} aria-label="CPUs">
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
          {c.hotplug && (
            <p className={`hotplug ${c.hotplug}`}>
              {c.hotplug === 'online'
                ? 'online: in cpu_online_mask'
                : c.hotplug === 'dying'
                  ? 'dying: out of cpu_online_mask, in cpu_dying_mask (dead callbacks pending)'
                  : 'offline: in neither mask'}
            </p>
          )}
          <p className="flags" title={compact ? flagsText(c) : undefined}>
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

/** The CPU of the event that led to the moment shown, or −1 at the start. */
function actedLast(s: Session): number {
  const ev = s.events[s.cursor - 1];
  return ev === undefined ? -1 : eventCpu(ev);
}

/** A lane's flags line as text (its tooltip when compact lanes cut it short). */
function flagsText(c: CpuView): string {
  return [
    `preempt_count ${String(c.preemptCount)}`,
    `interrupts ${c.irqsOn ? 'on' : 'off'}`,
    ...(c.pending ? ['IRQ pending'] : []),
    ...c.registers,
  ].join(' · ');
}
