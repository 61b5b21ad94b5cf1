import { useId, useState } from 'react';
import type { Scenario } from '../scenarios/types.ts';

export interface PickerGroup {
  readonly label: string;
  readonly scenarios: readonly Pick<Scenario, 'id' | 'title'>[];
}

/**
 * The scenario chooser of Step and Live mode. A native select changes on arrow keys, so the choice
 * is committed by the Open button: browsing the list from the keyboard never throws a session or
 * a run away (opening the open scenario again starts it afresh). Key it by the open scenario so
 * it shows what is open.
 */
export function ScenarioPicker({
  current,
  groups,
  onOpen,
}: {
  current: string;
  groups: readonly PickerGroup[];
  onOpen: (id: string) => void;
}) {
  const id = useId();
  const [chosen, setChosen] = useState(current);
  return (
    <>
      <label htmlFor={id}>Scenario</label>
      <select
        id={id}
        value={chosen}
        onChange={(e) => {
          setChosen(e.target.value);
        }}
      >
        {groups.map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.scenarios.map((c) => (
              <option key={c.id} value={c.id}>
                {c.id}: {c.title}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <button
        type="button"
        onClick={() => {
          onOpen(chosen);
        }}
      >
        Open scenario
      </button>
    </>
  );
}
