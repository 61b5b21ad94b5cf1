import { useId, useState } from 'react';
import { type LiveSettings, MAX_HOTPLUG_RATE } from '../../live/control.ts';
import { liveSpecOf } from '../../live/specs.ts';
import { loadOf } from '../../live/load.ts';
import { CORES } from '../cores.ts';
import { findScenario } from '../../scenarios/index.ts';
import { liveStore, useLive } from './useLive.ts';

/**
 * Interference the CPUs see: IRQ, NMI, migration and (in a program with CPU hotplug) hotplug
 * rates, the summer's period. Live while running.
 */
export function LiveRates() {
  const settings = useLive((s) => s.settings);
  const scenario = useLive((s) => s.scenario);
  const cpus = useLive((s) => s.cpus);
  const load = loadOf(cpus, CORES, settings);
  const sc = findScenario(scenario);
  const spec = liveSpecOf(scenario);
  const hasIrq = sc ? sc.handlers.some((h) => h.startsWith('IRQ')) : false;
  const hasNmi = sc ? sc.handlers.some((h) => h.startsWith('NMI')) : false;
  const fields: { name: keyof LiveSettings; label: string; max: number; shown: boolean }[] = [
    { name: 'irqRate', label: 'IRQs per second, per CPU', max: 1_000_000, shown: hasIrq },
    { name: 'nmiRate', label: 'NMIs per second, per CPU', max: 1_000_000, shown: hasNmi },
    { name: 'migrationRate', label: 'Migrations per second, per CPU', max: 1_000_000, shown: true },
    {
      name: 'hotplugRate',
      label: 'CPU hotplug events per second, per CPU with dead callbacks (offline, then online)',
      max: MAX_HOTPLUG_RATE,
      shown: spec?.hotplug === true,
    },
    {
      name: 'periodUs',
      label: 'Summer period (µs between sum() calls; 0: busy)',
      max: 10_000_000,
      shown: spec?.hasSummer === true,
    },
  ];
  return (
    <fieldset className="live-rates">
      <legend>Interference (changes apply while running)</legend>
      {fields
        .filter((f) => f.shown)
        .map((f) => (
          <RateField
            key={f.name}
            label={f.label}
            value={settings[f.name]}
            max={f.max}
            onChange={(v) => {
              liveStore.getState().settingChanged(f.name, v);
            }}
          />
        ))}
      {load.warning && (
        <p role="status" aria-label="Load on the cores" className="notice">
          {load.warning} The watchdog waits {Math.round(load.silenceMs / 1000)} s before it calls a
          CPU unresponsive.
        </p>
      )}
    </fieldset>
  );
}

function RateField({
  label,
  value,
  max,
  onChange,
}: {
  label: string;
  value: number;
  max: number;
  onChange: (v: number) => void;
}) {
  const id = useId();
  // What was typed beyond the range: the field keeps the nearest allowed value and says so.
  const [clamped, setClamped] = useState<string | null>(null);
  return (
    <div className="row">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={0}
        max={max}
        value={value}
        aria-describedby={`${id}-r`}
        onChange={(e) => {
          const v = Number(e.target.value);
          if (e.target.value === '' || !Number.isFinite(v)) return;
          const kept = Math.min(max, Math.max(0, v));
          setClamped(
            kept === v
              ? null
              : `${e.target.value} is out of range: ${kept.toLocaleString('en')} is used`,
          );
          onChange(kept);
        }}
      />
      <span id={`${id}-r`} className="hint">
        0 to {max.toLocaleString('en')}
        {clamped && <span className="field-error">{clamped}</span>}
      </span>
    </div>
  );
}
