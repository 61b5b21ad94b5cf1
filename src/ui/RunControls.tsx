import type { ReactNode } from 'react';

/** One button of a run: what it says, whether it can be pressed now, and the action it asks for. */
export interface RunButton<K extends string> {
  readonly label: string;
  readonly disabled: boolean;
  readonly action: K;
}

/**
 * The buttons that start and stop a run (Live mode's run, the Scaling sweep): the first starts
 * it and is the primary one; `children` adds controls that belong with them.
 */
export function RunControls<K extends string>({
  label,
  actions,
  buttons,
  children,
}: {
  label: string;
  /** The store's actions, called by name (so each keeps its store as `this`). */
  actions: Readonly<Record<K, () => unknown>>;
  buttons: readonly RunButton<K>[];
  children?: ReactNode;
}) {
  return (
    <div className="run-controls" role="group" aria-label={label}>
      {buttons.map((b, i) => (
        <button
          key={b.label}
          type="button"
          className={i === 0 ? 'primary' : undefined}
          disabled={b.disabled}
          onClick={() => {
            void actions[b.action]();
          }}
        >
          {b.label}
        </button>
      ))}
      {children}
    </div>
  );
}
