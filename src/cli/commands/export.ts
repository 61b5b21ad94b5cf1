// `lab export <id|file> [--format lab|litmus]`: a scenario or a program as text. The lab's own
// format carries everything; `litmus` writes a program that stays inside herd7's litmus C as a
// file herd7 accepts, and refuses one that does not, naming the extension.

import { compileProgram } from '../../lang/compile.ts';
import { toLitmus } from '../../lang/herd7.ts';
import { formatError, LangFault, LineMap } from '../../lang/source.ts';
import { programText } from '../../scenarios/text.ts';
import { isProgramPath, paramsArg, parseCommand, programArg, scenarioArg } from '../args.ts';
import { UsageError } from '../errors.ts';

export function exportCommand(argv: readonly string[]): string {
  const { values, positionals } = parseCommand(
    argv,
    {
      set: { type: 'string', multiple: true },
      preset: { type: 'string' },
      format: { type: 'string' },
    },
    { positionals: 1 },
  );
  const format = values.format ?? 'lab';
  if (format !== 'lab' && format !== 'litmus')
    throw new UsageError(`--format is lab or litmus, not '${format}'`);
  const id = positionals[0];
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
  if (!compiled.ok)
    throw new UsageError(formatError(new LineMap(source), compiled.errors[0] as never, name));
  try {
    return toLitmus(compiled.program).replace(/\n$/, '');
  } catch (e) {
    if (e instanceof LangFault)
      throw new UsageError(formatError(new LineMap(source), e.toError(), name));
    throw e;
  }
}
