// What the editor colours, from the compiler's own lexer and word lists: a keyword is coloured
// because the parser treats it as one. Pure, so it is tested without a browser; the editor maps
// each class to a CSS class.

import { lex, type Token } from './lexer.ts';
import { primitiveNames } from './primitives.ts';
import { LangFault } from './source.ts';
import { CLAUSE_WORDS, CPU_LOOPS, KEYWORDS, QUALIFIERS, THREAD_NAME, TYPE_NAMES } from './words.ts';

export type TokenClass =
  | 'comment'
  | 'directive'
  | 'header'
  | 'string'
  | 'number'
  | 'keyword'
  | 'type'
  | 'primitive'
  | 'clause'
  | 'thread'
  | 'register'
  /** Text the lexer could not read (an unterminated comment, a stray character). */
  | 'invalid';

export interface Highlight {
  readonly from: number;
  readonly to: number;
  readonly cls: TokenClass;
}

let primitives: ReadonlySet<string> | null = null;

function classOf(t: Token): TokenClass | null {
  switch (t.kind) {
    case 'comment':
    case 'directive':
    case 'header':
    case 'string':
    case 'number':
      return t.kind;
    case 'regref':
      return 'register';
    case 'ident': {
      const w = t.text;
      if (KEYWORDS.has(w) || CPU_LOOPS.has(w)) return 'keyword';
      if (TYPE_NAMES.has(w) || QUALIFIERS.has(w) || w === 'struct') return 'type';
      if (THREAD_NAME.test(w)) return 'thread';
      if (CLAUSE_WORDS.has(w)) return 'clause';
      primitives ??= new Set(primitiveNames());
      return primitives.has(w) ? 'primitive' : null;
    }
    default:
      return null;
  }
}

/** The coloured ranges of a program's text, in order; never throws. */
export function highlights(text: string): Highlight[] {
  let tokens: Token[];
  let bad: { from: number; to: number } | null = null;
  try {
    tokens = lex(text);
  } catch (e) {
    if (!(e instanceof LangFault)) throw e;
    // Colour what comes before the fault; the fault itself, to the end of its line, is invalid.
    const at = e.span.start;
    const eol = text.indexOf('\n', at);
    bad = { from: at, to: eol < 0 ? text.length : eol };
    try {
      tokens = lex(text.slice(0, at));
    } catch {
      tokens = [];
    }
  }
  const out: Highlight[] = [];
  for (const t of tokens) {
    const cls = classOf(t);
    if (cls && t.span.end > t.span.start) out.push({ from: t.span.start, to: t.span.end, cls });
  }
  if (bad && bad.to > bad.from) out.push({ ...bad, cls: 'invalid' });
  return out;
}
