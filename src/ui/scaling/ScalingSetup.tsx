import { useId, useState } from 'react';
import { SelectField } from '../SelectField.tsx';
import { ENGINES, TIERS } from '../../live/engine/engine.ts';
import { liveSpecOf } from '../../live/specs.ts';
import {
  choiceOf,
  parseCpuCounts,
  pickedBy,
  type Summer,
  type SweepPlan,
  scalingScenarios,
} from '../../live/scaling/plan.ts';
import type { SlotLayout } from '../../live/memory.ts';
import { scalingStore, useScaling } from './useScaling.ts';

/** What a sweep measures. Fixed while it runs. */
export function ScalingSetup({ cores }: { cores: number }) {
  const id = useId();
  const plan = useScaling((s) => s.plan);
  const running = useScaling((s) => s.phase === 'running');
  const planErrors = useScaling((s) => s.planErrors);
  const change = (patch: Partial<SweepPlan>) => {
    scalingStore.getState().planChanged(patch);
  };
  // What the user is typing, until the field loses focus; otherwise the plan's counts (a link
  // opened later may change them).
  const [cpusDraft, setCpusDraft] = useState<string | null>(null);
  // What is wrong with the text typed (derived from it; the store blocks the sweep meanwhile).
  const draftProblem = cpusDraft === null ? null : parseCpuCounts(cpusDraft).problem;
  const [period, setPeriod] = useState(
    String(plan.summers.find((s): s is number => typeof s === 'number') ?? 1000),
  );
  const toggle = <T,>(list: readonly T[], v: T, on: boolean) =>
    on ? [...list.filter((x) => x !== v), v] : list.filter((x) => x !== v);
  const layoutValue = choiceOf(plan.layouts, 'padded');
  const periodic = plan.summers.some((s) => typeof s === 'number');
  const setSummers = (none: boolean, periodicOn: boolean, busy: boolean, p = Number(period)) => {
    const summers: Summer[] = [];
    if (none) summers.push('none');
    if (periodicOn) summers.push(p);
    if (busy) summers.push('busy');
    change({ summers });
  };
  return (
    <fieldset className="scaling-setup" disabled={running}>
      <legend>Sweep</legend>
      <p className="hint" aria-label="Memory model">
        Memory model: the hardware&rsquo;s own. The sweep runs on real cores (x86 is TSO), so it has
        no <code>memory</code> choice; a store buffer&rsquo;s cost is in every figure already.
      </p>
      <fieldset className="algorithms">
        <legend>Algorithms</legend>
        {scalingScenarios().map((s) => (
          <span key={s} className="check">
            <label>
              <input
                type="checkbox"
                checked={plan.scenarios.includes(s)}
                aria-describedby={`${id}-${s}`}
                onChange={(e) => {
                  change({ scenarios: sortLike(toggle(plan.scenarios, s, e.target.checked)) });
                }}
              />{' '}
              <code>{s}</code>
            </label>{' '}
            <span id={`${id}-${s}`} className="hint">
              {liveSpecOf(s)?.operation}
            </span>
          </span>
        ))}
      </fieldset>
      <div className="row">
        <label htmlFor={`${id}-cpus`}>CPU counts</label>
        <input
          id={`${id}-cpus`}
          type="text"
          inputMode="numeric"
          value={cpusDraft ?? plan.cpus.join(',')}
          aria-invalid={draftProblem !== null}
          onBlur={() => {
            // The text stays as typed while it is wrong, so the message can name what is wrong.
            if (draftProblem === null) setCpusDraft(null);
          }}
          aria-describedby={`${id}-cpus-d${draftProblem ? ` ${id}-cpus-e` : ''}`}
          onChange={(e) => {
            setCpusDraft(e.target.value);
            scalingStore.getState().cpusTyped(e.target.value);
          }}
        />
        {draftProblem && (
          <span id={`${id}-cpus-e`} className="field-error">
            {draftProblem}
          </span>
        )}
        <span id={`${id}-cpus-d`} className="hint">
          comma-separated, e.g. 1,2,4; this machine has {cores} cores, and more CPUs than cores take
          turns on them
        </span>
      </div>
      <div className="row" role="radiogroup" aria-label="Slots">
        <span className="label">Slots</span>
        {(['padded', 'packed', 'both'] as const).map((v) => (
          <label key={v} className="check">
            <input
              type="radio"
              name={`${id}-layout`}
              checked={layoutValue === v}
              onChange={() => {
                const layouts: SlotLayout[] = v === 'both' ? ['padded', 'packed'] : [v];
                change({ layouts });
              }}
            />{' '}
            {v === 'padded'
              ? 'padded to 64 bytes'
              : v === 'packed'
                ? 'packed (false sharing)'
                : 'both'}
          </label>
        ))}
      </div>
      <div className="row" role="group" aria-label="Summer">
        <span className="label">Summer</span>
        <label className="check">
          <input
            type="checkbox"
            checked={plan.summers.includes('none')}
            onChange={(e) => {
              setSummers(e.target.checked, periodic, plan.summers.includes('busy'));
            }}
          />{' '}
          none
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={periodic}
            onChange={(e) => {
              setSummers(
                plan.summers.includes('none'),
                e.target.checked,
                plan.summers.includes('busy'),
              );
            }}
          />{' '}
          every
        </label>
        <input
          type="number"
          min={1}
          aria-label="Summer period in µs"
          value={period}
          onChange={(e) => {
            setPeriod(e.target.value);
            if (periodic)
              setSummers(
                plan.summers.includes('none'),
                true,
                plan.summers.includes('busy'),
                Number(e.target.value),
              );
          }}
        />{' '}
        µs
        <label className="check">
          <input
            type="checkbox"
            checked={plan.summers.includes('busy')}
            onChange={(e) => {
              setSummers(plan.summers.includes('none'), periodic, e.target.checked);
            }}
          />{' '}
          busy (sums back to back)
        </label>
      </div>
      <div className="row">
        {TIMING.map(({ key, label, step }) => (
          <NumberField
            key={key}
            label={label}
            value={plan[key]}
            step={step}
            onChange={(v) => {
              change({ [key]: v });
            }}
          />
        ))}
      </div>
      <div className="row">
        <SelectField
          label="Engine"
          value={choiceOf(plan.engines, 'compiled')}
          onPick={(v) => {
            change({ engines: pickedBy(v, ENGINES) });
          }}
        >
          <option value="compiled">compiled to WebAssembly</option>
          <option value="interpreted">interpreted (the model&rsquo;s own step)</option>
          <option value="both">both, to compare</option>
        </SelectField>
        <SelectField
          label="Tier"
          value={choiceOf(plan.tiers, 'bare')}
          onPick={(v) => {
            change({ tiers: pickedBy(v, TIERS) });
          }}
        >
          <option value="bare">bare: the algorithm&rsquo;s own instructions</option>
          <option value="exact">exact: as Live runs with events (step budget, tally)</option>
          <option value="both">both, to compare</option>
        </SelectField>
        <label htmlFor={`${id}-preset`}>Parameters</label>
        <select
          id={`${id}-preset`}
          value={plan.preset}
          onChange={(e) => {
            change({ preset: e.target.value === 'teaching' ? 'teaching' : 'kernel' });
          }}
        >
          <option value="kernel">the kernel&rsquo;s: batch max(32, 2 × CPUs), threshold 16</option>
          <option value="teaching">the lab&rsquo;s small defaults (batch 4)</option>
        </select>
      </div>
      {/* Every field's problem at once; the CPU counts' own is beside that field. */}
      {planErrors.some((e) => e !== draftProblem) && (
        <ul role="alert" aria-label="What to fix before a sweep" className="notice">
          {planErrors
            .filter((e) => e !== draftProblem)
            .map((e) => (
              <li key={e}>{e}</li>
            ))}
        </ul>
      )}
    </fieldset>
  );
}

/** The plan's timing fields, in the order the form shows them. */
const TIMING = [
  { key: 'seconds', label: 'Seconds per run', step: 0.25 },
  { key: 'warmupSeconds', label: 'Warm-up seconds', step: 0.05 },
  { key: 'repeat', label: 'Runs each', step: 1 },
] as const;

function sortLike(ids: readonly string[]): string[] {
  const order = scalingScenarios();
  return [...ids].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

function NumberField({
  label,
  value,
  step,
  onChange,
}: {
  label: string;
  value: number;
  step: number;
  onChange: (v: number) => void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        step={step}
        min={0}
        value={value}
        onChange={(e) => {
          onChange(Number(e.target.value));
        }}
      />
    </>
  );
}
