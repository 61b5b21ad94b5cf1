import { useId } from 'react';
import { PickAndApply } from '../PickAndApply.tsx';
import titles from 'virtual:catalogue-titles';
import { loadedScenario } from '../../scenarios/load.ts';
import { PROGRAM_ID } from '../../scenarios/program.ts';
import { paramRange, paramsText } from '../../scenarios/params.ts';
import { groupBy } from '../groupBy.ts';
import { ScenarioPicker } from '../ScenarioPicker.tsx';
import { stepStore, useStep, useStepFields } from './useStep.ts';
import { STEP_MAX_CPUS } from '../../store/stepStore.ts';

/**
 * Scenario and witness choosers, for the stage's bar. Native selects change on arrow keys, so a choice is committed by
 * its button (Open / Load): browsing a list from the keyboard never throws the session away.
 * Keyed by the session's scenario and witness, so the selects show what is loaded.
 */
export function Choosers() {
  const session = useStep((s) => s.session);
  const witness = useStep((s) => s.witness);
  const sc = session.scenario;
  const program = loadedScenario(PROGRAM_ID);
  const actions = stepStore.getState();
  return (
    <div className="row">
      <ScenarioPicker
        current={sc.id}
        groups={[
          // Titles computed at build time: a Step link loads only the entry it opens.
          ...groupBy(titles, (c) => c.group).map((g) => ({
            label: g.key,
            scenarios: g.items,
          })),
          // The typed program this page has open, beside the catalogue.
          ...(program ? [{ label: program.group, scenarios: [program] }] : []),
        ]}
        onOpen={(chosenId) => {
          actions.scenarioChosen(chosenId);
        }}
      />
      <PickAndApply
        label="Witness"
        placeholder="Choose a witness…"
        options={sc.witnesses.map((w) => ({ value: w.name, label: w.name }))}
        initial={witness ?? ''}
        button="Load witness"
        onApply={(name) => {
          actions.witnessLoaded(name);
        }}
      />
    </div>
  );
}

/** The scenario's summary and its parameters, with its presets (a panel beside the stage). */
export function ParamsPanel() {
  const { session, notice } = useStepFields('session', 'notice');
  const sc = session.scenario;
  const text = paramsText(session.params, sc);
  const actions = stepStore.getState();
  const id = useId();
  // A refused value is put back to the accepted one (the notice says why). Typing the accepted
  // value back clears a notice about this parameter: nothing is wrong any more.
  const settle = (name: string, input: HTMLInputElement, accepted: string) => {
    if (input.value === accepted) {
      if (stepStore.getState().notice?.startsWith(`${name} `)) actions.noticeDismissed();
      return;
    }
    actions.paramChanged(name, input.value);
    if (stepStore.getState().notice) input.value = accepted;
  };
  return (
    <section className="params-panel" aria-label="Scenario and parameters">
      <p className="scenario-summary">
        {sc.summary} {sc.reconstruction && <span className="badge">reconstruction</span>}
      </p>
      <fieldset className="params">
        <legend>Parameters</legend>
        {sc.params.map((p) => {
          const value =
            text[p.name] ?? (Array.isArray(p.default) ? p.default.join(',') : String(p.default));
          return (
            <div key={p.name} className="param">
              <label>
                {p.name}{' '}
                {p.kind === 'choice' ? (
                  <select
                    value={value}
                    aria-describedby={`${id}-${p.name}`}
                    onChange={(e) => {
                      actions.paramChanged(p.name, e.target.value);
                    }}
                  >
                    {p.choices.map((c) => (
                      <option key={c}>{c}</option>
                    ))}
                  </select>
                ) : (
                  <input
                    key={`${sc.id}-${p.name}-${value}`}
                    defaultValue={value}
                    aria-describedby={`${id}-${p.name}`}
                    aria-invalid={notice !== null && notice.startsWith(`${p.name} `)}
                    size={Math.max(p.kind === 'list' ? 12 : 6, value.length + 1)}
                    onBlur={(e) => {
                      settle(p.name, e.target, value);
                    }}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') settle(p.name, e.currentTarget, value);
                    }}
                  />
                )}
              </label>
              <span id={`${id}-${p.name}`} className="hint param-help">
                {p.description} (
                {paramRange(
                  p.name === 'cpus' && p.kind === 'int'
                    ? { ...p, max: Math.min(p.max, STEP_MAX_CPUS) }
                    : p,
                )}
                )
              </span>
            </div>
          );
        })}
        {Object.keys(sc.presets).map((name) => (
          <button
            key={name}
            type="button"
            title={sc.presets[name]?.description}
            onClick={() => {
              actions.presetApplied(name);
            }}
          >
            Preset: {name}
          </button>
        ))}
      </fieldset>
    </section>
  );
}
