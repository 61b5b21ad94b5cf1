import type { ReactNode, Ref } from 'react';

/**
 * A live log: a box around a list (a role on the <ol> would unmake it a list) that announces what
 * is added. It scrolls, so it takes focus for keyboard users (axe: scrollable-region-focusable).
 * Step mode's narration and the memory system's choices both use it; `ref` lets them scroll it.
 */
export function LogBox({
  ref,
  label,
  className,
  children,
}: {
  ref?: Ref<HTMLDivElement>;
  label: string;
  /** Classes beside log-box. */
  className?: string;
  /** The list's <li> items. */
  children: ReactNode;
}) {
  return (
    <div
      ref={ref}
      className={className ? `${className} log-box` : 'log-box'}
      role="log"
      aria-live="polite"
      aria-label={label}
      tabIndex={0}
    >
      <ol>{children}</ol>
    </div>
  );
}
