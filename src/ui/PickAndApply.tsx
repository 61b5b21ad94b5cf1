import { useState } from 'react';
import { SelectField } from './SelectField.tsx';

/**
 * A choice committed by its button: a select with a "Choose…" placeholder, and a button that
 * applies the choice. Native selects change on arrow keys, so browsing a list from the keyboard
 * never applies anything by itself; the button is aria-disabled (still focusable), saying why,
 * until something is chosen.
 */
export function PickAndApply({
  label,
  placeholder,
  options,
  initial = '',
  button,
  hint,
  onApply,
}: {
  label: string;
  placeholder: string;
  options: readonly { readonly value: string; readonly label: string }[];
  /** What is chosen at first ('' for nothing). */
  initial?: string;
  /** The button's text. */
  button: string;
  /** The button's description once something is chosen (e.g. what it replaces). */
  hint?: string;
  onApply: (value: string) => void;
}) {
  const [picked, setPicked] = useState(initial);
  return (
    <>
      <SelectField label={label} value={picked} onPick={setPicked}>
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </SelectField>
      <button
        type="button"
        aria-disabled={picked === ''}
        title={picked === '' ? `${placeholder.replace(/…$/, '')} in the list first` : hint}
        onClick={() => {
          if (picked) onApply(picked);
        }}
      >
        {button}
      </button>
    </>
  );
}
