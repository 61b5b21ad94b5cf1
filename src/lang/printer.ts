// The printer: a syntax tree back to text, in one canonical layout (tabs, a blank line between
// items, the fewest parentheses that keep the meaning). Parsing what it prints gives the same
// tree, which the tests hold it to; `lab export --format litmus` prints through it.

import type { Expr, InitEntry, Item, Param, Program, Stmt, TypeRef } from './ast.ts';

/** Binding strength of binary operators (higher binds tighter), as the parser reads them. */
const PRECEDENCE: Readonly<Record<string, number>> = {
  '||': 1,
  '\\/': 1,
  '&&': 2,
  '/\\': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '=': 6,
  '<': 7,
  '<=': 7,
  '>': 7,
  '>=': 7,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
};
const TERNARY = 0.5;
const ASSIGN = 0.25;
const UNARY = 11;
const POSTFIX = 12;

/** `int`, `s32 __percpu *`, `struct percpu_counter *fbc`: a type, with a name if given. */
export function printType(t: TypeRef, name = ''): string {
  const head = `${t.base}${t.percpu ? ' __percpu' : ''}`;
  const stars = '*'.repeat(t.pointers);
  if (name === '') return stars ? `${head} ${stars}` : head;
  return `${head} ${stars}${name}`;
}

function precedenceOf(e: Expr): number {
  switch (e.kind) {
    case 'binary':
      return PRECEDENCE[e.op] ?? 0;
    case 'ternary':
      return TERNARY;
    case 'assign':
      return ASSIGN;
    case 'unary':
    case 'cast':
      return UNARY;
    case 'incdec':
      return e.prefix ? UNARY : POSTFIX;
    default:
      return POSTFIX + 1;
  }
}

export function printExpr(e: Expr): string {
  const wrap = (x: Expr, min: number) => {
    const s = printExpr(x);
    return precedenceOf(x) < min ? `(${s})` : s;
  };
  switch (e.kind) {
    case 'num':
      return e.text;
    case 'name':
      return e.name;
    case 'regref':
      return `${e.thread}:${e.name}`;
    case 'unary': {
      const arg = wrap(e.arg, UNARY);
      // `- -x`, not `--x`; `& &x` likewise.
      const space = arg.startsWith(e.op) || (e.op === '-' && arg.startsWith('-')) ? ' ' : '';
      return `${e.op}${space}${arg}`;
    }
    case 'binary': {
      const p = PRECEDENCE[e.op] ?? 0;
      return `${wrap(e.left, p)} ${e.op} ${wrap(e.right, p + 1)}`;
    }
    case 'assign':
      return `${wrap(e.target, UNARY)} ${e.op} ${wrap(e.value, ASSIGN)}`;
    case 'incdec': {
      if (!e.prefix) return `${wrap(e.arg, POSTFIX)}${e.op}`;
      const arg = wrap(e.arg, UNARY);
      return `${e.op}${arg.startsWith(e.op[0] as string) ? ' ' : ''}${arg}`;
    }
    case 'call':
      return `${e.callee}(${e.args.map((a) => wrap(a, ASSIGN)).join(', ')})`;
    case 'member':
      return `${wrap(e.object, POSTFIX)}${e.arrow ? '->' : '.'}${e.field}`;
    case 'index':
      return `${wrap(e.object, POSTFIX)}[${printExpr(e.index)}]`;
    case 'cast':
      return `(${printType(e.type)})${wrap(e.arg, UNARY)}`;
    case 'ternary':
      return `${wrap(e.cond, 1)} ? ${wrap(e.then, ASSIGN)} : ${wrap(e.otherwise, TERNARY)}`;
    case 'init-list':
      return `{ ${e.entries.map((x) => (x.field ? `.${x.field} = ${printExpr(x.value)}` : printExpr(x.value))).join(', ')} }`;
  }
}

function declarators(
  t: TypeRef,
  ds: readonly { name: string; pointers: number; init: Expr | null }[],
): string {
  const one = (d: { name: string; pointers: number; init: Expr | null }) =>
    `${'*'.repeat(d.pointers)}${d.name}${d.init ? ` = ${printExpr(d.init)}` : ''}`;
  const [first, ...rest] = ds;
  if (!first) return printType(t);
  return [printType(t, one(first)), ...rest.map(one)].join(', ');
}

function indent(depth: number): string {
  return '\t'.repeat(depth);
}

/** A statement, indented `depth` tabs. */
export function printStmt(s: Stmt, depth: number): string {
  const pad = indent(depth);
  const nested = (x: Stmt) =>
    x.kind === 'block' ? ` ${printBlock(x, depth)}` : `\n${printStmt(x, depth + 1)}`;
  switch (s.kind) {
    case 'block':
      return `${pad}${printBlock(s, depth)}`;
    case 'empty':
      return `${pad};`;
    case 'decl':
      return `${pad}${declarators(s.type, s.declarators)};`;
    case 'expr':
      return `${pad}${printExpr(s.expr)};`;
    case 'if': {
      let out = `${pad}if (${printExpr(s.cond)})${nested(s.then)}`;
      if (s.otherwise) {
        const sep = s.then.kind === 'block' ? ' ' : `\n${pad}`;
        out +=
          s.otherwise.kind === 'if'
            ? `${sep}else ${printStmt(s.otherwise, depth).trimStart()}`
            : `${sep}else${nested(s.otherwise)}`;
      }
      return out;
    }
    case 'while':
      return `${pad}while (${printExpr(s.cond)})${nested(s.body)}`;
    case 'do': {
      const body =
        s.body.kind === 'block'
          ? ` ${printBlock(s.body, depth)} `
          : `\n${printStmt(s.body, depth + 1)}\n${pad}`;
      return `${pad}do${body}while (${printExpr(s.cond)});`;
    }
    case 'for': {
      const init = s.init ? printStmt(s.init, 0).replace(/;$/, '') : '';
      return `${pad}for (${init}; ${s.cond ? printExpr(s.cond) : ''}; ${s.step ? printExpr(s.step) : ''})${nested(s.body)}`;
    }
    case 'for-each-cpu':
      return `${pad}${s.macro}(${[s.variable, ...s.masks.map((e) => printExpr(e))].join(', ')})${nested(s.body)}`;
    case 'break':
    case 'continue':
      return `${pad}${s.kind};`;
    case 'return':
      return `${pad}return${s.value ? ` ${printExpr(s.value)}` : ''};`;
    case 'goto':
      return `${pad}goto ${s.label};`;
    case 'label':
      return `${s.label}:\n${printStmt(s.body, depth)}`;
  }
}

function printBlock(b: Stmt & { kind: 'block' }, depth: number): string {
  if (b.body.length === 0) return '{\n' + `${indent(depth)}}`;
  return `{\n${b.body.map((s) => printStmt(s, depth + 1)).join('\n')}\n${indent(depth)}}`;
}

function printParams(ps: readonly Param[]): string {
  return ps.map((p) => printType(p.type, p.name)).join(', ');
}

function printInit(e: InitEntry): string {
  if (e.kind === 'decl') return `\t${declarators(e.type, e.declarators)};`;
  return `\t${printExpr(e.target)} = ${printExpr(e.value)};`;
}

export function printItem(it: Item): string {
  switch (it.kind) {
    case 'init':
      return it.entries.length === 0 ? '{}' : `{\n${it.entries.map(printInit).join('\n')}\n}`;
    case 'define':
      return `#define ${it.name} ${printExpr(it.value)}`;
    case 'include':
      return `#include ${it.text}`;
    case 'pragma':
      return `#pragma lab ${it.key}${it.value ? ` ${it.value}` : ''}`;
    case 'struct':
      return `struct ${it.name} {\n${it.fields.map((f) => `\t${printType(f.type, f.name)};`).join('\n')}\n};`;
    case 'global':
      return `${declarators(it.type, it.declarators)};`;
    case 'percpu':
      return `DEFINE_PER_CPU(${printType(it.type)}, ${it.name})${it.init ? ` = ${printExpr(it.init)}` : ''};`;
    case 'function':
      return `${printType(it.ret, it.name)}(${printParams(it.params)})\n${printBlock(it.body, 0)}`;
    case 'thread':
      return `${it.role}${it.index}(${printParams(it.params)})${it.cpu !== null ? ` on cpu ${it.cpu}` : ''}\n${printBlock(it.body, 0)}`;
    case 'exists':
      return `${it.quantifier} ${parenthesised(it.prop)}`;
    case 'filter':
      return `filter ${parenthesised(it.prop)}`;
    case 'locations':
      return `locations [${it.locations.map(printExpr).join('; ')}]`;
    case 'observe':
      return `observe ${it.name}${it.value ? ` = ${printExpr(it.value)}` : ''};`;
    case 'invariant':
      return `invariant ${it.when} ${it.id}${it.prop ? `: ${printExpr(it.prop)}` : ''}${it.description !== null ? ` ${JSON.stringify(it.description)}` : ''};`;
    case 'counter':
      return `counter {\n${it.entries.map((e) => `\t${e.key}${e.values.length ? ` ${e.values.map(printExpr).join(', ')}` : ''};`).join('\n')}\n}`;
  }
}

/** `(prop)`, with a blank where it starts with `*`: outside braces, `(*` opens a comment. */
function parenthesised(e: Expr): string {
  const s = printExpr(e);
  return s.startsWith('*') ? `( ${s})` : `(${s})`;
}

/** The whole program, in the canonical layout. */
export function printProgram(p: Program): string {
  const head =
    p.name !== null ? [`C ${p.name}${p.doc !== null ? `\n${JSON.stringify(p.doc)}` : ''}`] : [];
  return `${[...head, ...p.items.map(printItem)].join('\n\n')}\n`;
}
