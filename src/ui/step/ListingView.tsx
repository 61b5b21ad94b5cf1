import { cpuColour, inkOn } from '../../charts/palette.ts';
import { useEffect, useRef } from 'react';
import { currentState } from '../../store/session.ts';
import { cpuViews } from './view.ts';
import { useStep } from './useStep.ts';

/** The pseudo-C listing with a labelled, coloured cursor per CPU on the line it runs next. */
export function ListingView() {
  const session = useStep((s) => s.session);
  const { lines, notes } = session.instance.listing;
  const cpus = cpuViews(session.instance.machine, currentState(session));
  const list = useRef<HTMLOListElement>(null);
  const cursorLines = cpus.map((c) => c.nextLine).filter((n) => n > 0);
  const first = Math.min(...cursorLines);
  const last = Math.max(...cursorLines);
  // Keep the CPUs' cursors in view inside the listing (never scrolling the page): all of them
  // when they fit, else the first. Again when the listing changes size (the Large text size,
  // a panel opening), which moves the lines under a cursor that has not moved.
  useEffect(() => {
    const l = list.current;
    if (!l) return;
    const keep = () => {
      const top = Number.isFinite(first) ? l.children[first - 1] : undefined;
      const bottom = Number.isFinite(last) ? l.children[last - 1] : undefined;
      if (!top || !bottom) return;
      const box = l.getBoundingClientRect();
      const a = top.getBoundingClientRect();
      const b = bottom.getBoundingClientRect();
      if (a.top >= box.top && b.bottom <= box.bottom) return;
      const span = b.bottom - a.top;
      l.scrollTop +=
        span <= box.height ? a.top - box.top - (box.height - span) / 2 : a.top - box.top - 8;
    };
    keep();
    const watch = new ResizeObserver(keep);
    watch.observe(l);
    // A line's own height moves with the text size even where the listing's box does not.
    if (l.firstElementChild) watch.observe(l.firstElementChild);
    return () => {
      watch.disconnect();
    };
  }, [first, last]);
  const at = new Map<number, number[]>();
  for (const c of cpus)
    if (c.nextLine > 0) at.set(c.nextLine, [...(at.get(c.nextLine) ?? []), c.cpu]);
  return (
    <section className="listing" aria-label="Listing">
      <ol ref={list} aria-label="Source listing" tabIndex={0}>
        {lines.map((text, i) => {
          const here = at.get(i + 1) ?? [];
          return (
            <li key={i} className={here.length ? 'current' : undefined}>
              <span className="cursors">
                {here.map((k) => (
                  <span
                    key={k}
                    className="cursor-chip"
                    style={{ background: cpuColour(k), color: inkOn(cpuColour(k)) }}
                  >
                    {/* With many CPUs a chip is its digit (the colour is the lane's); read as CPUk. */}
                    {cpus.length > 4 ? (
                      <>
                        <span className="sr-only">CPU</span>
                        {k}
                      </>
                    ) : (
                      `CPU${String(k)}`
                    )}
                  </span>
                ))}
              </span>
              <code>{text.replace(/\t/g, '    ')}</code>
            </li>
          );
        })}
      </ol>
      {notes.length > 0 && (
        <details>
          <summary>Notes on this model</summary>
          <ul>
            {notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
