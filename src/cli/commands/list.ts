// `lab list`: every scenario with its id, title, source and whether it is a reconstruction.

import { catalogue } from '../../scenarios/index.ts';
import { parseCommand } from '../args.ts';
import { toJson } from '../json.ts';

export function list(argv: readonly string[]): string {
  const { values } = parseCommand(argv, { json: { type: 'boolean' } }, { positionals: 0 });
  const rows = catalogue.map(({ id, title, source, reconstruction }) => ({
    id,
    title,
    source,
    reconstruction,
  }));
  if (values.json) return toJson(rows);
  const width = Math.max(...rows.map((r) => r.id.length));
  return rows
    .map((r) => `${r.id.padEnd(width)}  ${r.title}${r.reconstruction ? '  [reconstruction]' : ''}`)
    .join('\n');
}
