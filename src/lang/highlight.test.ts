import { describe, expect, it } from 'vitest';
import { highlights } from './highlight.ts';

/** The highlighted words of `text`, as "class:text". */
function words(text: string): string[] {
  return highlights(text).map((h) => `${h.cls}:${text.slice(h.from, h.to)}`);
}

describe('highlighting', () => {
  it('colours what the parser reads as keywords, types, primitives, threads and clauses', () => {
    expect(
      words(`C demo
#define N 2
int x; /* shared */
P0() { for (;;) WRITE_ONCE(x, 1); }
exists (0:r0=0)`),
    ).toEqual([
      'header:C demo',
      'directive:#define N 2',
      'type:int',
      'comment:/* shared */',
      'thread:P0',
      'keyword:for',
      'primitive:WRITE_ONCE',
      'number:1',
      'clause:exists',
      'register:0:r0',
      'number:0',
    ]);
  });

  it('marks what the lexer cannot read to the end of its line, and colours what came before', () => {
    const text = 'int x;\nP0() { x = 1; } /* never closed\nmore';
    const hs = words(text);
    expect(hs.slice(0, 3)).toEqual(['type:int', 'thread:P0', 'number:1']);
    expect(hs.at(-1)).toBe('invalid:/* never closed');
  });
});
