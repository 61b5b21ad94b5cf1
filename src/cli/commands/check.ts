// `lab check <file>`: a program with a final condition, answered as herd7 answers (the states,
// Ok or No, the witnesses, `Observation <name> Never|Sometimes|Always`) under a memory model it
// names. A herd7 litmus file (`C name` first) answers under the kernel's own model, lkmm, unless
// --memory says sc or tso, which the explorer answers.

import {
  AxiomaticRefusal,
  type AxiomaticResult,
  checkLkmm,
  checkUnder,
} from '../../axiomatic/check.ts';
import { herdOf } from '../../axiomatic/herd.ts';
import { Tag } from '../../machine/tags.ts';
import { compileProgram } from '../../lang/compile.ts';
import type { CompiledProgram } from '../../lang/compiled.ts';
import { explore } from '../../explore/explore.ts';
import { DEFAULT_MAX_MEMORY_MB } from '../../explore/limits.ts';
import { exploredEnds } from '../../explore/herd.ts';
import { type EndState, herdAnswer, type HerdAnswer, herdLine } from '../../lang/herdAnswer.ts';
import { herdHash } from '../../lang/herdHash.ts';
import { isLitmusText } from '../../lang/litmusText.ts';
import { isAxiomatic } from '../../scenarios/textScenario.ts';
import { intOption, paramsArg, parseCommand, programArg } from '../args.ts';
import { UsageError } from '../errors.ts';
import { toJson } from '../json.ts';

function withHash(source: string): { hash?: string } {
  const hash = isLitmusText(source) ? herdHash(source) : null;
  return hash === null ? {} : { hash };
}

/** What `lab check` answers for a program: herd7's verdict, and whether the search was whole. */
export interface CheckAnswer {
  readonly answer: HerdAnswer;
  readonly complete: boolean;
  readonly stopped: string | null;
}

/**
 * Answers a program file's condition under `memory` (by default lkmm for a herd7 litmus file,
 * sc for the lab's own programs); throws UsageError with the reason when it cannot.
 */
export function checkProgram(path: string, options: CheckOptions = {}): CheckAnswer {
  const { scenario: sc, source } = programArg(path);
  const memory = options.memory ?? (isLitmusText(source) ? 'lkmm' : 'sc');
  const params = paramsArg(sc, options.set, undefined, memory);
  const program = sc.program?.(params);
  if (!program) throw new UsageError(`${path} is not a program`);
  if (!program.clauses.condition)
    throw new UsageError(
      `${path} has no final condition: add one, as \`exists (0:r0=0 /\\ 1:r0=0)\` (or use lab explore)`,
    );
  let answer: HerdAnswer | null;
  if (isAxiomatic(params)) {
    let r: AxiomaticResult;
    try {
      r = checkLkmm(program);
    } catch (e) {
      if (e instanceof AxiomaticRefusal)
        throw new UsageError(
          `${path}: the kernel's memory model (lkmm) cannot answer this program: ${e.message}. Try --memory sc or --memory tso.`,
        );
      throw e;
    }
    answer = herdOf(program, r, { seconds: r.ms / 1000, ...withHash(source) });
    return { answer: answer as HerdAnswer, complete: true, stopped: null };
  }
  const { machine } = sc.build(params);
  const r = explore(
    sc,
    params,
    { ...sc.bounds, switches: Infinity },
    { maxMemoryMB: options.maxMemoryMB ?? DEFAULT_MAX_MEMORY_MB },
  );
  const model = machine.tso ? 'tso' : 'sc';
  const ends = exploredEnds(machine, r);
  const shown = { model, seconds: r.stats.ms / 1000, ...withHash(source) } as const;
  answer = herdAnswer(program, ends, 'states', shown);
  // herd7 counts executions: where the axiomatic engine can judge this program under the same
  // model and reaches the same end states, its executions are the counts.
  const counted = r.complete && answer ? executionsUnder(model, source, answer.states) : null;
  if (counted) answer = herdAnswer(counted.program, counted.ends, 'executions', shown);
  return { answer: answer as HerdAnswer, complete: r.complete, stopped: r.stopped };
}

/**
 * The consistent executions of a program under sc or tso, judged axiomatically, when they reach
 * exactly `states` (the explorer's); null where the engine cannot take the program (RCU's grace
 * periods are the machine's own under sc and tso, interrupts, several threads on a CPU…).
 */
function executionsUnder(
  model: 'sc' | 'tso',
  source: string,
  states: readonly string[],
): { program: CompiledProgram; ends: EndState[] } | null {
  const c = compileProgram(source, { memory: 'lkmm' });
  if (!c.ok) return null;
  const rcu =
    Tag.RcuLock | Tag.RcuUnlock | Tag.SyncRcu | Tag.SrcuLock | Tag.SrcuUnlock | Tag.SyncSrcu;
  if (c.program.machine.programs.some((p) => p.instrs.some((i) => (i.tag & rcu) !== 0)))
    return null;
  let r: AxiomaticResult;
  try {
    r = checkUnder(model, c.program);
  } catch (e) {
    if (e instanceof AxiomaticRefusal) return null;
    throw e;
  }
  const ends = r.states.map((s) => ({ state: s.state, count: s.executions }));
  const lines = new Set(ends.map((e) => herdLine(c.program, e.state).line));
  if (lines.size !== states.length || !states.every((s) => lines.has(s))) return null;
  return { program: c.program, ends };
}

export interface CheckOptions {
  readonly memory?: string;
  readonly set?: readonly string[];
  readonly maxMemoryMB?: number;
}

export function checkCommand(argv: readonly string[]): string {
  const { values, positionals } = parseCommand(
    argv,
    {
      set: { type: 'string', multiple: true },
      memory: { type: 'string' },
      json: { type: 'boolean' },
      'max-memory': { type: 'string' },
    },
    { positionals: 1 },
  );
  const path = positionals[0];
  if (path === undefined) throw new UsageError('missing program file: lab check test.litmus');
  const { answer, complete, stopped } = checkProgram(path, {
    ...(values.memory === undefined ? {} : { memory: values.memory }),
    ...(values.set === undefined ? {} : { set: values.set }),
    maxMemoryMB: intOption('max-memory', values['max-memory'], DEFAULT_MAX_MEMORY_MB, 65_536),
  });
  const incomplete = complete
    ? null
    : `INCOMPLETE: ${stopped ?? 'stopped'}: more end states may exist`;
  if (values.json) return toJson({ ...answer, complete, stopped, text: undefined });
  return incomplete ? `${answer.text}\n${incomplete}` : answer.text;
}
