import { MEMORY_PARAM } from '../scenarios/textScenario.ts';
import { SelectField } from './SelectField.tsx';

/** Each memory model as the page names it: the link's value first, then what it means. */
const NAMES: Readonly<Record<string, string>> = {
  sc: 'sc: sequentially consistent',
  tso: 'tso: x86 store buffers',
  lkmm: 'lkmm: the kernel’s memory model, as herd7',
};

/**
 * The memory model a program runs under, wherever the page lets one be chosen (the editor, the
 * Explore panel): the same choices as the `memory` parameter, links and `lab --memory`.
 */
export function MemoryModelField({
  value,
  onPick,
}: {
  value: string;
  onPick: (memory: string) => void;
}) {
  return (
    <SelectField label="Memory model" value={value} onPick={onPick}>
      {MEMORY_PARAM.choices.map((m) => (
        <option key={m} value={m}>
          {NAMES[m] ?? m}
        </option>
      ))}
    </SelectField>
  );
}
