// `lab check <file>`: explore a program with a final condition and print herd7's verdict (the
// states, Ok or No, the witnesses, `Observation <name> Never|Sometimes|Always`).

import { explore } from '../../explore/explore.ts';
import { DEFAULT_MAX_MEMORY_MB } from '../../explore/limits.ts';
import { herdVerdict } from '../../explore/herd.ts';
import { intOption, paramsArg, parseCommand, programArg } from '../args.ts';
import { UsageError } from '../errors.ts';
import { toJson } from '../json.ts';

export function checkCommand(argv: readonly string[]): string {
  const { values, positionals } = parseCommand(argv, {
    set: { type: 'string', multiple: true },
    memory: { type: 'string' },
    json: { type: 'boolean' },
    'max-memory': { type: 'string' },
  });
  const path = positionals[0];
  if (path === undefined) throw new UsageError('missing program file: lab check test.litmus');
  const { scenario: sc, compiled } = programArg(path);
  const params = paramsArg(sc, values.set, undefined, values.memory);
  const { machine } = sc.build(params);
  const r = explore(
    sc,
    params,
    { ...sc.bounds, switches: Infinity },
    {
      maxMemoryMB: intOption('max-memory', values['max-memory'], DEFAULT_MAX_MEMORY_MB, 65_536),
    },
  );
  const verdict = herdVerdict(compiled, machine, r);
  if (!verdict)
    throw new UsageError(
      `${path} has no final condition: add one, as \`exists (0:r0=0 /\\ 1:r0=0)\` (or use lab explore)`,
    );
  const incomplete = r.complete
    ? null
    : `INCOMPLETE: ${r.stopped ?? 'stopped'}: more end states may exist`;
  if (values.json)
    return toJson({ ...verdict, complete: r.complete, stopped: r.stopped, text: undefined });
  return incomplete ? `${verdict.text}\n${incomplete}` : verdict.text;
}
