// Scaling links: #/scaling?scenarios=global-atomic,percpu-classic&cpus=1,2&layout=both
// &summer=none,busy&seconds=1&warmup=0.25&repeat=3&engine=compiled&preset=kernel. Parsing never
// throws: a bad part is reported and left out (the default stays), so a damaged link still opens.

import { ENGINES, TIERS } from '../live/engine/engine.ts';
import { SLOT_LAYOUTS } from '../live/memory.ts';
import {
  choiceOf,
  defaultPlan,
  parseSummer,
  pickedBy,
  planProblem,
  type Summer,
  summerArg,
  type SweepPlan,
} from '../live/scaling/plan.ts';

import { linkTooLong } from './linkLimits.ts';
import { finiteNumber, valueOf } from './linkSchemas.ts';

export interface ScalingLink {
  readonly plan: SweepPlan;
  readonly problems: readonly string[];
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export function parseScalingLink(hash: string, cores: number): ScalingLink | null {
  const m = /^#\/scaling(?:\?(.*))?$/.exec(hash);
  if (!m) return null;
  const long = linkTooLong(hash);
  if (long) return { plan: defaultPlan(cores), problems: [long] };
  const problems: string[] = [];
  let plan: SweepPlan = defaultPlan(cores);
  /** A number part: its value, or null after reporting it (the plan checks its range). */
  const num = (key: string, value: string) => {
    const n = valueOf(finiteNumber, value);
    if (n === null) problems.push(`${key} must be a number, not '${value}'`);
    return n;
  };
  /** Applies one change unless it makes the plan unrunnable (then it is reported, not kept). */
  const take = (key: string, patch: Partial<SweepPlan>) => {
    const next = { ...plan, ...patch };
    const why = planProblem(next);
    if (why) problems.push(`${key}: ${why}`);
    else plan = next;
  };
  for (const [key, value] of new URLSearchParams(m[1] ?? '')) {
    /** A "one or both" part: what it picks from `all`, or a problem that names the choices. */
    const pick = <T extends string>(all: readonly T[], then: (picked: T[]) => void) => {
      const picked = pickedBy(value, all);
      if (picked.length === 0)
        problems.push(`${key} must be ${all.join(', ')} or both, not '${value}'`);
      else then(picked);
    };
    switch (key) {
      case 'scenarios':
        take(key, { scenarios: list(value) });
        break;
      case 'cpus': {
        const cpus = list(value).map((c) => valueOf(finiteNumber, c));
        if (cpus.some((c) => c === null) || cpus.length === 0)
          problems.push(`cpus must be a list of CPU counts such as 1,2,4, not '${value}'`);
        else take(key, { cpus: cpus as number[] });
        break;
      }
      case 'layout':
        pick(SLOT_LAYOUTS, (layouts) => {
          take(key, { layouts });
        });
        break;
      case 'summer': {
        const summers = list(value).map(parseSummer);
        if (summers.some((s) => s === null))
          problems.push(`summer takes none, busy or a period in µs, not '${value}'`);
        else take(key, { summers: summers as Summer[] });
        break;
      }
      case 'seconds': {
        const n = num(key, value);
        if (n !== null) take(key, { seconds: n });
        break;
      }
      case 'warmup': {
        const n = num(key, value);
        if (n !== null) take(key, { warmupSeconds: n });
        break;
      }
      case 'repeat': {
        const n = num(key, value);
        if (n !== null) take(key, { repeat: n });
        break;
      }
      case 'engine':
        pick(ENGINES, (engines) => {
          take(key, { engines });
        });
        break;
      case 'tier':
        pick(TIERS, (tiers) => {
          take(key, { tiers });
        });
        break;
      case 'preset':
        if (value === 'kernel' || value === 'teaching') take(key, { preset: value });
        else problems.push(`preset must be kernel or teaching, not '${value}'`);
        break;
      default:
        problems.push(`unknown part '${key}'`);
    }
  }
  return { plan, problems };
}

/** The link that reopens a plan (only what differs from this machine's default). */
export function formatScalingLink(plan: SweepPlan, cores: number): string {
  const d = defaultPlan(cores);
  const q = new URLSearchParams();
  const same = <T>(a: readonly T[], b: readonly T[]) =>
    a.length === b.length && a.every((x, i) => x === b[i]);
  if (!same(plan.scenarios, d.scenarios)) q.set('scenarios', plan.scenarios.join(','));
  if (!same(plan.cpus, d.cpus)) q.set('cpus', plan.cpus.join(','));
  if (!same(plan.layouts, d.layouts)) q.set('layout', choiceOf(plan.layouts, 'padded'));
  if (!same(plan.summers, d.summers)) q.set('summer', plan.summers.map(summerArg).join(','));
  if (plan.seconds !== d.seconds) q.set('seconds', String(plan.seconds));
  if (plan.warmupSeconds !== d.warmupSeconds) q.set('warmup', String(plan.warmupSeconds));
  if (plan.repeat !== d.repeat) q.set('repeat', String(plan.repeat));
  if (!same(plan.engines, d.engines)) q.set('engine', choiceOf(plan.engines, 'compiled'));
  if (!same(plan.tiers, d.tiers)) q.set('tier', choiceOf(plan.tiers, 'bare'));
  if (plan.preset !== d.preset) q.set('preset', plan.preset);
  const query = q.toString();
  return `#/scaling${query ? `?${query}` : ''}`;
}
