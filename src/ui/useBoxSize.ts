import { type RefObject, useLayoutEffect, useState } from 'react';

export interface BoxSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The content size of `ref`'s element, updated as it resizes (a window, Large, a panel opening),
 * so a chart can lay itself out for the box it has instead of a fixed aspect. `fallback` until
 * the first measure (and where there is no layout, as in a test's DOM).
 */
export function useBoxSize(ref: RefObject<Element | null>, fallback: BoxSize): BoxSize {
  const [size, setSize] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
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
  }, [ref]);
  return size;
}
