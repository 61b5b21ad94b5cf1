// The lexer's cost is linear in the text. Each `{` used to look back over every token before it
// (for the last one that was not a comment) and down its whole stack of open braces, so a text of
// many deeply nested blocks cost tokens × braces: a 35 kB fuzzed litmus file of 51 threads, each
// with blocks nested 300 deep, took minutes to reach its "nests too deeply" error.

import { describe, expect, it } from 'vitest';
import { lex, MAX_SOURCE_CHARS } from './lexer.ts';
import { parse } from './parser.ts';

/** A litmus file of `threads` threads, each with blocks nested `depth` deep, near the size limit. */
function deepLitmus(threads: number, depth: number): string {
  const thread = (n: number) =>
    `P${n}(int *x) {\n${'{'.repeat(depth)}${'}'.repeat(depth)}\n\tWRITE_ONCE(*x, 1); // a store\n}\n`;
  const body = Array.from({ length: threads }, (_, n) => thread(n)).join('\n');
  return `C deep\n\n{ (* the init block takes herd7 comments *) }\n\n${body}\nexists (0:r0=0) (* and so do the final clauses *)\n`;
}

describe('the lexer on blocks nested as deep as the size limit allows', () => {
  const n = 32_000;

  it('tells a herd7 comment outside code from C inside a body, at any depth', () => {
    const outside = `${'{'.repeat(n)} (* a comment *) ${'}'.repeat(n)}`;
    const inside = `P0(int *x) {${'{'.repeat(n)} r = (*x); ${'}'.repeat(n)}}`;
    for (const text of [outside, inside]) expect(text.length).toBeLessThanOrEqual(MAX_SOURCE_CHARS);
    const a = lex(outside);
    expect(a).toHaveLength(2 * n + 2);
    expect(a[n]).toMatchObject({ kind: 'comment', text: '(* a comment *)' });
    const b = lex(inside);
    expect(b.filter((t) => t.kind === 'comment')).toEqual([]);
    expect(b.slice(n + 7, n + 14).map((t) => t.text)).toEqual(['r', '=', '(', '*', 'x', ')', ';']);
    expect(b.at(-1)?.kind).toBe('eof');
  });
});

describe('the lexer on a long text of deep blocks', () => {
  const text = deepLitmus(100, 300);

  it('is near the size the lab takes', () => {
    expect(text.length).toBeGreaterThan(MAX_SOURCE_CHARS * 0.9);
    expect(text.length).toBeLessThanOrEqual(MAX_SOURCE_CHARS);
  });

  it('reads every token, telling herd7 comments from C inside the bodies', () => {
    const tokens = lex(text);
    const count = (kind: string, t?: string) =>
      tokens.filter((k) => k.kind === kind && (t === undefined || k.text === t)).length;
    expect(count('punct', '{')).toBe(1 + 100 * 301);
    expect(count('punct', '}')).toBe(1 + 100 * 301);
    // `(*x` in each thread is a parenthesis and a dereference; the two `(* … *)` outside are not.
    expect(count('punct', '*')).toBe(100 * 2);
    expect(tokens.filter((k) => k.kind === 'comment').map((k) => k.text)).toEqual([
      '(* the init block takes herd7 comments *)',
      ...Array.from({ length: 100 }, () => '// a store'),
      '(* and so do the final clauses *)',
    ]);
    expect(tokens.at(-1)?.kind).toBe('eof');
  });

  it('lets the parser reach its positioned error, at a brace of the first thread', () => {
    const r = parse(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const [error] = r.errors;
    expect(error?.message).toBe('the program nests too deeply to read.');
    const first = text.indexOf('{\n{') + 2;
    expect(error?.span.start).toBeGreaterThanOrEqual(first);
    expect(error?.span.start).toBeLessThan(first + 300);
    expect(text[error?.span.start ?? -1]).toBe('{');
  });
});
