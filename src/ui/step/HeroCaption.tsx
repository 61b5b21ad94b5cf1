import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';

/**
 * The hero chart's caption: two lines high whatever it says, so the chart's box keeps its size
 * from step to step (a resize mid-step would cut a pour or a tween short). When the words need
 * more, "Read the whole caption" lays them over the foot of the chart instead of growing the row.
 */
export function HeroCaption({ id, children }: { id: string; children: ReactNode }) {
  const ref = useRef<HTMLElement | null>(null);
  const [cut, setCut] = useState(false);
  const [open, setOpen] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      // Open, the words are laid over the chart: what they need is measured closed.
      if (!el.classList.contains('open')) setCut(el.scrollHeight > el.clientHeight + 1);
    };
    measure();
    // The words' own box too: they reflow (a font arriving, a narrower column) inside a
    // caption that keeps its size.
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    return () => {
      ro.disconnect();
    };
  }, [children, open]);
  return (
    <>
      <figcaption
        ref={ref}
        id={id}
        className={open ? 'open' : cut ? 'cut' : undefined}
        // Without the button (a caption that fits) it may still be read by keyboard.
        tabIndex={0}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) setOpen(false);
        }}
      >
        <span>{children}</span>
      </figcaption>
      {(cut || open) && (
        <button
          type="button"
          className="caption-more"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => {
            setOpen((o) => !o);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && open) setOpen(false);
          }}
        >
          Read the whole caption
        </button>
      )}
    </>
  );
}
