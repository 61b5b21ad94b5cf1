// The lexer: program text to tokens with spans. The compiler's parser and the editor's
// highlighting both read these tokens, so what is coloured is what is parsed.
//
// Comments are `// …`, `/* … */` and, outside any braces or parentheses, herd7's `(* … *)`
// (inside code `(*p)` is C). A litmus file's first line `C <name>` is one token, and so is a
// herd7 register name `0:r1`. Preprocessor lines (`#define`, `#pragma`, `#include`) are one
// token each, up to the end of the line.

import { LangFault, printable, type Span } from './source.ts';

export type TokenKind =
  | 'ident'
  | 'number'
  | 'string'
  /** `N:name`, thread N's register `name` (final clauses only). */
  | 'regref'
  | 'punct'
  | 'comment'
  /** `C name` at the top of a litmus file. */
  | 'header'
  /** A `#…` line. */
  | 'directive'
  | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The token's text (for a number, its digits; for `regref`, "N:name"). */
  readonly text: string;
  readonly span: Span;
  /** Numbers: the value. */
  readonly value?: bigint;
}

/** Longest first, so `<<=` wins over `<<` and `<`. */
const PUNCTS = [
  '<<=',
  '>>=',
  '->',
  '++',
  '--',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '/\\',
  '\\/',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '.',
  ':',
  '?',
  '~',
  '!',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '<',
  '>',
  '=',
];

const isIdentStart = (c: string) => /[A-Za-z_]/.test(c);
const isIdent = (c: string) => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';
/** The largest number a literal may write: 2^64 - 1, an unsigned long's most. */
const MAX_U64 = (1n << 64n) - 1n;

/** Most characters a program may have (the editor and the CLI refuse more, by name). */
export const MAX_SOURCE_CHARS = 65_536;

/**
 * Every token of `text`, comments included, ending with an `eof` token. Throws LangFault at the
 * first character that cannot start a token (the parser turns it into an error value).
 */
export function lex(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  // herd7's (* … *) comments are recognised outside code: not inside a function's body (a `{`
  // right after `)`, and every brace within it) and not inside parentheses, where `(*p)` is C.
  // The init block `{ … }` and the final clauses take them.
  let parens = 0;
  // One entry an open brace: is it code? Once one is, every brace inside it is too, so the
  // stack is falses then trues and its top tells whether any is (a scan would make deep nesting
  // cost its depth at every brace).
  const braces: boolean[] = [];
  const inBody = () => braces.at(-1) === true;
  const inCode = () => parens > 0 || inBody();
  // The last token that is not a comment: what a `{` follows (kept, not searched for, so a
  // brace costs the same however many tokens come before it).
  let lastCode: Token | undefined;
  const push = (kind: TokenKind, start: number, end: number, value?: bigint) => {
    const t: Token = { kind, text: text.slice(start, end), span: { start, end } };
    const token = value === undefined ? t : { ...t, value };
    out.push(token);
    if (kind !== 'comment') lastCode = token;
  };
  // `C name` on the first line that is not blank or a comment.
  let headerAllowed = true;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    const start = i;
    const next = text[i + 1] ?? '';
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      push('comment', start, i);
      continue;
    }
    // C's /* */ comments, and herd7's (* *) outside the code.
    if ((c === '/' && next === '*') || (c === '(' && next === '*' && !inCode())) {
      const [open, shut] = c === '/' ? ['/*', '*/'] : ['(*', '*)'];
      const close = text.indexOf(shut, i + 2);
      if (close < 0)
        throw new LangFault(
          { start, end: start + 2 },
          `this \`${open}\` comment never ends.`,
          `Close it with \`${shut}\`.`,
        );
      i = close + 2;
      push('comment', start, i);
      continue;
    }
    if (headerAllowed && c === 'C' && (next === ' ' || next === '\t')) {
      // `C name [rest of line ignored]`: the name runs to the next blank.
      let j = i + 1;
      while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
      while (j < text.length && !/\s/.test(text[j] as string)) j++;
      push('header', start, j);
      i = j;
      headerAllowed = false;
      // What herd7's test generators write between the name and the init block: a quoted line
      // and `Key=value` lines (Cycle=, Relax=, Safe=, Prefetch=, Com=, Orig=, Hash=…). herd7
      // reads them as information, and skips a second `C name` line; so does the lab (as comments).
      for (;;) {
        let k = i;
        while (k < text.length && /\s/.test(text[k] as string)) k++;
        const rest = text.slice(k, text.indexOf('\n', k) < 0 ? text.length : text.indexOf('\n', k));
        if (
          !/^"[^"]*"\s*;?\s*$/.test(rest) &&
          !/^[A-Za-z][\w/.-]*\s*=/.test(rest) &&
          !/^C\s+\S[^\n]*$/.test(rest)
        )
          break;
        push('comment', k, k + rest.length);
        i = k + rest.length;
      }
      continue;
    }
    headerAllowed = false;
    if (c === '#') {
      // A preprocessor line, with backslash continuations.
      while (i < text.length && text[i] !== '\n') {
        if (text[i] === '\\' && text[i + 1] === '\n') i += 2;
        else i++;
      }
      push('directive', start, i);
      continue;
    }
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      if (text[i] !== '"')
        throw new LangFault(
          { start, end: Math.min(i, text.length) },
          'this string never ends.',
          'Close it with `"` on the same line.',
        );
      i++;
      push('string', start, i);
      continue;
    }
    if (isDigit(c)) {
      if (c === '0' && (next === 'x' || next === 'X')) {
        i += 2;
        while (i < text.length && /[0-9A-Fa-f]/.test(text[i] as string)) i++;
        if (i === start + 2)
          throw new LangFault({ start, end: i }, '`0x` needs hexadecimal digits after it.');
      } else {
        while (i < text.length && isDigit(text[i] as string)) i++;
      }
      const digitsEnd = i;
      // `N:name` (no blanks): thread N's register, as herd7 writes it in final clauses.
      if (
        text[i] === ':' &&
        isIdentStart(text[i + 1] ?? '') &&
        /^\d+$/.test(text.slice(start, i))
      ) {
        i += 1;
        while (i < text.length && isIdent(text[i] as string)) i++;
        push('regref', start, i);
        continue;
      }
      while (i < text.length && /[uUlL]/.test(text[i] as string)) i++;
      if (i < text.length && isIdent(text[i] as string))
        throw new LangFault(
          { start, end: i + 1 },
          `\`${text.slice(start, i + 1)}\` is not a number.`,
          'A number is decimal digits, or 0x and hexadecimal digits, with an optional U or L.',
        );
      const value = BigInt(text.slice(start, digitsEnd));
      // C refuses a constant too large for any type; the lab's words are 64 bits at most.
      if (value > MAX_U64)
        throw new LangFault({ start, end: i }, `\`${text.slice(start, i)}\` exceeds 64 bits.`);
      push('number', start, i, value);
      continue;
    }
    if (isIdentStart(c)) {
      while (i < text.length && isIdent(text[i] as string)) i++;
      push('ident', start, i);
      continue;
    }
    const p = PUNCTS.find((q) => text.startsWith(q, i));
    if (p === undefined) {
      throw new LangFault(
        { start, end: start + 1 },
        `the character ${printable(c) === c ? `\`${c}\`` : printable(c)} cannot start anything here.`,
        c === '\\' ? 'Write /\\ for "and" and \\/ for "or" in final clauses.' : '',
      );
    }
    if (p === '(') parens++;
    else if (p === ')' && parens > 0) parens--;
    else if (p === '{')
      braces.push(inBody() || (lastCode?.kind === 'punct' && lastCode.text === ')'));
    else if (p === '}') braces.pop();
    i += p.length;
    push('punct', start, i);
  }
  out.push({ kind: 'eof', text: '', span: { start: text.length, end: text.length } });
  return out;
}
