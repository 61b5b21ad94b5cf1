// `lab replay <id> "<schedule>"`: run a schedule step by step and report every step's narration
// and the final observables with their verdicts. `--witness NAME` replays a stored witness.

import { kindNames } from '../../machine/isa.ts';
import { contextName } from '../../machine/machine.ts';
import { replay, ReplayError } from '../../machine/replay.ts';
import {
  formatSchedule,
  parseScheduleWithOffsets,
  ScheduleSyntaxError,
} from '../../machine/schedule.ts';
import { judgeRun, violationMoment } from '../../scenarios/judge.ts';
import { jsonObservables, observableText, shownObservables } from '../../scenarios/outcome.ts';
import type { Params } from '../../scenarios/types.ts';
import {
  memoryChosen,
  modelOf,
  paramsArg,
  parseCommand,
  refuseLkmm,
  scenarioArg,
  scenarioOptions,
} from '../args.ts';
import { didYouMean } from '../suggest.ts';
import { UsageError } from '../errors.ts';
import { toJson } from '../json.ts';
import { shownName } from '../../scenarios/program.ts';

export function replayCommand(argv: readonly string[]): string {
  const { values, positionals } = parseCommand(argv, {
    ...scenarioOptions,
    witness: { type: 'string' },
  });
  const sc = scenarioArg(positionals[0]);
  let text = positionals[1];
  let params: Params;
  if (values.witness !== undefined) {
    const w = sc.witnesses.find((x) => x.name === values.witness);
    if (!w) {
      const names = sc.witnesses.map((x) => x.name).join(', ');
      throw new UsageError(
        `${sc.id} has no witness '${values.witness}'${didYouMean(
          values.witness,
          sc.witnesses.map((x) => x.name),
        )}; its witnesses: ${names}`,
      );
    }
    if (text !== undefined) throw new UsageError('give either a schedule or --witness, not both');
    text = w.schedule;
    const sets = Object.entries(w.params).map(
      ([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`,
    );
    params = paramsArg(sc, [...sets, ...(values.set ?? [])], values.preset, values.memory);
  } else {
    if (text === undefined) throw new UsageError(`missing schedule: lab replay ${sc.id} "0 1 0 1"`);
    params = paramsArg(sc, values.set, values.preset, values.memory);
  }
  refuseLkmm(sc, params, memoryChosen(values.memory, values.set), 'replay');
  if (positionals.length > 2) {
    throw new UsageError(
      `unexpected argument '${positionals[2]}': quote the schedule as one argument`,
    );
  }

  let parsed: { events: number[]; offsets: number[] };
  try {
    parsed = parseScheduleWithOffsets(text);
  } catch (e) {
    if (e instanceof ScheduleSyntaxError) throw new UsageError(e.message, e.position);
    throw e;
  }
  const { machine } = sc.build(params);
  let result: ReturnType<typeof replay>;
  try {
    result = replay(machine, parsed.events);
  } catch (e) {
    if (e instanceof ReplayError) {
      const at = parsed.offsets[e.index] ?? 0;
      throw new UsageError(`schedule, column ${at + 1}: ${e.message}`, at);
    }
    throw e;
  }
  const { steps, states } = result;
  const { terminal, observables, violations } = judgeRun(sc, machine, states, params);

  const doc = {
    scenario: sc.id,
    memory: modelOf(params),
    params,
    schedule: formatSchedule(parsed.events),
    steps: steps.map((st) => ({
      index: st.index,
      step: st.index + 1,
      event: st.event,
      cpu: st.cpu,
      context: st.ctx >= 0 ? contextName(machine, st.ctx) : null,
      line: st.line,
      kind: kindNames[st.kind] ?? 'plain',
      narration: st.text,
    })),
    final: { terminal, observables: jsonObservables(observables), violations },
  };
  if (values.json) return toJson(doc);

  const out: string[] = [`${shownName(sc)} under ${doc.memory}: ${doc.schedule}`];
  for (const st of doc.steps) {
    const line = st.line ? `  [line ${st.line}]` : '';
    out.push(`${String(st.step).padStart(4)}  ${st.event.padEnd(7)} ${st.narration}${line}`);
  }
  out.push('', terminal ? 'Final state:' : 'State after the schedule (not finished):');
  for (const [k, v] of Object.entries(shownObservables(sc, params, observables)))
    out.push(`  ${k} = ${observableText(v)}`);
  if (violations.length === 0)
    out.push(terminal ? 'Every invariant holds.' : 'No always-invariant broken so far.');
  for (const v of violations) out.push(`  VIOLATED ${violationMoment(v)}: ${v.reason}`);
  return out.join('\n');
}
