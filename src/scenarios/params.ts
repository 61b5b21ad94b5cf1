// Parameter parsing and validation: every bad value gets a message naming the parameter, what
// was given and what is allowed. Used by the CLI (`--set name=value`) and later by the URL hash.

import type { IntParam, ParamSpec, ParamValue, Params, Scenario } from './types.ts';

export class ParamError extends Error {}

/** An integer parameter from `min` to `max`, `dflt` unless set. */
export function intSpec(
  name: string,
  dflt: number,
  [min, max]: readonly [number, number],
  description: string,
): IntParam {
  return { name, kind: 'int', default: dflt, min, max, description };
}

const INT = /^[+-]?\d+$/;

function parseInt32ish(spec: { name: string; min: number; max: number }, text: string): number {
  const t = text.trim();
  if (!INT.test(t)) {
    throw new ParamError(
      `${spec.name} must be an integer from ${spec.min} to ${spec.max}, got '${text}'`,
    );
  }
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < spec.min || n > spec.max) {
    throw new ParamError(`${spec.name} must be from ${spec.min} to ${spec.max}, got ${t}`);
  }
  return n;
}

/** Parses a parameter's text form ("4", "irqsave", "10,31,-5,0"). */
export function parseParamText(spec: ParamSpec, text: string): ParamValue {
  switch (spec.kind) {
    case 'int':
      return parseInt32ish(spec, text);
    case 'choice': {
      if (!spec.choices.includes(text)) {
        throw new ParamError(
          `${spec.name} must be one of ${spec.choices.join(', ')}; got '${text}'`,
        );
      }
      return text;
    }
    case 'list': {
      const parts = text.trim() === '' ? [] : text.split(',');
      if (parts.length > spec.maxLength) {
        throw new ParamError(
          `${spec.name} takes at most ${spec.maxLength} values, got ${parts.length}`,
        );
      }
      return parts.map((p, i) => parseInt32ish({ ...spec, name: `${spec.name}[${i}]` }, p));
    }
  }
}

function checkValue(spec: ParamSpec, v: ParamValue): ParamValue {
  if (typeof v === 'string') return parseParamText(spec, v);
  if (typeof v === 'number') {
    if (spec.kind !== 'int') throw new ParamError(`${spec.name} is not a number parameter`);
    return parseParamText(spec, String(v));
  }
  if (spec.kind !== 'list') throw new ParamError(`${spec.name} is not a list parameter`);
  return parseParamText(spec, v.join(','));
}

/**
 * The full parameter set: defaults, then `overrides`, then a preset (if `preset` is given; it
 * sees the overrides, so `--set cpus=8 --preset kernel` gets the batch for 8 CPUs), then the
 * overrides again (an explicit value beats the preset). Overrides may be text (from the CLI or a
 * URL) or values; unknown names are errors.
 */
export function resolveParams(
  scenario: Scenario,
  overrides: Readonly<Record<string, ParamValue>> = {},
  preset?: string,
): Params {
  const out: Record<string, ParamValue> = {};
  for (const spec of scenario.params) out[spec.name] = spec.default;
  const applyOverrides = () => {
    for (const [name, value] of Object.entries(overrides)) {
      const spec = scenario.params.find((p) => p.name === name);
      if (!spec) {
        const names = scenario.params.map((p) => p.name).join(', ');
        throw new ParamError(`${scenario.id} has no parameter '${name}'; its parameters: ${names}`);
      }
      out[name] = checkValue(spec, value);
    }
  };
  applyOverrides();
  if (preset !== undefined) {
    const chosen = scenario.presets[preset];
    if (!chosen) {
      const names = Object.keys(scenario.presets);
      throw new ParamError(
        `${scenario.id} has no preset '${preset}'${names.length ? `; presets: ${names.join(', ')}` : ''}`,
      );
    }
    Object.assign(out, chosen.apply(out));
    applyOverrides();
  }
  return out;
}

/** Splits "name=value" (as given to --set). */
export function splitAssignment(text: string): [string, string] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new ParamError(`--set takes name=value, got '${text}'`);
  return [text.slice(0, eq).trim(), text.slice(eq + 1)];
}

/** Typed accessors: the scenario's own code knows the kinds of its parameters. */
export function intParam(p: Params, name: string): number {
  const v = p[name];
  if (typeof v !== 'number') throw new ParamError(`parameter ${name} is missing or not an integer`);
  return v;
}

export function choiceParam(p: Params, name: string): string {
  const v = p[name];
  if (typeof v !== 'string') throw new ParamError(`parameter ${name} is missing or not a choice`);
  return v;
}

export function listParam(p: Params, name: string): readonly number[] {
  const v = p[name];
  if (!Array.isArray(v)) throw new ParamError(`parameter ${name} is missing or not a list`);
  return v as readonly number[];
}

/** A parameter value as text ("4", "irqsave", "10,31,-5,0"), as links, forms and --set carry it. */
/** A parameter's range in words: "1 to 16", "one of sc, tso", "up to 4 values, each 0 to 1000". */
export function paramRange(spec: ParamSpec): string {
  // Bounds past 32 bits are "any": nobody reads 9007199254740991 as a limit.
  const n = (v: number) => (Math.abs(v) >= 2 ** 31 ? null : v.toLocaleString('en'));
  const span = (min: number, max: number) => {
    const [lo, hi] = [n(min), n(max)];
    if (lo === null && hi === null) return 'any whole number';
    return `${lo ?? 'any'} to ${hi ?? 'any'}`;
  };
  switch (spec.kind) {
    case 'int':
      return span(spec.min, spec.max);
    case 'choice':
      return `one of ${spec.choices.join(', ')}`;
    case 'list':
      return `up to ${String(spec.maxLength)} values, each ${span(spec.min, spec.max)}`;
  }
}

export function paramValueText(v: ParamValue): string {
  return Array.isArray(v) ? v.join(',') : String(v);
}

/**
 * Parameters as text, by name. Given the scenario, only those that differ from its defaults, in
 * its order (what a link needs); otherwise all of them.
 */
export function paramsText(p: Params, sc?: Scenario): Record<string, string> {
  const out: Record<string, string> = {};
  if (!sc) {
    for (const [name, v] of Object.entries(p)) out[name] = paramValueText(v);
    return out;
  }
  for (const spec of sc.params) {
    const v = p[spec.name];
    if (v === undefined) continue;
    const text = paramValueText(v);
    if (text !== paramValueText(spec.default)) out[spec.name] = text;
  }
  return out;
}
