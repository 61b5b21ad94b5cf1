// Shared option parsing for the commands: scenario lookup, --set, --preset, --json.

import { findScenario, catalogue } from '../scenarios/index.ts';
import { ParamError, resolveParams, splitAssignment } from '../scenarios/params.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import { UsageError } from './errors.ts';

/**
 * Runs node:util parseArgs (given as a thunk so each command keeps its typed options) and turns
 * its errors (unknown option, missing value) into usage errors.
 */
export function parseCommand<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    // One line, like every other usage error (Node's "ambiguous argument" message has three).
    const message = e instanceof Error ? e.message : String(e);
    throw new UsageError(message.replace(/\s*\n\s*/g, ' '));
  }
}

/** Options every scenario command takes. */
export const scenarioOptions = {
  set: { type: 'string', multiple: true },
  preset: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** The scenario named by an id, or a UsageError listing the ids. */
export function scenarioArg(id: string | undefined): Scenario {
  if (id === undefined) {
    throw new UsageError(`missing scenario id; one of: ${catalogue.map((s) => s.id).join(', ')}`);
  }
  const sc = findScenario(id);
  if (!sc) {
    throw new UsageError(
      `unknown scenario '${id}'; one of: ${catalogue.map((s) => s.id).join(', ')}`,
    );
  }
  return sc;
}

/** Parameters from --preset and repeated --set name=value. */
export function paramsArg(sc: Scenario, sets: readonly string[] = [], preset?: string): Params {
  try {
    const overrides: Record<string, string> = {};
    for (const s of sets) {
      const [name, value] = splitAssignment(s);
      overrides[name] = value;
    }
    return resolveParams(sc, overrides, preset);
  } catch (e) {
    if (e instanceof ParamError) throw new UsageError(e.message);
    throw e;
  }
}

/** A non-negative integer option. */
export function intOption(
  name: string,
  text: string | undefined,
  fallback: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max) {
    throw new UsageError(`--${name} takes an integer from 0 to ${max}, got '${text}'`);
  }
  return Number(text);
}
