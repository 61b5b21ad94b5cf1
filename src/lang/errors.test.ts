// Errors that teach: each has a line, a column, the offending text and a sentence; limits are
// refused by name. Written as the message a user reads.

import { describe, expect, it } from 'vitest';
import { compileProgram } from './compile.ts';
import { describeError, formatError, LineMap } from './source.ts';

function firstError(source: string): string {
  const r = compileProgram(source);
  if (r.ok) throw new Error('expected an error');
  return describeError(new LineMap(source), r.errors[0] as never);
}

const counter = (body: string) => `DEFINE_PER_CPU(int, c);

P0()
{
${body}
}
`;

describe('compile errors', () => {
  it.each([
    [
      'a misspelt primitive, with the one meant',
      counter('\tthis_cpu_ad(c, 1);'),
      'line 5, column 2: `this_cpu_ad` is not a primitive the lab knows, nor a function of the program. Did you mean `this_cpu_add`?',
    ],
    [
      'a string with an escape it cannot read (found by the fuzz test)',
      `${counter('\tthis_cpu_add(c, 1);')}\ninvariant final ok: 1 "a \\q b";\n`,
      'line 8, column 23: this string has an escape the lab does not read. Write \\\\ for a backslash, \\" for a quote and \\n for a new line.',
    ],
    [
      'a missing semicolon',
      counter('\tint r = 1\n\tr++;'),
      'line 5, column 11: expected `;` after the declaration, at the end of the line.',
    ],
    [
      'an undeclared variable, with a close name',
      counter('\tint count = 0;\n\tcout++;'),
      'line 6, column 2: `cout` is not declared. Did you mean `count`?',
    ],
    [
      'a primitive the machine does not model, refused by name',
      counter('\tcall_rcu();'),
      'line 5, column 2: `call_rcu` is not supported: RCU callbacks are not modelled.',
    ],
    [
      'an argument too few',
      counter('\tWRITE_ONCE(c);'),
      'line 5, column 2: `WRITE_ONCE` takes 2 arguments, not 1.',
    ],
    [
      'a per-CPU variable read as a plain one',
      counter('\tint r = c;'),
      'line 5, column 10: a per-CPU variable has one value per CPU. Read this CPU’s with this_cpu_read(v), another’s with per_cpu(v, cpu).',
    ],
    [
      'a block never closed',
      'P0()\n{\n\tint r;\n',
      'line 3, column 8: expected `}` to close P0’s body (its `{` is on line 2) before the end of the program.',
    ],
    [
      'a thread’s body without its `}`, before the final clause (a new user’s bad4.litmus)',
      'C bad4\n{ x=0; }\nP0(int *x)\n{\n\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*x, 1);\n\nexists (0:r0=1)\n',
      'line 7, column 20: expected `}` to close P0’s body (its `{` is on line 4) before `exists` on line 9. A final clause comes after the threads.',
    ],
    [
      'a thread’s body without its `}`, before the next thread',
      'int x;\nP0()\n{\n\tx = 1;\nP1()\n{\n\tx = 2;\n}\n',
      'line 4, column 8: expected `}` to close P0’s body (its `{` is on line 3) before `P1` on line 5. A thread starts after the `}` of what comes before it.',
    ],
    [
      'a function’s body without its `}`, before a thread',
      'int x;\nvoid f(void)\n{\n\tx = 1;\n\nP0()\n{\n\tf();\n}\n',
      'line 4, column 8: expected `}` to close the body of `f` (its `{` is on line 3) before `P0` on line 6. A thread starts after the `}` of what comes before it.',
    ],
    [
      'a recursive function',
      'void f(void) { f(); }\nP0() { f(); }',
      'line 1, column 16: `f` calls itself: the lab inlines every call, so recursion is not supported.',
    ],
  ])('%s', (_, source, message) => {
    expect(firstError(source)).toBe(message);
  });

  it('refuses the limits by name', () => {
    expect(firstError('#pragma lab loop_bound 100000\nP0() { }')).toBe(
      'line 1, column 1: the loop bound must be 1 to 1000, not `100000`.',
    );
    expect(firstError('#define NR_CPUS 65\nP0() { }')).toMatch(/NR_CPUS must be 1 to 64, not 65/);
    expect(firstError(`int x;\nP0() {\n${'\tx++;\n'.repeat(5)}}\nP99() { }`)).toMatch(
      /a thread runs on CPU 99|needs 100 CPUs/,
    );
    expect(
      firstError(
        '#define NR_CPUS 64\nDEFINE_PER_CPU(int, c);\nP0() { int a; int b; int s; for_each_online_cpu(a) for_each_online_cpu(b) for_each_online_cpu(s) this_cpu_inc(c); }',
      ),
    ).toMatch(/P0 compiles to more than the 20000 instructions the lab runs/);
    const long = `P0() { }\n${'// filler\n'.repeat(8000)}`;
    expect(compileProgram(long).ok).toBe(false);
    expect(firstError(long)).toMatch(/more than the 65536 the lab takes/);
  });

  it('prints an error as a compiler does: file:line:col, the line, a caret under the text', () => {
    const source = counter('\tthis_cpu_ad(c, 1);');
    const r = compileProgram(source);
    if (r.ok) throw new Error('expected an error');
    expect(formatError(new LineMap(source), r.errors[0] as never, 'counter.c')).toBe(
      [
        'counter.c:5:2: `this_cpu_ad` is not a primitive the lab knows, nor a function of the program.',
        '  |',
        '5 |     this_cpu_ad(c, 1);',
        '  |     ^^^^^^^^^^^',
        '  = Did you mean `this_cpu_add`?',
      ].join('\n'),
    );
  });

  it('writes a control character as U+XXXX, in the message and the line (fuzzing found it)', () => {
    const source = 'int x;\0 P0() { }\n';
    const r = compileProgram(source);
    if (r.ok) throw new Error('expected an error');
    expect(r.errors[0]?.message).toBe('the character U+0000 cannot start anything here.');
    expect(formatError(new LineMap(source), r.errors[0] as never, 'nul.c')).toBe(
      [
        'nul.c:1:7: the character U+0000 cannot start anything here.',
        '  |',
        '1 | int x;U+0000 P0() { }',
        '  |       ^^^^^^',
      ].join('\n'),
    );
    // After the escape, the caret still sits under what it points at.
    const esc = 'int x;\u001b y;\nP0() { }\n';
    const e = compileProgram(esc);
    if (e.ok) throw new Error('expected an error');
    expect(formatError(new LineMap(esc), e.errors[0] as never, 'esc.c').split('\n')[3]).toBe(
      '  |       ^^^^^^',
    );
  });
});

describe('every error of a program', () => {
  const all = (source: string): string[] => {
    const r = compileProgram(source);
    if (r.ok) throw new Error('expected errors');
    const map = new LineMap(source);
    return r.errors.map((e) => describeError(map, e));
  };

  it('a missing `;`, then a misspelt primitive (a new user’s bad1.litmus)', () => {
    const source = `C bad1
{ x=0; y=0; }
P0(int *x, int *y)
{
\tWRITE_ONCE(*x, 1)
\tsmp_mbb();
\tint r0 = READ_ONCE(*y);
}
P1(int *x, int *y)
{
\tWRITE_ONCE(*y, 1);
\tint r0 = READ_ONCE(*x);
}
exists (0:r0=0 /\\ 1:r0=0)
`;
    expect(all(source)).toEqual([
      'line 5, column 19: expected `;` after the statement, at the end of the line.',
      'line 6, column 2: `smp_mbb` is not a primitive the lab knows, nor a function of the program. Did you mean `smp_mb`?',
    ]);
  });

  it('each wrong location of the final condition (a new user’s bad5.litmus)', () => {
    const source = `{ x=0; y=0; }
P0(int *x, int *y)
{
\tWRITE_ONCE(*x, 1);
\tint r0 = READ_ONCE(*y);
}
P1(int *x, int *y)
{
\tint r0 = READ_ONCE(*x);
}
exists (0:r0=0 /\\ 2:r0=0 /\\ z=1)
`;
    expect(all(source)).toEqual([
      'line 11, column 19: there is no thread P2.',
      'line 11, column 29: `z` is not a global, a recorded value or a constant. Did you mean `x`?',
    ]);
  });

  it('an error in each of two statements and in each of two threads', () => {
    const source = `int x;
P0()
{
\tint a = 1;
\tthis_cpu_ad(x, 1);
\ta = cout;
\tx = a;
}
P1()
{
\tx = smp_mbb();
}
`;
    expect(all(source)).toEqual([
      'line 5, column 2: `this_cpu_ad` is not a primitive the lab knows, nor a function of the program. Did you mean `this_cpu_add`?',
      'line 6, column 6: `cout` is not declared.',
      'line 11, column 6: `smp_mbb` is not a primitive the lab knows, nor a function of the program. Did you mean `smp_mb`?',
    ]);
  });

  it('a name whose declaration failed is still declared: its uses are no error', () => {
    expect(all(counter('\tint r = this_cpu_reed(c);\n\tr++;\n\tthis_cpu_write(c, r);'))).toEqual([
      'line 5, column 10: `this_cpu_reed` is not a primitive the lab knows, nor a function of the program. Did you mean `this_cpu_read`?',
    ]);
  });

  it('every syntax error, reading on from the next statement and the next thread', () => {
    const source = `int x;
P0()
{
\tx = (1 + ;
\tx = 2;
\tx = = 3;
}
P1(
{
\tx = 4;
}
exists (x=
`;
    expect(all(source)).toEqual([
      'line 4, column 11: expected a value, found `;`.',
      'line 6, column 6: expected a value, found `=`.',
      'line 9, column 1: expected a parameter’s type, found `{`.',
      'line 13, column 1: expected a value, found the end of the program.',
    ]);
  });

  it('after a syntax error that skipped text, the compiler does not guess at the rest', () => {
    // `int r` was skipped with the error: its use is not reported as undeclared.
    expect(all(counter('\tint r = (1 + ;\n\tr++;'))).toEqual([
      'line 5, column 15: expected a value, found `;`.',
    ]);
  });
});
