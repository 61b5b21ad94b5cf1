import { useId } from 'react';
import { catalogue } from '../../scenarios/index.ts';
import { groupBy } from '../groupBy.ts';
import { paramText } from '../../store/stepStore.ts';
import { stepStore, useStep } from './useStep.ts';

/** Scenario picker, witness menu and parameters. */
export function ScenarioBar() {
  const session = useStep((s) => s.session);
  const witness = useStep((s) => s.witness);
  const id = useId();
  const sc = session.scenario;
  const text = paramText(sc, session.params);
  const actions = stepStore.getState();
  return (
    <section className="scenario-bar" aria-label="Scenario">
      <div className="row">
        <label htmlFor={`${id}-sc`}>Scenario</label>
        <select
          id={`${id}-sc`}
          value={sc.id}
          onChange={(e) => {
            actions.scenarioChosen(e.target.value);
          }}
        >
          {groupBy(catalogue, (c) => c.group).map(({ key, items }) => (
            <optgroup key={key} label={key}>
              {items.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.id}: {c.title}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        <label htmlFor={`${id}-w`}>Witness</label>
        <select
          id={`${id}-w`}
          value={witness ?? ''}
          onChange={(e) => {
            if (e.target.value) actions.witnessLoaded(e.target.value);
          }}
        >
          <option value="">Load a witness…</option>
          {sc.witnesses.map((w) => (
            <option key={w.name} value={w.name}>
              {w.name}
            </option>
          ))}
        </select>
      </div>
      <p className="scenario-summary">
        {sc.summary} {sc.reconstruction && <span className="badge">reconstruction</span>}
      </p>
      <fieldset className="params">
        <legend>Parameters</legend>
        {sc.params.map((p) => {
          const value =
            text[p.name] ?? (Array.isArray(p.default) ? p.default.join(',') : String(p.default));
          return (
            <label key={p.name} title={p.description}>
              {p.name}
              {p.kind === 'choice' ? (
                <select
                  value={value}
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
                  size={Math.max(p.kind === 'list' ? 12 : 6, value.length + 1)}
                  onBlur={(e) => {
                    if (e.target.value !== value) actions.paramChanged(p.name, e.target.value);
                  }}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') actions.paramChanged(p.name, e.currentTarget.value);
                  }}
                />
              )}
            </label>
          );
        })}
        {Object.keys(sc.presets).map((name) => (
          <button
            key={name}
            type="button"
            onClick={() => {
              const preset = sc.presets[name];
              if (!preset) return;
              for (const [k, v] of Object.entries(preset.apply(session.params))) {
                actions.paramChanged(k, Array.isArray(v) ? v.join(',') : String(v));
              }
            }}
          >
            Preset: {name}
          </button>
        ))}
      </fieldset>
    </section>
  );
}
