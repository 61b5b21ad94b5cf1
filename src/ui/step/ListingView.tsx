import { cpuColour, inkOn } from '../../charts/palette.ts';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { currentState } from '../../store/session.ts';
import { foldAround, foldContext } from './listingFold.ts';
import { cpuViews } from './view.ts';
import { useStep } from './useStep.ts';

/**
 * The pseudo-C listing with a labelled, coloured cursor per CPU on the line it runs next. When
 * the lines from the first cursor to the last do not fit the box (a projector's Large type, a
 * long program, eight CPUs), the listing folds to the lines around each cursor, so every CPU's
 * next line is on screen at once; a fold's button shows the whole listing.
 */
export function ListingView() {
  const session = useStep((s) => s.session);
  const { lines, notes } = session.instance.listing;
  const cpus = cpuViews(session.instance.machine, currentState(session));
  const list = useRef<HTMLOListElement>(null);
  const cursorLines = [...new Set(cpus.map((c) => c.nextLine).filter((n) => n > 0))].sort(
    (a, b) => a - b,
  );
  const first = cursorLines[0] ?? 0;
  const last = cursorLines.at(-1) ?? 0;
  const cursorKey = cursorLines.join(',');

  // What the fold depends on besides the cursors: the box's width, the screen's height and the
  // type size. Not the box's height, which folding itself may change (the phone's listing is as
  // tall as its lines): that would fold and unfold for ever.
  const [box, setBox] = useState('');
  useEffect(() => {
    const l = list.current;
    if (!l) return;
    const note = () => {
      setBox(
        `${String(Math.round(l.getBoundingClientRect().width))}/${String(window.innerHeight)}/${getComputedStyle(l).fontSize}`,
      );
    };
    note();
    const watch = new ResizeObserver(note);
    watch.observe(l);
    return () => {
      watch.disconnect();
    };
  }, []);
  const stamp = `${cursorKey}|${box}`;
  // Folding is decided by measuring the unfolded listing, before the browser paints: a render
  // whose stamp has no decision yet shows every line, and the layout effect decides.
  // `context`: lines kept above each cursor when folded (null: not folded).
  const [decided, setDecided] = useState<{ stamp: string; context: number | null }>({
    stamp: '',
    context: null,
  });
  const [whole, setWhole] = useState(false);
  const context = !whole && decided.stamp === stamp ? decided.context : null;
  useLayoutEffect(() => {
    if (decided.stamp === stamp) return;
    const l = list.current;
    const items = l ? [...l.querySelectorAll<HTMLElement>('li[data-line]')] : [];
    const heights = items.map((li) => li.getBoundingClientRect().height);
    setDecided({
      stamp,
      context: l ? foldContext(heights, cursorLines, l.clientHeight - 8) : null,
    });
  }, [stamp, decided.stamp, cursorLines]);

  // Keep the CPUs' cursors in view inside the listing (never scrolling the page): all of them
  // when they fit, else the first. Again when the listing changes size (the Large text size,
  // a panel opening), which moves the lines under a cursor that has not moved.
  useEffect(() => {
    const l = list.current;
    if (!l) return;
    const keep = () => {
      const top = l.querySelector(`[data-line="${String(first)}"]`);
      const bottom = l.querySelector(`[data-line="${String(last)}"]`);
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
  }, [first, last, context]);

  const at = new Map<number, number[]>();
  for (const c of cpus)
    if (c.nextLine > 0) at.set(c.nextLine, [...(at.get(c.nextLine) ?? []), c.cpu]);
  const parts =
    context === null
      ? [{ from: 1, to: lines.length, shown: true }]
      : foldAround(lines.length, cursorLines, context, context - 1);
  return (
    <section className="listing" aria-label="Listing">
      {whole && decided.context !== null && (
        <button
          type="button"
          className="fold-toggle"
          onClick={() => {
            setWhole(false);
          }}
        >
          Fold to the CPUs&rsquo; lines
        </button>
      )}
      <ol ref={list} aria-label="Source listing" tabIndex={0}>
        {parts.map((part) =>
          !part.shown ? (
            <li key={`fold-${String(part.from)}`} className="fold">
              <button
                type="button"
                onClick={() => {
                  setWhole(true);
                }}
              >
                {part.from === part.to
                  ? `⋯ line ${String(part.from)}`
                  : `⋯ lines ${String(part.from)}–${String(part.to)}`}
                <span className="sr-only"> folded: show the whole listing</span>
              </button>
            </li>
          ) : (
            lines.slice(part.from - 1, part.to).map((text, j) => {
              const n = part.from + j;
              const here = at.get(n) ?? [];
              return (
                <li key={n} value={n} data-line={n} className={here.length ? 'current' : undefined}>
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
            })
          ),
        )}
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
