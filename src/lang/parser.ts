// The parser: tokens to a syntax tree, by recursive descent. A syntax error says where, what it
// found and what it expected; the parser then reads on from the next statement (or the next part
// of the program) and `parse` returns every error as a value. A `;` missing at the end of a line
// is read as there: the tree is then the program meant, and the compiler may check it too.
//
// The outer shape is herd7's litmus C (`C name`, `{ init }`, `P0(int *x) { … }`, `exists …`);
// inside a function it is kernel-style C; after the threads come herd7's final clauses and the
// lab's own (`observe`, `invariant`, `counter`). docs/language.md describes all of it.

import type {
  BinaryOp,
  CounterEntry,
  Declarator,
  Expr,
  InitEntry,
  Item,
  Param,
  Program,
  Stmt,
  TypeRef,
} from './ast.ts';
import { lex, MAX_SOURCE_CHARS, type Token } from './lexer.ts';
import { LangFault, type LangError, type Span } from './source.ts';
import { CLAUSE_WORDS, CPU_LOOPS, KEYWORDS, QUALIFIERS, THREAD_NAME, TYPE_NAMES } from './words.ts';

export type ParseResult =
  | { readonly ok: true; readonly program: Program; readonly tokens: readonly Token[] }
  | {
      readonly ok: false;
      readonly errors: readonly LangError[];
      /**
       * The tree read when every error was a `;` missing at the end of a line (read as there):
       * the program meant, whose other errors the compiler can find.
       */
      readonly repaired?: Program;
    };

/** Parses a whole program; never throws on any text. */
export function parse(text: string): ParseResult {
  if (text.length > MAX_SOURCE_CHARS) {
    return {
      ok: false,
      errors: [
        {
          span: { start: MAX_SOURCE_CHARS, end: text.length },
          message: `the program has ${text.length} characters, more than the ${MAX_SOURCE_CHARS} the lab takes.`,
          hint: 'Leave out what the question does not need.',
        },
      ],
    };
  }
  try {
    const tokens = lex(text);
    const parser = new Parser(text, tokens);
    const program = parser.program();
    if (parser.errors.length === 0) return { ok: true, program, tokens };
    return {
      ok: false,
      errors: parser.errors,
      ...(parser.skipped ? {} : { repaired: program }),
    };
  } catch (e) {
    if (e instanceof LangFault) return { ok: false, errors: [e.toError()] };
    if (e instanceof RangeError) {
      // Nesting deep enough to exhaust the stack: say so instead of crashing.
      return {
        ok: false,
        errors: [
          {
            span: { start: 0, end: Math.min(1, text.length) },
            message: 'the program nests too deeply to read.',
            hint: 'Use fewer nested parentheses, blocks or statements.',
          },
        ],
      };
    }
    throw e;
  }
}

/** Most nested expressions or statements the parser follows. */
const MAX_DEPTH = 200;

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=']);

/** Binary operators by precedence, loosest first; `prop` adds herd7's forms. */
const LEVELS: readonly (readonly string[])[] = [
  ['||', '\\/'],
  ['&&', '/\\'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '!=', '='],
  ['<', '<=', '>', '>='],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];

class Parser {
  private pos = 0;
  private readonly toks: Token[];
  private depth = 0;
  /** Inside a final clause: `=` compares, `~` negates, `N:r` names a register. */
  private prop = false;
  /** The syntax errors found so far, in the order of the text. */
  readonly errors: LangError[] = [];
  /** Whether the parser skipped text after an error (so the tree lacks part of the program). */
  skipped = false;

  constructor(
    private readonly text: string,
    tokens: readonly Token[],
  ) {
    this.toks = tokens.filter((t) => t.kind !== 'comment');
  }

  // ---- tokens ------------------------------------------------------------------------------

  private get tok(): Token {
    return this.toks[this.pos] as Token;
  }

  private peek(n = 1): Token {
    return this.toks[Math.min(this.pos + n, this.toks.length - 1)] as Token;
  }

  private next(): Token {
    const t = this.tok;
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  private is(text: string, t: Token = this.tok): boolean {
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }

  private accept(text: string): Token | null {
    return this.is(text) ? this.next() : null;
  }

  private describe(t: Token): string {
    if (t.kind === 'eof') return 'the end of the program';
    const shown = t.text.length > 24 ? `${t.text.slice(0, 24)}…` : t.text;
    return `\`${shown}\``;
  }

  private fail(message: string, t: Token = this.tok, hint = ''): never {
    throw new LangFault(t.span, message, hint);
  }

  private expect(text: string, what = `\`${text}\``, hint = ''): Token {
    if (this.is(text)) return this.next();
    return this.fail(`expected ${what}, found ${this.describe(this.tok)}.`, this.tok, hint);
  }

  private ident(what: string): Token {
    if (this.tok.kind === 'ident') return this.next();
    return this.fail(`expected ${what}, found ${this.describe(this.tok)}.`);
  }

  /** Records an error and reads on (once per place: a second error there adds nothing). */
  private report(e: LangFault): void {
    const last = this.errors[this.errors.length - 1];
    if (last && last.span.start === e.span.start) return;
    this.errors.push(e.toError());
  }

  /**
   * The `;` that ends a statement or a declaration. One missing at the end of a line (or before
   * `}`) is reported and read as there, so what follows is read as it was meant.
   */
  private semicolon(what: string): void {
    if (this.accept(';')) return;
    const prev = this.toks[this.pos - 1];
    const lineEnds =
      prev !== undefined && /\n/.test(this.text.slice(prev.span.end, this.tok.span.start));
    // Not before `{`: `P1()` then `{` is a thread's start inside a body left open.
    if (this.tok.kind === 'eof' || this.is('{') || !(lineEnds || this.is('}')))
      this.fail(`expected ${what}, found ${this.describe(this.tok)}.`);
    // At the end of a line, the error is where the `;` belongs: after the line's last token.
    this.report(
      lineEnds
        ? new LangFault(
            { start: prev.span.end, end: prev.span.end },
            `expected ${what}, at the end of the line.`,
          )
        : new LangFault(this.tok.span, `expected ${what}, found ${this.describe(this.tok)}.`),
    );
  }

  /**
   * After an error in the statement that starts at token `from`: skips to its end (its `;`, or
   * the `}` of its block), or to a line where the program's next part starts.
   */
  private skipStatement(from: number): void {
    this.skipped = true;
    let brackets = 0;
    let braces = 0;
    for (let i = from; i < this.pos; i++) {
      const t = this.toks[i] as Token;
      if (this.is('(', t) || this.is('[', t)) brackets++;
      else if (this.is(')', t) || this.is(']', t)) brackets = Math.max(0, brackets - 1);
      else if (this.is('{', t)) braces++;
      else if (this.is('}', t)) braces = Math.max(0, braces - 1);
    }
    // Only a `for` header holds a `;` inside brackets: anywhere else a `;` ends the statement.
    const forHeader = this.is('for', this.toks[from]);
    const start = this.pos;
    while (this.tok.kind !== 'eof') {
      if (braces === 0 && this.pos > from && this.startsItem(this.pos)) return;
      if (this.is('(') || this.is('[')) brackets++;
      else if (this.is(')') || this.is(']')) brackets = Math.max(0, brackets - 1);
      else if (this.is('{')) braces++;
      else if (this.is('}')) {
        if (braces === 0) {
          // The `}` closes the enclosing block; the statement never got past its start.
          if (this.pos === start && this.pos === from) this.next();
          return;
        }
        braces--;
        if (braces === 0 && brackets === 0) {
          this.next();
          return;
        }
      } else if (this.is(';') && braces === 0 && (brackets === 0 || !forHeader)) {
        this.next();
        return;
      }
      this.next();
    }
  }

  /** After an error in the part of the program that starts at token `from`: skips to the next. */
  private skipItem(from: number): void {
    this.skipped = true;
    if (this.pos === from) this.next();
    while (this.tok.kind !== 'eof' && !this.startsItem(this.pos)) this.next();
  }

  private span(start: Span, end: Span = this.toks[this.pos - 1]?.span ?? start): Span {
    return { start: start.start, end: Math.max(start.end, end.end) };
  }

  private nest<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail('the program nests too deeply to read.');
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  // ---- the program ---------------------------------------------------------------------------

  program(): Program {
    let name: string | null = null;
    let doc: string | null = null;
    if (this.tok.kind === 'header') {
      name = this.next().text.slice(1).trim();
      if (name === '') this.fail('`C` must be followed by the test’s name, as in `C SB+mb`.');
      const after: Token = this.tok;
      if (after.kind === 'string') doc = stringValue(this.next());
    }
    const items: Item[] = [];
    while (this.tok.kind !== 'eof') {
      // A stray `;` between items (herd7 reads `exists (…);`) is nothing.
      if (this.accept(';')) continue;
      const at = this.pos;
      try {
        items.push(this.item());
      } catch (e) {
        if (!(e instanceof LangFault)) throw e;
        this.report(e);
        this.prop = false;
        this.skipItem(at);
      }
    }
    return { name, doc, items };
  }

  private item(): Item {
    const t = this.tok;
    if (t.kind === 'directive') return this.directive();
    if (t.kind === 'header') this.fail('`C name` must be the first line of the program.');
    if (this.is('{')) return this.initBlock();
    if (t.kind === 'ident') {
      // `static DEFINE_PER_CPU(…)`: storage class means nothing to a program of one file.
      if (t.text === 'static' && /^DEFINE_/.test(this.peek().text)) {
        this.next();
        return this.item();
      }
      if (THREAD_NAME.test(t.text) && this.is('(', this.peek())) return this.thread();
      if (t.text === 'DEFINE_PER_CPU') return this.perCpu();
      if (t.text === 'DEFINE_SPINLOCK' || t.text === 'DEFINE_RAW_SPINLOCK') return this.spinlock();
      if (CLAUSE_WORDS.has(t.text) && t.text !== 'final' && t.text !== 'always')
        return this.clause();
      if (t.text === 'typedef')
        this.fail('`typedef` is not supported.', t, 'Write the type itself (e.g. `struct s`).');
    }
    if (this.is('~') && this.is('exists', this.peek())) return this.clause();
    if (t.kind === 'ident' && (this.isTypeStart() || t.text === 'struct'))
      return this.declOrFunction();
    return this.fail(
      `expected a declaration, a function, a thread (P0, IRQ0…) or a final clause, found ${this.describe(t)}.`,
      t,
      t.kind === 'ident' && !TYPE_NAMES.has(t.text)
        ? `\`${t.text}\` is not a type the lab knows; a thread is written P0(…) { … }.`
        : '',
    );
  }

  private directive(): Item {
    const t = this.next();
    const body = t.text.replace(/\\\n/g, ' ');
    const m = /^#\s*(\w+)\s*(.*)$/s.exec(body);
    const word = m?.[1] ?? '';
    const rest = (m?.[2] ?? '').trim();
    const restStart = t.span.start + body.indexOf(rest, (m?.[1]?.length ?? 0) + 1);
    if (word === 'include') return { kind: 'include', span: t.span, text: rest };
    if (word === 'pragma') {
      const p = /^lab\s+(\w+)\s*(.*)$/s.exec(rest);
      if (!p)
        this.fail(
          'only `#pragma lab …` is understood.',
          t,
          'For example `#pragma lab loop_bound 8` (docs/language.md lists them).',
        );
      // A comment after the value is the writer's, not part of it.
      const value = (p[2] as string)
        .replace(/\/\*[\s\S]*?\*\//g, ' ')
        .replace(/\/\/.*$/, '')
        .trim();
      return { kind: 'pragma', span: t.span, key: p[1] as string, value };
    }
    if (word === 'define') {
      const d = /^([A-Za-z_]\w*)(\()?\s*(.*)$/s.exec(rest);
      if (!d) this.fail('`#define` needs a name and a value, as in `#define BATCH 4`.', t);
      if (d[2]) this.fail('function-like macros are not supported; write a function.', t);
      const valueText = (d[3] as string).trim();
      if (valueText === '') this.fail(`\`#define ${d[1] as string}\` needs a value.`, t);
      // The value is an expression of its own, read from the directive's text.
      const offset = restStart + rest.indexOf(valueText, (d[1] as string).length);
      const value = this.subExpression(valueText, offset);
      return { kind: 'define', span: t.span, name: d[1] as string, value };
    }
    return this.fail(
      `\`#${word}\` is not supported.`,
      t,
      'The lab reads #define NAME value, #pragma lab …, and ignores #include.',
    );
  }

  /** Parses `text` (found at `offset` in the source) as one expression. */
  private subExpression(text: string, offset: number): Expr {
    const shift = (span: Span): Span => ({ start: span.start + offset, end: span.end + offset });
    let lexed: Token[];
    try {
      lexed = lex(text);
    } catch (e) {
      // The lexer's spans are the value's own: point into the program instead.
      if (e instanceof LangFault) throw new LangFault(shift(e.span), e.message, e.hint);
      throw e;
    }
    const tokens = lexed.map((tk) => ({ ...tk, span: shift(tk.span) }));
    const sub = new Parser(this.text, tokens);
    const e = sub.expression();
    if (sub.tok.kind !== 'eof') sub.fail(`unexpected ${sub.describe(sub.tok)} after the value.`);
    return e;
  }

  private initBlock(): Item {
    const open = this.expect('{');
    const entries: InitEntry[] = [];
    while (!this.is('}')) {
      if (this.tok.kind === 'eof') this.fail('the initial state `{ … }` is not closed.', open);
      if (this.accept(';')) continue;
      const start = this.tok.span;
      if (this.isTypeStart() || this.is('struct')) {
        const type = this.type();
        // herd7 types a register too, `int 0:r1;` (0 unless a value follows): its initial value.
        let k = 0;
        while (this.is('*', this.peek(k))) k++;
        if (this.peek(k).kind === 'regref') {
          for (; k > 0; k--) this.next();
          this.prop = true;
          const target = this.primary();
          this.prop = false;
          const value: Expr = this.accept('=')
            ? this.expression()
            : { kind: 'num', span: target.span, value: 0n, text: '0' };
          if (!this.is('}')) this.expect(';');
          entries.push({ kind: 'assign', span: this.span(start), target, value });
          continue;
        }
        const declarators = this.declarators();
        this.expect(';');
        entries.push({ kind: 'decl', span: this.span(start), type, declarators });
        continue;
      }
      this.prop = true;
      const target = this.unary();
      this.prop = false;
      this.expect('=', '`=` (an initial value)');
      const value = this.expression();
      // herd7 lets the last entry go without `;`.
      if (!this.is('}')) this.expect(';');
      entries.push({ kind: 'assign', span: this.span(start), target, value });
    }
    this.next();
    return { kind: 'init', span: this.span(open.span), entries };
  }

  private perCpu(): Item {
    const start = this.next().span;
    this.expect('(');
    const type = this.type();
    this.expect(',');
    const name = this.ident('the per-CPU variable’s name').text;
    this.expect(')');
    const init = this.accept('=') ? this.expression() : null;
    this.expect(';');
    return { kind: 'percpu', span: this.span(start), type, name, init };
  }

  /** `DEFINE_SPINLOCK(name);`: a global spinlock, unlocked. */
  private spinlock(): Item {
    const t = this.next();
    this.expect('(');
    const name = this.ident('the lock’s name');
    this.expect(')');
    this.expect(';');
    const type: TypeRef = {
      span: t.span,
      base: t.text === 'DEFINE_RAW_SPINLOCK' ? 'raw_spinlock_t' : 'spinlock_t',
      pointers: 0,
      percpu: false,
    };
    return {
      kind: 'global',
      span: this.span(t.span),
      type,
      declarators: [{ span: name.span, name: name.text, pointers: 0, init: null }],
    };
  }

  private thread(): Item {
    const t = this.next();
    const m = THREAD_NAME.exec(t.text) as RegExpExecArray;
    const role = m[1] as 'P' | 'IRQ' | 'NMI' | 'DEAD';
    const index = Number(m[2]);
    const params = this.params();
    let cpu: number | null = null;
    if (this.is('on')) {
      this.next();
      const word = this.tok;
      if (word.kind === 'ident' && /^cpu\d+$/.test(word.text)) {
        this.next();
        cpu = Number(word.text.slice(3));
      } else {
        this.expect('cpu', '`cpu` (as in `on cpu 0`)');
        const n = this.tok;
        if (n.kind !== 'number') this.fail(`expected a CPU number, found ${this.describe(n)}.`);
        this.next();
        cpu = Number(n.value);
      }
      if (role !== 'P') this.fail('a handler runs on its own CPU: `on cpu` is for tasks.', word);
    }
    if (!this.is('{'))
      this.fail(`expected \`{\` to start ${t.text}'s body, found ${this.describe(this.tok)}.`);
    const body = this.block(`${t.text}’s body`);
    return { kind: 'thread', span: this.span(t.span), role, index, params, cpu, body };
  }

  private params(): Param[] {
    this.expect('(');
    const out: Param[] = [];
    if (this.is('void') && this.is(')', this.peek())) {
      this.next();
      this.next();
      return out;
    }
    while (!this.is(')')) {
      const start = this.tok.span;
      if (!this.isTypeStart() && !this.is('struct'))
        this.fail(`expected a parameter’s type, found ${this.describe(this.tok)}.`);
      const type = this.type();
      const stars = this.stars();
      const name = this.ident('the parameter’s name').text;
      out.push({ span: this.span(start), type: withStars(type, stars), name });
      if (!this.accept(',')) break;
    }
    this.expect(')');
    return out;
  }

  /** A global declaration, a struct definition, or a function definition. */
  private declOrFunction(): Item {
    const start = this.tok.span;
    // struct name { fields };
    if (this.is('struct') && this.peek().kind === 'ident' && this.is('{', this.peek(2))) {
      this.next();
      const name = this.next().text;
      this.next();
      const fields: Param[] = [];
      while (!this.is('}')) {
        if (this.tok.kind === 'eof') this.fail(`struct ${name} is not closed.`);
        const fs = this.tok.span;
        const type = this.type();
        for (;;) {
          const stars = this.stars();
          const field = this.ident('a field name').text;
          if (this.is('['))
            this.fail('arrays are not supported yet.', this.tok, 'Use separate fields.');
          fields.push({ span: this.span(fs), type: withStars(type, stars), name: field });
          if (!this.accept(',')) break;
        }
        this.expect(';');
      }
      this.next();
      this.expect(';', '`;` after the struct');
      return { kind: 'struct', span: this.span(start), name, fields };
    }
    const type = this.type();
    const stars = this.stars();
    const nameTok = this.ident('a name');
    if (this.is('(')) {
      const params = this.params();
      if (this.is(';'))
        this.fail('a function needs a body here.', this.tok, 'Write the function with { … }.');
      if (!this.is('{'))
        this.fail(`expected \`{\` to start the function’s body, found ${this.describe(this.tok)}.`);
      const body = this.block(`the body of \`${nameTok.text}\``);
      return {
        kind: 'function',
        span: this.span(start),
        ret: withStars(type, stars),
        name: nameTok.text,
        params,
        body,
      };
    }
    this.pos--;
    const declarators = this.declarators(stars);
    this.expect(';');
    return { kind: 'global', span: this.span(start), type, declarators };
  }

  // ---- final clauses ---------------------------------------------------------------------------

  private clause(): Item {
    const start = this.tok.span;
    if (this.accept('~')) {
      this.expect('exists');
      return {
        kind: 'exists',
        span: this.span(start),
        quantifier: '~exists',
        prop: this.propExpr(),
      };
    }
    const word = this.next().text;
    switch (word) {
      case 'exists':
      case 'forall':
        return { kind: 'exists', span: this.span(start), quantifier: word, prop: this.propExpr() };
      case 'filter':
        return { kind: 'filter', span: this.span(start), prop: this.propExpr() };
      case 'locations': {
        this.expect('[');
        const locations: Expr[] = [];
        while (!this.is(']')) {
          this.prop = true;
          locations.push(this.unary());
          this.prop = false;
          if (!this.accept(';')) break;
        }
        this.expect(']');
        return { kind: 'locations', span: this.span(start), locations };
      }
      case 'observe': {
        const name = this.ident('the observable’s name').text;
        let value: Expr | null = null;
        if (this.accept('=')) value = this.propExpr();
        this.accept(';');
        return { kind: 'observe', span: this.span(start), name, value };
      }
      case 'invariant': {
        const when = this.tok.text;
        if (when !== 'final' && when !== 'always')
          this.fail(
            `expected \`final\` or \`always\` after \`invariant\`, found ${this.describe(this.tok)}.`,
          );
        this.next();
        const id = this.dashedName('the invariant’s id');
        const prop = this.accept(':') ? this.propExpr() : null;
        let description: string | null = null;
        if (this.tok.kind === 'string') description = stringValue(this.next());
        this.accept(';');
        return { kind: 'invariant', span: this.span(start), when, id, prop, description };
      }
      default: {
        // counter { key value, …; … }
        this.expect('{');
        const entries: CounterEntry[] = [];
        while (!this.is('}')) {
          if (this.tok.kind === 'eof') this.fail('the counter declaration is not closed.');
          const es = this.tok.span;
          const key = this.ident('a counter part (count, deltas, batch, add, sum, read…)').text;
          const values: Expr[] = [];
          if (!this.is(';')) {
            do values.push(this.propExpr());
            while (this.accept(','));
          }
          this.expect(';');
          entries.push({ span: this.span(es), key, values });
        }
        this.next();
        this.accept(';');
        return { kind: 'counter', span: this.span(start), entries };
      }
    }
  }

  /** A name such as `no-lost-update`: words joined by `-` with no blanks between. */
  private dashedName(what: string): string {
    let name = this.ident(what).text;
    while (
      this.is('-') &&
      this.tok.span.start === this.toks[this.pos - 1]?.span.end &&
      this.peek().kind === 'ident' &&
      this.peek().span.start === this.tok.span.end
    ) {
      this.next();
      name += `-${this.next().text}`;
    }
    return name;
  }

  private propExpr(): Expr {
    const was = this.prop;
    this.prop = true;
    try {
      return this.ternary();
    } finally {
      this.prop = was;
    }
  }

  // ---- types ---------------------------------------------------------------------------------

  private isTypeStart(t: Token = this.tok): boolean {
    return (
      t.kind === 'ident' &&
      (TYPE_NAMES.has(t.text) || QUALIFIERS.has(t.text) || t.text === 'struct')
    );
  }

  /** Specifiers: qualifiers and one base type, as `unsigned long`, `struct percpu_counter`… */
  private type(): TypeRef {
    const start = this.tok.span;
    let percpu = false;
    const words: string[] = [];
    let struct: string | null = null;
    while (this.tok.kind === 'ident') {
      const w = this.tok.text;
      if (QUALIFIERS.has(w)) {
        if (w === '__percpu') percpu = true;
        this.next();
        continue;
      }
      if (w === 'struct') {
        if (struct !== null || words.length > 0) break;
        this.next();
        struct = this.ident('the struct’s name').text;
        continue;
      }
      if (TYPE_NAMES.has(w) && struct === null) {
        words.push(w);
        this.next();
        continue;
      }
      break;
    }
    // `__percpu` may also come between the type and the star: `s32 __percpu *p`.
    if (this.is('__percpu')) {
      this.next();
      percpu = true;
    }
    if (struct === null && words.length === 0)
      this.fail(`expected a type, found ${this.describe(this.tok)}.`);
    const base = struct !== null ? `struct ${struct}` : canonicalBase(words);
    if (base === null)
      this.fail(`\`${words.join(' ')}\` is not a type the lab knows.`, this.toks[this.pos - 1]);
    return { span: this.span(start), base, pointers: 0, percpu };
  }

  private stars(): number {
    let n = 0;
    for (;;) {
      if (this.accept('*')) n++;
      else if (this.is('__percpu') || this.is('const') || this.is('volatile')) this.next();
      else return n;
    }
  }

  private declarators(firstStars?: number): Declarator[] {
    const out: Declarator[] = [];
    let stars = firstStars;
    for (;;) {
      const start = this.tok.span;
      const pointers = stars ?? this.stars();
      stars = undefined;
      const name = this.ident('a name').text;
      if (this.is('['))
        this.fail('arrays are not supported yet.', this.tok, 'Declare one variable per element.');
      const init = this.accept('=') ? this.initializer() : null;
      out.push({ span: this.span(start), name, pointers, init });
      if (!this.accept(',')) return out;
    }
  }

  private initializer(): Expr {
    if (!this.is('{')) return this.assignment();
    const open = this.next();
    const entries: { field: string | null; value: Expr }[] = [];
    while (!this.is('}')) {
      let field: string | null = null;
      if (this.accept('.')) {
        field = this.ident('a field name').text;
        this.expect('=');
      }
      entries.push({ field, value: this.initializer() });
      if (!this.accept(',')) break;
    }
    this.expect('}');
    return { kind: 'init-list', span: this.span(open.span), entries };
  }

  // ---- statements --------------------------------------------------------------------------

  /** `{ statements }`; `owner` names it in the error when its `}` is missing. */
  private block(owner = 'the block'): Stmt & { kind: 'block' } {
    const open = this.expect('{');
    const body: Stmt[] = [];
    while (!this.is('}')) {
      if (this.tok.kind === 'eof') this.unclosed(open, owner);
      const at = this.pos;
      try {
        body.push(this.statement());
      } catch (e) {
        // What fails to read as a statement but starts a line as a thread or a final clause
        // does is the program's next part: this block's `}` is missing before it.
        if (!(e instanceof LangFault)) throw e;
        if (this.startsItem(at)) this.unclosed(open, owner, at);
        this.report(e);
        this.prop = false;
        this.skipStatement(at);
      }
    }
    this.next();
    return { kind: 'block', span: this.span(open.span), body };
  }

  /**
   * The error for a block whose `}` is missing: placed where it is missing, after the last thing
   * the block holds, and naming the `{` it would close and what came instead.
   */
  private unclosed(open: Token, owner: string, at = this.pos): never {
    const next = this.toks[at] as Token;
    const last = this.toks[at - 1] ?? open;
    const line = (t: Token) => lineOf(this.text, t.span.start);
    const what =
      next.kind === 'eof'
        ? 'the end of the program'
        : `${this.describe(next)} on line ${line(next)}`;
    const hint =
      next.kind === 'ident' && CLAUSE_WORDS.has(next.text)
        ? 'A final clause comes after the threads.'
        : next.kind === 'ident' && THREAD_NAME.test(next.text)
          ? 'A thread starts after the `}` of what comes before it.'
          : '';
    throw new LangFault(
      { start: last.span.end, end: last.span.end },
      `expected \`}\` to close ${owner} (its \`{\` is on line ${line(open)}) before ${what}.`,
      hint,
    );
  }

  /**
   * Whether token `i` starts a line as a part of the program outside any function does: a
   * thread, a final clause, a directive, a per-CPU variable or lock, or a declaration at column 1.
   */
  private startsItem(i: number): boolean {
    const t = this.toks[i] as Token;
    const n = this.toks[i + 1] ?? t;
    const before = this.text.slice(0, t.span.start);
    const lineStart = before.lastIndexOf('\n') + 1;
    if (before.slice(lineStart).trim() !== '') return false;
    if (t.kind === 'directive') return true;
    if (t.text === '~') return this.is('exists', n);
    if (t.kind !== 'ident') return false;
    if ((THREAD_NAME.test(t.text) || /^DEFINE_/.test(t.text)) && this.is('(', n)) return true;
    if (CLAUSE_WORDS.has(t.text) && t.text !== 'final' && t.text !== 'always')
      return !(n.kind === 'punct' && !['(', '[', '{', '~'].includes(n.text));
    return t.span.start === lineStart && this.isTypeStart(t);
  }

  /** `( expression )`: the condition of if, while and do … while. */
  private condition(): Expr {
    this.expect('(');
    const cond = this.expression();
    this.expect(')');
    return cond;
  }

  private statement(): Stmt {
    return this.nest(() => this.statementInner());
  }

  private statementInner(): Stmt {
    const t = this.tok;
    const start = t.span;
    if (this.is('{')) return this.block();
    if (this.accept(';')) return { kind: 'empty', span: start };
    if (t.kind === 'ident') {
      switch (t.text) {
        case 'if': {
          this.next();
          const cond = this.condition();
          const then = this.statement();
          const otherwise = this.accept('else') ? this.statement() : null;
          return { kind: 'if', span: this.span(start), cond, then, otherwise };
        }
        case 'while': {
          this.next();
          const cond = this.condition();
          const body = this.statement();
          return { kind: 'while', span: this.span(start), cond, body };
        }
        case 'do': {
          this.next();
          const body = this.statement();
          this.expect('while', '`while` after the `do` body');
          const cond = this.condition();
          this.semicolon('`;`');
          return { kind: 'do', span: this.span(start), body, cond };
        }
        case 'for': {
          this.next();
          this.expect('(');
          let init: Stmt | null = null;
          if (!this.accept(';')) {
            if (this.isTypeStart()) init = this.declaration();
            else {
              const s = this.tok.span;
              const expr = this.expression();
              this.expect(';');
              init = { kind: 'expr', span: this.span(s), expr };
            }
          }
          const cond = this.is(';') ? null : this.expression();
          this.expect(';');
          const step = this.is(')') ? null : this.expression();
          this.expect(')');
          const body = this.statement();
          return { kind: 'for', span: this.span(start), init, cond, step, body };
        }
        case 'break':
        case 'continue':
          this.next();
          this.semicolon('`;`');
          return { kind: t.text, span: this.span(start) };
        case 'return': {
          this.next();
          const value = this.is(';') ? null : this.expression();
          this.semicolon('`;`');
          return { kind: 'return', span: this.span(start), value };
        }
        case 'goto': {
          this.next();
          const label = this.ident('a label').text;
          this.semicolon('`;`');
          return { kind: 'goto', span: this.span(start), label };
        }
        case 'switch':
        case 'case':
        case 'default':
          this.fail('`switch` is not supported.', t, 'Write it with if / else if.');
          break;
        default:
          break;
      }
      if (CPU_LOOPS.has(t.text) && this.is('(', this.peek())) {
        this.next();
        this.expect('(');
        const variable = this.ident('the CPU variable').text;
        const masks: Expr[] = [];
        // for_each_cpu_or(cpu, mask1, mask2): the CPUs in either mask.
        if (t.text === 'for_each_cpu_or') {
          this.expect(',');
          masks.push(this.expression());
          this.expect(',');
          masks.push(this.expression());
        }
        this.expect(')');
        const body = this.statement();
        return {
          kind: 'for-each-cpu',
          span: this.span(start),
          macro: t.text,
          variable,
          masks,
          body,
        };
      }
      if (this.is(':', this.peek()) && !KEYWORD_LIKE.has(t.text)) {
        this.next();
        this.next();
        // A label before `}` labels nothing, as C23 allows.
        const body: Stmt = this.is('}') ? { kind: 'empty', span: this.tok.span } : this.statement();
        return { kind: 'label', span: this.span(start), label: t.text, body };
      }
      if (this.isTypeStart()) return this.declaration();
    }
    const expr = this.expression();
    this.semicolon('`;` after the statement');
    return { kind: 'expr', span: this.span(start), expr };
  }

  private declaration(): Stmt {
    const start = this.tok.span;
    const type = this.type();
    const declarators = this.declarators();
    this.semicolon('`;` after the declaration');
    return { kind: 'decl', span: this.span(start), type, declarators };
  }

  // ---- expressions ----------------------------------------------------------------------------

  expression(): Expr {
    return this.assignment();
  }

  private assignment(): Expr {
    return this.nest(() => {
      const start = this.tok.span;
      const target = this.ternary();
      if (!this.prop && this.tok.kind === 'punct' && ASSIGN_OPS.has(this.tok.text)) {
        const op = this.next().text;
        const value = this.assignment();
        return { kind: 'assign', span: this.span(start), op, target, value };
      }
      return target;
    });
  }

  private ternary(): Expr {
    const start = this.tok.span;
    const cond = this.binary(0);
    if (!this.accept('?')) return cond;
    const then = this.assignment();
    this.expect(':', '`:` of `? :`');
    const otherwise = this.nest(() => this.ternary());
    return { kind: 'ternary', span: this.span(start), cond, then, otherwise };
  }

  private binary(level: number): Expr {
    if (level >= LEVELS.length) return this.unary();
    const ops = LEVELS[level] as readonly string[];
    const start = this.tok.span;
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'punct' || !ops.includes(t.text)) return left;
      // Outside final clauses `=` assigns, and herd7's connectives do not exist.
      if (!this.prop && (t.text === '=' || t.text === '/\\' || t.text === '\\/')) return left;
      this.next();
      const right = this.nest(() => this.binary(level + 1));
      left = { kind: 'binary', span: this.span(start), op: t.text as BinaryOp, left, right };
    }
  }

  private unary(): Expr {
    return this.nest(() => this.unaryInner());
  }

  private unaryInner(): Expr {
    const t = this.tok;
    const start = t.span;
    if (t.kind === 'punct') {
      if (t.text === '++' || t.text === '--') {
        this.next();
        const arg = this.unary();
        return { kind: 'incdec', span: this.span(start), op: t.text, prefix: true, arg };
      }
      // In final clauses `~` is herd7's `not`: it negates the atom after it (`~x=2`), and binds
      // tighter than `/\` and `\/`.
      if (this.prop && t.text === '~') {
        this.next();
        const arg = this.nest(() => this.binary(2));
        return { kind: 'unary', span: this.span(start), op: '!', arg };
      }
      if (['-', '+', '!', '~', '*', '&'].includes(t.text)) {
        this.next();
        const arg = this.unary();
        return { kind: 'unary', span: this.span(start), op: t.text as '-', arg };
      }
      if (t.text === '(' && this.isTypeStart(this.peek())) {
        this.next();
        const type = this.type();
        const stars = this.stars();
        this.expect(')', '`)` to close the cast');
        const arg = this.unary();
        return { kind: 'cast', span: this.span(start), type: withStars(type, stars), arg };
      }
    }
    if (this.prop && t.kind === 'ident' && t.text === 'not') {
      this.next();
      const arg = this.nest(() => this.binary(2));
      return { kind: 'unary', span: this.span(start), op: '!', arg };
    }
    if (t.kind === 'ident' && t.text === 'sizeof')
      this.fail('`sizeof` is not supported.', t, 'Write the size in words, or leave it out.');
    return this.postfix(this.primary());
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const t = this.tok;
      if (this.is('.') || this.is('->')) {
        this.next();
        const field = this.ident('a field name').text;
        e = { kind: 'member', span: this.span(e.span), object: e, field, arrow: t.text === '->' };
      } else if (this.is('++') || this.is('--')) {
        this.next();
        e = { kind: 'incdec', span: this.span(e.span), op: t.text as '++', prefix: false, arg: e };
      } else if (this.is('[') && this.prop) {
        // In final clauses, `sums[1]`: a value a record() made.
        this.next();
        const index = this.propExpr();
        this.expect(']');
        e = { kind: 'index', span: this.span(e.span), object: e, index };
      } else if (this.is('[')) {
        this.fail('arrays are not supported yet.', t, 'Use per_cpu(v, cpu) for a per-CPU element.');
      } else return e;
    }
  }

  private primary(): Expr {
    const t = this.tok;
    if (t.kind === 'number') {
      this.next();
      return { kind: 'num', span: t.span, value: t.value ?? 0n, text: t.text };
    }
    if (t.kind === 'regref') {
      if (!this.prop)
        this.fail(
          `\`${t.text}\` names a thread’s register, which only final clauses can read.`,
          t,
          'Put spaces around `:` in `a ? b : c`.',
        );
      this.next();
      const colon = t.text.indexOf(':');
      return {
        kind: 'regref',
        span: t.span,
        thread: Number(t.text.slice(0, colon)),
        name: t.text.slice(colon + 1),
      };
    }
    if (t.kind === 'ident') {
      if (KEYWORD_LIKE.has(t.text) && t.text !== 'true' && t.text !== 'false')
        this.fail(`\`${t.text}\` cannot start an expression.`);
      this.next();
      if (this.is('(')) {
        this.next();
        const args: Expr[] = [];
        while (!this.is(')')) {
          args.push(this.prop ? this.propExpr() : this.assignment());
          if (!this.accept(',')) break;
        }
        this.expect(')', `\`)\` to close the call of \`${t.text}\``);
        return { kind: 'call', span: this.span(t.span), callee: t.text, calleeSpan: t.span, args };
      }
      return { kind: 'name', span: t.span, name: t.text };
    }
    if (this.is('(')) {
      this.next();
      const e = this.prop ? this.propExpr() : this.expression();
      this.expect(')');
      // Keep the parentheses in the span, so errors and narration quote what was written.
      return { ...e, span: this.span(t.span) };
    }
    if (t.kind === 'string')
      this.fail('a string cannot be a value here.', t, 'Strings only describe invariants.');
    return this.fail(`expected a value, found ${this.describe(t)}.`, t);
  }
}

/** A string literal's text; an escape it cannot read is the writer's mistake, said as one. */
function stringValue(t: Token): string {
  try {
    return JSON.parse(t.text) as string;
  } catch {
    throw new LangFault(
      t.span,
      'this string has an escape the lab does not read.',
      'Write \\\\ for a backslash, \\" for a quote and \\n for a new line.',
    );
  }
}

/** The 1-based line of an offset into the text. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Statement words that cannot be a label or a variable: C's keywords, and true and false. */
const KEYWORD_LIKE: ReadonlySet<string> = new Set([...KEYWORDS, 'true', 'false']);

function withStars(t: TypeRef, stars: number): TypeRef {
  return stars === 0 ? t : { ...t, pointers: t.pointers + stars };
}

/** `unsigned long int` → `unsigned long`; `long long` → `long`; `signed` → `int`; null if none. */
function canonicalBase(words: readonly string[]): string | null {
  if (words.length === 1) {
    const w = words[0] as string;
    if (w === 'signed') return 'int';
    if (w === '_Bool') return 'bool';
    return w;
  }
  const unsigned = words.includes('unsigned');
  const rest = words.filter((w) => w !== 'unsigned' && w !== 'signed' && w !== 'int');
  if (rest.some((w) => !['long', 'short', 'char'].includes(w))) return null;
  const core = rest.includes('long')
    ? 'long'
    : rest.includes('short')
      ? 'short'
      : rest.includes('char')
        ? 'char'
        : 'int';
  return unsigned ? `unsigned ${core}` : core;
}
