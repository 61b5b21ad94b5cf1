import { type ReactNode, useId } from 'react';

/**
 * A select and the label that names it (for screen readers, and for tests that find it by role
 * and name); `onPick` gets the value chosen. The options are its children.
 */
export function SelectField({
  label,
  value,
  onPick,
  describedBy,
  children,
}: {
  label: string;
  value: string;
  onPick: (value: string) => void;
  /** The id of a hint that describes the choice. */
  describedBy?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-describedby={describedBy}
        onChange={(e) => {
          onPick(e.target.value);
        }}
      >
        {children}
      </select>
    </>
  );
}
