import { useEffect, useRef } from 'react';
import { LogBox } from '../LogBox.tsx';
import { useStep } from './useStep.ts';

/**
 * Every step's sentence; the newest is announced to screen readers (a polite live region).
 * `hidden`: read out, not shown (on the Large stage the newest sentence is whole in the bar above
 * it, and the log gives its room to the listing, whose cursors then stay in view).
 */
export function NarrationLog({ hidden = false }: { readonly hidden?: boolean }) {
  const session = useStep((s) => s.session);
  const current = useRef<HTMLLIElement>(null);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Keep the newest sentence in view inside the log only (scrollIntoView would scroll the page),
    // now and whenever the log changes size (Large, a resized window).
    const l = list.current;
    if (!l) return;
    const keep = () => {
      const c = current.current;
      if (!c) return;
      // Measured on screen, so it does not matter what the items' offsetParent is.
      const item = c.getBoundingClientRect();
      const box = l.getBoundingClientRect();
      if (item.bottom > box.bottom) l.scrollTop += item.bottom - box.bottom + 8;
      else if (item.top < box.top) l.scrollTop -= box.top - item.top + 8;
    };
    keep();
    const watch = new ResizeObserver(keep);
    watch.observe(l);
    return () => {
      watch.disconnect();
    };
  }, [session.cursor]);
  const shown = session.steps.slice(0, session.cursor);
  return (
    <section className={hidden ? 'narration sr-only' : 'narration'} aria-label="Narration">
      <h3>
        What happened
        {shown.length === 0 && <span className="empty">: nothing yet. Step a CPU to begin.</span>}
      </h3>
      <LogBox ref={list} label="Narration log">
        {shown.map((st, i) => (
          <li
            key={i}
            ref={i === shown.length - 1 ? current : undefined}
            aria-current={i === shown.length - 1 ? 'step' : undefined}
          >
            <span className="num">{i + 1}.</span> <code className="event">{st.event}</code>{' '}
            {st.text}
          </li>
        ))}
      </LogBox>
    </section>
  );
}
