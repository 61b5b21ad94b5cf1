import { useId } from 'react';
import { SelectField } from '../SelectField.tsx';
import { liveScenarios } from '../../live/liveParams.ts';
import { liveSpecOf, MAX_LIVE_CPUS } from '../../live/specs.ts';
import { catalogue, findScenario } from '../../scenarios/index.ts';
import type { ParamSpec } from '../../scenarios/types.ts';
import { PROGRAM_ID } from '../../scenarios/program.ts';
import { runBusy } from '../../store/liveStore.ts';
import { ScenarioPicker } from '../ScenarioPicker.tsx';
import { liveStore, useLive, useLiveFields } from './useLive.ts';

/** The run's shape: scenario, CPUs and the scenario's parameters. Fixed while the CPUs run. */
export function LiveSetup({ cores }: { cores: number }) {
  const id = useId();
  const { scenario, cpus, choices, engine, phase, paramError } = useLiveFields(
    'scenario',
    'cpus',
    'choices',
    'engine',
    'phase',
    'paramError',
  );
  const replaying = useLive((s) => s.lockstep.busy);
  const busy = runBusy(phase) || replaying;
  const sc = findScenario(scenario);
  const program = findScenario(PROGRAM_ID);
  const spec = liveSpecOf(scenario);
  const actions = liveStore.getState();
  // Choices a link brought that have no field here: said, so the run is not a surprise.
  const hidden = Object.entries(choices).filter(([k]) => !(spec?.controls ?? []).includes(k));
  const params = (spec?.controls ?? [])
    .map((name) => sc?.params.find((p) => p.name === name))
    .filter((p): p is ParamSpec => p !== undefined);
  return (
    <fieldset className="live-setup" disabled={busy}>
      <legend>Machine</legend>
      <div className="row">
        <ScenarioPicker
          current={scenario}
          groups={[
            { label: 'Run live', scenarios: liveScenarios() },
            // The typed program this page has open, when it runs live.
            ...(program && liveSpecOf(PROGRAM_ID)
              ? [{ label: program.group, scenarios: [program] }]
              : []),
            {
              label: 'Lockstep replay only',
              scenarios: catalogue.filter((c) => !liveSpecOf(c.id)),
            },
          ]}
          onOpen={(chosen) => {
            actions.scenarioChosen(chosen);
          }}
        />
      </div>
      {spec && (
        <>
          <div className="row">
            <label htmlFor={`${id}-cpus`}>CPUs (workers)</label>
            <input
              id={`${id}-cpus`}
              type="number"
              min={1}
              max={MAX_LIVE_CPUS}
              value={spec.fixedCpus ?? cpus}
              disabled={spec.fixedCpus !== null}
              aria-describedby={`${id}-cores`}
              onChange={(e) => {
                actions.cpusChanged(Number(e.target.value));
              }}
            />
            <span id={`${id}-cores`} className="hint">
              {spec.fixedCpus != null
                ? `this scenario runs on ${String(spec.fixedCpus)} CPU${spec.fixedCpus > 1 ? 's' : ''}`
                : `this machine has ${String(cores)} cores; ${String(Math.max(1, cores - 1))} leaves one for the page`}
            </span>
          </div>
          {(spec.fixedCpus ?? cpus) > cores && (
            <p className="notice" role="note">
              {spec.fixedCpus ?? cpus} CPUs on {cores} cores: the workers take turns on the cores,
              so fewer of them run at the same moment (races are rarer than on real CPUs) and each
              runs part of the time.
            </p>
          )}
          <div className="row">
            <SelectField
              label="Engine"
              value={engine}
              describedBy={`${id}-engine-d`}
              onPick={(v) => {
                actions.engineChanged(v === 'interpreted' ? 'interpreted' : 'compiled');
              }}
            >
              <option value="compiled">compiled to WebAssembly</option>
              <option value="interpreted">interpreted (the model&rsquo;s own step)</option>
            </SelectField>
            <span id={`${id}-engine-d`} className="hint">
              the same programs either way; compiled runs them tens of times faster
            </span>
          </div>
          <p className="hint" aria-label="Memory model">
            Memory model: the hardware&rsquo;s own. These are real cores (x86 is TSO), so a free run
            has no <code>memory</code> choice; a lockstep replay below runs the model&rsquo;s, store
            buffers included.
          </p>
          {params.map((p) => (
            <ParamField
              key={`${scenario}-${p.name}`}
              spec={p}
              text={choices[p.name]}
              onChange={(text) => {
                actions.choiceChanged(p.name, text);
              }}
            />
          ))}
          {hidden.length > 0 && (
            <p className="hint" aria-label="Also set">
              Also set, by the link (Step mode&rsquo;s machine):{' '}
              {hidden.map(([k, v], i) => (
                <span key={k}>
                  {i > 0 && ', '}
                  <code>
                    {k} = {v}
                  </code>
                </span>
              ))}
              .{' '}
              <button
                type="button"
                onClick={() => {
                  actions.extraChoicesCleared();
                }}
              >
                Use the defaults
              </button>
            </p>
          )}
          {paramError && (
            <p role="alert" className="notice">
              {paramError}
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}

function ParamField({
  spec,
  text,
  onChange,
}: {
  spec: ParamSpec;
  text: string | undefined;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const def = Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default);
  const value = text ?? def;
  return (
    <div className="row">
      <label htmlFor={id}>{spec.name}</label>
      {spec.kind === 'choice' ? (
        <select
          id={id}
          value={value}
          onChange={(e) => {
            onChange(e.target.value);
          }}
        >
          {spec.choices.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type="text"
          inputMode={spec.kind === 'int' ? 'numeric' : 'text'}
          value={value}
          aria-describedby={`${id}-d`}
          onChange={(e) => {
            onChange(e.target.value);
          }}
        />
      )}
      <span id={`${id}-d`} className="hint">
        {spec.description}
      </span>
    </div>
  );
}
