import { type ReactNode, useEffect, useRef } from 'react';

/** The panels that open beside the stage, one at a time, so the stage itself never scrolls. */
export const PANELS = ['Parameters', 'Lesson', 'Challenges', 'Results', 'Explore'] as const;
export type PanelName = (typeof PANELS)[number];

/** A row of buttons, each opening (or closing) one panel. */
export function PanelButtons({
  open,
  onToggle,
  taught = true,
}: {
  open: string | null;
  onToggle: (name: string) => void;
  /** The scenario has a lesson (a typed program has none, nor challenges). */
  taught?: boolean;
}) {
  return (
    <div className="panel-buttons" role="group" aria-label="Panels">
      {PANELS.filter((name) => taught || (name !== 'Lesson' && name !== 'Challenges')).map(
        (name) => (
          <button
            key={name}
            type="button"
            aria-expanded={open === name}
            aria-controls="side-panel"
            onClick={() => {
              onToggle(name);
            }}
          >
            {name}
          </button>
        ),
      )}
    </div>
  );
}

/**
 * The open panel, over the right of the stage: Close or Escape shuts it and gives focus back to
 * the button that opened it.
 */
export function SidePanel({
  name,
  onClose,
  children,
}: {
  name: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    box.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [name, onClose]);
  return (
    <div
      id="side-panel"
      ref={box}
      className="side-panel"
      role="complementary"
      aria-label={`${name} panel`}
      tabIndex={-1}
    >
      <div className="side-panel-head">
        <h3>{name}</h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {children}
    </div>
  );
}
