// Live-mode links: #/live/<scenario>?cpus=4&batch=8&irq=1000&mig=0&period=1000
// plus, to replay a schedule from Step mode on the workers, sched=<schedule> and the schedule's
// parameters prefixed with "s." (s.batch=4). Parsing never throws: a bad part is reported and
// left out, so a damaged link still opens what it can.

import type { LiveSettings } from '../live/control.ts';
import { ENGINES, type EngineKind } from '../live/engine/engine.ts';
import { decodePart } from './link.ts';
import { decompressFromEncodedURIComponent } from 'lz-string';
import { SETTING_KEYS } from './liveLinkFormat.ts';
import { linkTooLong, MAX_PROGRAM_CHARS } from './linkLimits.ts';
import { rate, valueOf, wholeNumber } from './linkSchemas.ts';
import { MAX_LIVE_CPUS } from '../live/specs.ts';

const cpusSchema = wholeNumber(1, MAX_LIVE_CPUS);

export interface LiveLink {
  readonly scenario: string;
  readonly cpus: number | null;
  /** Run parameters as text (batch, amounts, variant, threshold). */
  readonly choices: Readonly<Record<string, string>>;
  readonly settings: Partial<LiveSettings>;
  /** engine=interpreted: the interpreter instead of the compiled CPUs. */
  readonly engine: EngineKind | null;
  /** A schedule to replay in lockstep, with its parameter overrides. */
  readonly replay: {
    readonly schedule: string;
    readonly params: Readonly<Record<string, string>>;
  } | null;
  /** A typed program's text (scenario `program`), carried compressed (src=). */
  readonly program: string | null;
  /** What was wrong with the link, for people (empty when nothing). */
  readonly problems: readonly string[];
}

/** A link that opens nothing but the default set-up. */
const EMPTY: LiveLink = {
  scenario: '',
  cpus: null,
  choices: {},
  settings: {},
  engine: null,
  replay: null,
  program: null,
  problems: [],
};

export function parseLiveLink(hash: string): LiveLink | null {
  const m = /^#\/live(?:\/([^?]*))?(?:\?(.*))?$/.exec(hash);
  if (!m) return null;
  const long = linkTooLong(hash);
  if (long) return { ...EMPTY, problems: [long] };
  const problems: string[] = [];
  const scenario = decodePart(m[1] ?? '') ?? '';
  if (scenario === '' && (m[1] ?? '') !== '')
    problems.push("the scenario's name in this link is not valid percent-encoding");
  const q = new URLSearchParams(m[2] ?? '');
  let cpus: number | null = null;
  const choices: Record<string, string> = {};
  const settings: Partial<Record<keyof LiveSettings, number>> = {};
  const sparams: Record<string, string> = {};
  let schedule: string | null = null;
  let engine: EngineKind | null = null;
  let program: string | null = null;
  for (const [key, value] of q) {
    if (key === 'src') {
      let text: string | null = null;
      try {
        text = decompressFromEncodedURIComponent(value);
      } catch {
        text = null;
      }
      if (text && text.length <= MAX_PROGRAM_CHARS) program = text;
      else problems.push('the program in this link is damaged');
      continue;
    }
    if (key === 'cpus') {
      const n = valueOf(cpusSchema, value);
      if (n !== null) cpus = n;
      else problems.push(`cpus must be 1 to ${String(MAX_LIVE_CPUS)}, not '${value}'`);
    } else if (key in SETTING_KEYS) {
      const n = valueOf(rate, value);
      if (n !== null) settings[SETTING_KEYS[key] as keyof LiveSettings] = n;
      else problems.push(`${key} must be a number ≥ 0, not '${value}'`);
    } else if (key === 'engine') {
      engine = ENGINES.find((e) => e === value) ?? null;
      if (!engine) problems.push(`engine must be ${ENGINES.join(' or ')}, not '${value}'`);
    } else if (key === 'sched') schedule = value;
    else if (key.startsWith('s.')) sparams[key.slice(2)] = value;
    else choices[key] = value;
  }
  return {
    scenario,
    cpus,
    choices,
    settings,
    engine,
    replay: schedule === null ? null : { schedule, params: sparams },
    program,
    problems,
  };
}
