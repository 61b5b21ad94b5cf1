// Positions in a program's text and the errors that point at them. Errors are values with spans,
// never exceptions across the layer's boundary: the editor underlines them, the CLI prints
// `file:line:col: message`, and both show the offending text.

/** A half-open range [start, end) of character offsets into the source. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export const NO_SPAN: Span = { start: 0, end: 0 };

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly col: number;
}

/** What is wrong, where, and (when there is one) what to try. */
export interface LangError {
  readonly span: Span;
  /** One sentence: what is wrong. */
  readonly message: string;
  /** One sentence: what to try ("did you mean `this_cpu_add`?"), or ''. */
  readonly hint: string;
}

/** Thrown inside the layer only; every public entry point turns it into a LangError value. */
export class LangFault extends Error {
  constructor(
    readonly span: Span,
    message: string,
    readonly hint = '',
  ) {
    super(message);
  }

  toError(): LangError {
    return { span: this.span, message: this.message, hint: this.hint };
  }
}

/** Several errors found at once, each a real one; as a LangFault, the first of them. */
export class LangFaults extends LangFault {
  constructor(readonly all: readonly [LangError, ...LangError[]]) {
    super(all[0].span, all[0].message, all[0].hint);
  }

  /** Throws the errors collected, if there are any. */
  static throwAny(errors: readonly LangError[]): void {
    const [first, ...rest] = errors;
    if (first) throw new LangFaults([first, ...rest]);
  }
}

/** Where each line starts, to turn offsets into lines and columns. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  get lines(): number {
    return this.starts.length;
  }

  position(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - (this.starts[lo] as number) + 1 };
  }

  /** The text of 1-based line n, without its newline. */
  lineText(n: number): string {
    const start = this.starts[n - 1] ?? this.text.length;
    const next = this.starts[n];
    return this.text.slice(start, next === undefined ? this.text.length : next - 1);
  }
}

/** `line 7, column 3: message` (and the hint), for one error. */
export function describeError(map: LineMap, e: LangError): string {
  const { line, col } = map.position(e.span.start);
  return `line ${line}, column ${col}: ${e.message}${e.hint ? ` ${e.hint}` : ''}`;
}

/**
 * An error as a compiler prints it: `file:line:col: message`, the source line, and a caret
 * under the span (Rust's and Elm's habit), then the hint.
 */
export function formatError(map: LineMap, e: LangError, file = 'program'): string {
  const { line, col } = map.position(e.span.start);
  const raw = map.lineText(line);
  // What a terminal shows of the text: tabs as spaces, control characters as U+XXXX.
  const shown = (t: string) => printable(t.replace(/\t/g, '    '));
  const before = shown(raw.slice(0, col - 1)).length;
  const endPos = map.position(Math.max(e.span.start, e.span.end - 1));
  const width =
    endPos.line === line ? Math.max(1, shown(raw.slice(col - 1, endPos.col)).length) : 1;
  const gutter = String(line).length;
  const out = [
    `${file}:${line}:${col}: ${printable(e.message)}`,
    `${' '.repeat(gutter)} |`,
    `${line} | ${shown(raw)}`,
    `${' '.repeat(gutter)} | ${' '.repeat(before)}${'^'.repeat(width)}`,
  ];
  if (e.hint) out.push(`${' '.repeat(gutter)} = ${printable(e.hint)}`);
  return out.join('\n');
}

// Characters a terminal would act on or could not show: C0 and C1 controls, DEL, the byte-order
// mark, the line and paragraph separators, and a surrogate without its pair.
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\ufeff\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text with every unprintable character written as U+XXXX (NUL: U+0000), for a terminal. */
export function printable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/** Levenshtein distance, for "did you mean" (small strings only). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = cur;
    }
  }
  return row[b.length] as number;
}

/** The closest of `names` to `name` (within a third of its length), for a hint, or null. */
export function closest(name: string, names: Iterable<string>): string | null {
  let best: string | null = null;
  let bestD = Math.max(1, Math.floor(name.length / 3));
  for (const n of names) {
    const d = editDistance(name, n);
    if (d < bestD || (d === bestD && best === null)) {
      best = n;
      bestD = d;
    }
  }
  return best;
}

/** `did you mean `x`?` when a close name exists, else ''. */
export function didYouMean(name: string, names: Iterable<string>): string {
  const c = closest(name, names);
  return c === null || c === name ? '' : `Did you mean \`${c}\`?`;
}
