import { useLayoutEffect, useState } from 'react';

export interface BoxSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The content size of an element, updated as it resizes (a window, Large, a panel opening), so
 * a chart can lay itself out for the box it has instead of a fixed aspect. `fallback` until the
 * first measure (and where there is no layout, as in a test's DOM).
 *
 * Returns a callback ref to put on the element, not a ref object: a box that React replaces (a
 * figure that appears on a later step) is then measured and watched in its turn. An effect keyed
 * on a ref object runs once, and kept watching the first, detached element: the torn-read chart
 * kept the size of the box it had at step 0.
 */
export function useBoxSize(fallback: BoxSize): [(el: Element | null) => void, BoxSize] {
  const [el, setEl] = useState<Element | null>(null);
  const [size, setSize] = useState(fallback);
  useLayoutEffect(() => {
    if (!el) return;
    const measure = () => {
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) return;
      setSize((s) =>
        Math.abs(s.width - r.width) < 1 && Math.abs(s.height - r.height) < 1
          ? s
          : { width: Math.round(r.width), height: Math.round(r.height) },
      );
    };
    measure();
    const watch = new ResizeObserver(measure);
    watch.observe(el);
    return () => {
      watch.disconnect();
    };
  }, [el]);
  return [setEl, size];
}
