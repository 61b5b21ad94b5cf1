// `lab export <id|file> [--format lab|litmus|promela]`: a scenario or a program as text. The
// lab's own format carries everything; `litmus` writes a program that stays inside herd7's litmus
// C as a file herd7 accepts, and refuses one that does not, naming the extension; `promela`
// writes the explorer's question at its bounds as a model for SPIN (docs/spin.md), and refuses
// what it cannot write faithfully, saying what.

import { compileProgram } from '../../lang/compile.ts';
import { toLitmus } from '../../lang/herd7.ts';
import { formatError, LangFault, LineMap } from '../../lang/source.ts';
import { programText } from '../../scenarios/text.ts';
import { promelaModel, PromelaRefusal } from '../../explore/promela/model.ts';
import { LIMITS } from '../../lang/module.ts';
import type { Scenario } from '../../scenarios/types.ts';
import {
  intOption,
  isProgramPath,
  memoryChosen,
  refuseLkmm,
  paramsArg,
  parseCommand,
  programArg,
  scenarioArg,
} from '../args.ts';
import { UsageError } from '../errors.ts';

export function exportCommand(argv: readonly string[]): string {
  const { values, positionals } = parseCommand(
    argv,
    {
      set: { type: 'string', multiple: true },
      preset: { type: 'string' },
      format: { type: 'string' },
      memory: { type: 'string' },
      irqs: { type: 'string' },
      nmis: { type: 'string' },
      preemptions: { type: 'string' },
      migrations: { type: 'string' },
      switches: { type: 'string' },
    },
    { positionals: 1 },
  );
  const format = values.format ?? 'lab';
  if (format !== 'lab' && format !== 'litmus' && format !== 'promela')
    throw new UsageError(`--format is lab, litmus or promela, not '${format}'`);
  const id = positionals[0];
  if (format === 'promela') return promela(scenarioArg(id), values);
  let source: string;
  let name = id ?? '';
  if (id !== undefined && isProgramPath(id)) source = programArg(id).source;
  else {
    const sc = scenarioArg(id);
    const params = paramsArg(sc, values.set, values.preset);
    source = programText(sc, params);
    name = sc.id;
  }
  if (format === 'lab') return source.replace(/\n$/, '');
  const compiled = compileProgram(source);
  if (!compiled.ok) {
    const map = new LineMap(source);
    throw new UsageError(compiled.errors.map((e) => formatError(map, e, name)).join('\n'));
  }
  try {
    return toLitmus(compiled.program).replace(/\n$/, '');
  } catch (e) {
    if (e instanceof LangFault)
      throw new UsageError(formatError(new LineMap(source), e.toError(), name));
    throw e;
  }
}

/** The explorer's question, at the bounds it would search (the entry's, or the options'). */
function promela(
  sc: Scenario,
  values: {
    set?: string[];
    preset?: string;
    memory?: string;
    irqs?: string;
    nmis?: string;
    preemptions?: string;
    migrations?: string;
    switches?: string;
  },
): string {
  const params = paramsArg(sc, values.set, values.preset, values.memory);
  // A herd7 file answers under lkmm unless told otherwise: said, not switched to sc in silence.
  refuseLkmm(sc, params, memoryChosen(values.memory, values.set), 'promela');
  const bounds = {
    irqs: intOption('irqs', values.irqs, sc.bounds.irqs, LIMITS.bound),
    nmis: intOption('nmis', values.nmis, sc.bounds.nmis, LIMITS.bound),
    preemptions: intOption('preemptions', values.preemptions, sc.bounds.preemptions, LIMITS.bound),
    migrations: intOption('migrations', values.migrations, sc.bounds.migrations, LIMITS.bound),
    switches:
      values.switches === undefined ? Infinity : intOption('switches', values.switches, 0, 1000),
  };
  try {
    return promelaModel(sc, params, bounds).replace(/\n$/, '');
  } catch (e) {
    if (e instanceof PromelaRefusal || e instanceof RangeError)
      throw new UsageError(`cannot export ${sc.id} to Promela: ${e.message}`);
    throw e;
  }
}
