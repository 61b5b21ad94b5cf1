import type { ReactNode } from 'react';

/**
 * A message the user must see (an alert, read out as it appears) with the one action that clears
 * it: Dismiss for a passing notice, Reset for a problem only a reset can end.
 */
export function Notice({
  label,
  action,
  onAction,
  children,
}: {
  /** The alert's accessible name, where a screen has more than one kind of notice. */
  label?: string;
  action: string;
  onAction: () => void;
  children: ReactNode;
}) {
  return (
    <div role="alert" aria-label={label} className="notice">
      {children}{' '}
      <button type="button" onClick={onAction}>
        {action}
      </button>
    </div>
  );
}
