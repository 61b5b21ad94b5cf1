// What makes a refused catalogue entry one the engine can take, in the words of where it was
// asked: `lab explore` takes `--set`, the page its Parameters panel. A program's own text takes
// the engine's words (a #pragma), which AxiomaticRefusal's message already holds.

import { PROGRAM_ID } from '../scenarios/program.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import type { AxiomaticRefusal } from './threads.ts';

/** The parameters that make a catalogue entry's program smaller, in the order to try them. */
const SIZES = ['adds', 'iterations'] as const;

/** Each size parameter the entry has, one smaller than its largest value now (none at 1). */
export function smallerSettings(
  sc: Scenario,
  params: Params,
): { readonly name: string; readonly value: number }[] {
  return SIZES.flatMap((name) => {
    if (!sc.params.some((q) => q.name === name)) return [];
    const v = params[name];
    const most = Array.isArray(v)
      ? Math.max(...(v as readonly number[]))
      : typeof v === 'number'
        ? v
        : 0;
    return most > 1 ? [{ name, value: most - 1 }] : [];
  });
}

/** How each place says what to do. */
export interface AdviceWords {
  /** A catalogue entry's loop past its bound: where its text can take a #pragma. */
  readonly loopBound: (sc: Scenario) => string;
  /** One smaller setting. */
  readonly setting: (name: string, value: number) => string;
  /** Where the entry's parameters are listed, when none is smaller. */
  readonly parameters: (sc: Scenario) => string;
}

/**
 * A refusal's reason with the advice that fits what was refused: a program's text keeps the
 * engine's own words (a #pragma); a catalogue entry gets a smaller setting, or where its text
 * can be edited to raise the loop bound.
 */
export function refusalAdvice(
  sc: Scenario,
  params: Params,
  e: AxiomaticRefusal,
  words: AdviceWords,
): string {
  if (sc.id === PROGRAM_ID || e.remedy === null) return e.message;
  if (e.remedy === 'loop-bound') return `${e.reason}; ${words.loopBound(sc)}`;
  const sets = smallerSettings(sc, params).map((s) => words.setting(s.name, s.value));
  return sets.length > 0
    ? `${e.reason}; try a smaller program: ${sets.join(', or ')}`
    : `${e.reason}; smaller parameters make fewer (${words.parameters(sc)})`;
}
