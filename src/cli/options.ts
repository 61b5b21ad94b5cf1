// A command's options read strictly, and their errors in the lab's words: apart from args.ts
// (which looks scenarios up in the catalogue) so that a command that never names a catalogue
// entry (check) starts without loading it.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { printable } from '../lang/source.ts';
import { messageOf } from '../machine/errors.ts';
import { UsageError } from './errors.ts';
import { didYouMean } from './suggest.ts';

/**
 * A command's arguments through node:util parseArgs, strictly (an unknown option is an error),
 * with its errors (unknown option, missing value) turned into usage errors of one line.
 */
export function parseCommand<const O extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: O,
  /** `positionals`: how many arguments the command takes besides its options (or any). */
  { positionals = true }: { positionals?: boolean | number } = {},
) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options,
      allowPositionals: positionals !== false,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(usageMessage(e, Object.keys(options), argv));
  }
  // An argument past those the command takes was silently dropped: say so, as for an option.
  if (typeof positionals === 'number' && parsed.positionals.length > positionals) {
    const extra = parsed.positionals[positionals] ?? '';
    throw new UsageError(`unexpected argument '${printable(extra)}'`);
  }
  return parsed;
}

/** node:util's parse errors in the lab's words, one line each, with the option they are about. */
function usageMessage(e: unknown, names: readonly string[], argv: readonly string[]): string {
  const message = messageOf(e);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) {
    const typed = (unknown[1] ?? '').replace(/^-+/, '');
    const hint = didYouMean(typed, names).replace(/mean (\S+)\?/, 'mean --$1?');
    return `unknown option ${unknown[1] ?? ''}${hint}; \`lab --help\` lists the options`;
  }
  const ambiguous = /^Option '(--[^' ]+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const o = ambiguous[1] ?? '';
    // The example is the value the user typed: `--irq-rate -5` is told `--irq-rate=-5`.
    const typed = argv[argv.indexOf(o) + 1];
    const value = typed?.startsWith('-') ? typed : '-1';
    return `${o} needs a value; a value that starts with '-' goes after '=': ${o}=${value}`;
  }
  const missing = /^Option '(--[^' ]+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1] ?? ''} needs a value`;
  const flag = /^Option '(--[^' ]+)' does not take an argument/.exec(message);
  if (flag) return `${flag[1] ?? ''} is a switch and takes no value`;
  // One line, like every other usage error.
  return message.replace(/\s*\n\s*/g, ' ');
}

/** An integer option from `min` (0 unless given) to `max`. */
export function intOption(
  name: string,
  text: string | undefined,
  fallback: number,
  max: number,
  min = 0,
): number {
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text) || Number(text) > max || Number(text) < min) {
    throw new UsageError(`--${name} takes an integer from ${min} to ${max}, got '${text}'`);
  }
  return Number(text);
}
