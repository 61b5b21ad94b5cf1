// Named memory cells and result slots of a machine.
//
// Memory is an array of 32-bit words. A kernel `s64` (fbc->count, atomic64_t) takes two words,
// low word first, aligned to an even word so that a live worker can also reach it as one 64-bit
// element of a BigInt64Array. Per-CPU variables are arrays with one element per CPU; in the
// compact layout (the model) they are adjacent, in the padded layout (live workers) each element
// sits on its own 64-byte cache line, as Live mode needs (docs/machine.md).

import { hiOf, loOf } from './int64.ts';

export type CellType = 's32' | 's64' | 'lock';

/** A global cell: one word (s32, lock) or two (s64). */
export interface Cell {
  readonly perCpu: false;
  /** Identifier used by observables and `--set` (e.g. "count"). */
  readonly name: string;
  /** Pseudo-C spelling used in narration (e.g. "fbc->count"). */
  readonly label: string;
  readonly type: CellType;
  readonly addr: number;
}

/** A per-CPU variable: element i of CPU i at base + i × stride. */
export interface PerCpuCell {
  readonly perCpu: true;
  readonly name: string;
  readonly label: string;
  readonly type: CellType;
  readonly base: number;
  readonly stride: number;
  readonly count: number;
}

export type AnyCell = Cell | PerCpuCell;

/** Where a task writes what its sum() or read() returned: a count, then 64-bit values. */
export interface ResultSlot {
  readonly name: string;
  readonly label: string;
  /** Offset (in the results region) of the count word; values follow as (lo, hi) pairs. */
  readonly offset: number;
  readonly capacity: number;
}

/**
 * What a program's counter is made of, as the program declares it (docs/language.md): the
 * charts, Live and Scaling read this instead of guessing from cell names.
 */
export interface CounterAnatomy {
  /** The global part's cell (fbc->count, nr_files), or null. */
  readonly count: string | null;
  /** The per-CPU deltas' cell, or null. */
  readonly deltas: string | null;
  /** Other cells of the value (slowcount). */
  readonly parts: readonly string[];
  /** The threshold drawn on the deltas, or null. */
  readonly batch: number | null;
  /** What the threshold is called: a delta reaching ±batch folds, one passing ±threshold does. */
  readonly limit: 'batch' | 'threshold';
  /**
   * A word that holds the value shifted left by one while its bit 0 is set (atomic mode), until
   * the per-CPU counter's pointer replaces it (mm's RSS counter upgrade), or null.
   */
  readonly tagged: string | null;
  /** Words a sequence chart draws, and what each means. */
  readonly sequences: readonly {
    readonly cell: string;
    readonly kind: 'inflight' | 'changes' | 'sums' | 'folds';
  }[];
}

export interface Layout {
  readonly cells: readonly AnyCell[];
  readonly memWords: number;
  readonly results: readonly ResultSlot[];
  readonly resultWords: number;
  /** Initial memory contents. */
  readonly initial: Int32Array;
  /** Every cell and per-CPU element sits on a 64-byte line of its own. */
  readonly padded: boolean;
  /**
   * The live workers' layout: memory ends on a whole line and the machine gives each context
   * record whole lines, since the CPU running it writes them at every step.
   */
  readonly lines: boolean;
  /** The counter the program declares, or null. */
  readonly counter: CounterAnatomy | null;
}

/** How a layout places its cells: compact (the model's default) or for live workers. */
export interface LayoutOptions {
  /**
   * Live workers: every variable and per-CPU element on its own 64-byte line (docs/machine.md), so
   * a slot update does not invalidate another CPU's line; context records on lines of their own.
   * The fields of one struct (cells named `s.a`, `s.b`, declared one after the other) stay
   * together on their line, as C lays out a struct: a percpu_counter's lock and count share one.
   */
  readonly padded?: boolean;
  /**
   * With `padded`: the cells stay adjacent as in the model, only the context records get lines
   * of their own, to measure what false sharing of the counter's own slots costs.
   */
  readonly packedCells?: boolean;
}

/** Words in a 64-byte cache line: what padded layouts (live workers) put each CPU's data on. */
export const LINE_WORDS = 16;

/** `words` rounded up to whole cache lines. */
export function wholeLines(words: number): number {
  return Math.ceil(words / LINE_WORDS) * LINE_WORDS;
}

function wordsOf(type: CellType): number {
  return type === 's64' ? 2 : 1;
}

/** Builds a layout cell by cell (see LayoutOptions; `true` means padded). */
export class LayoutBuilder {
  private readonly cells: AnyCell[] = [];
  private readonly results: ResultSlot[] = [];
  private readonly inits: { addr: number; type: CellType; value: number | bigint }[] = [];
  private next = 0;
  /** Padded: the struct whose field was placed last, and where its line ends. */
  private struct: { name: string; lineEnd: number } | null = null;
  private resultNext = 0;
  /** Cells on lines of their own. */
  private readonly padded: boolean;
  private readonly lines: boolean;
  private counter: CounterAnatomy | null = null;

  constructor(
    readonly cpus: number,
    options: LayoutOptions | boolean = {},
  ) {
    const o = typeof options === 'boolean' ? { padded: options } : options;
    this.lines = o.padded === true;
    this.padded = this.lines && o.packedCells !== true;
  }

  private alloc(words: number): number {
    if (this.padded) {
      this.next = wholeLines(this.next);
    } else if (words === 2 && this.next % 2 === 1) {
      this.next += 1;
    }
    const addr = this.next;
    this.next += this.padded ? LINE_WORDS : words;
    return addr;
  }

  /**
   * Padded: the next field of the struct placed last goes right after it, aligned to its size,
   * when it fits on the same line; null when it does not (or it is no such field).
   */
  private besideField(name: string, words: number): number | null {
    const dot = name.indexOf('.');
    const struct = dot > 0 ? name.slice(0, dot) : null;
    const last = this.struct;
    this.struct = null;
    if (!this.padded || struct === null) return null;
    let addr: number | null = null;
    if (last?.name === struct) {
      const at = words === 2 && this.next % 2 === 1 ? this.next + 1 : this.next;
      if (at + words <= last.lineEnd) addr = at;
    }
    if (addr === null) return null;
    this.next = addr + words;
    this.struct = last;
    return addr;
  }

  /** A global cell with an initial value. */
  cell(name: string, label: string, type: CellType, init: number | bigint = 0): Cell {
    const words = wordsOf(type);
    let addr = this.besideField(name, words);
    if (addr === null) {
      addr = this.alloc(words);
      const dot = name.indexOf('.');
      if (this.padded && dot > 0) {
        // The struct's first field: the rest of its line is kept for the next ones.
        this.struct = { name: name.slice(0, dot), lineEnd: addr + LINE_WORDS };
        this.next = addr + words;
      }
    }
    const cell: Cell = { perCpu: false, name, label, type, addr };
    this.cells.push(cell);
    this.inits.push({ addr, type, value: init });
    return cell;
  }

  /** A per-CPU variable; `init[i]` is CPU i's initial value (missing entries are 0). */
  perCpu(
    name: string,
    label: string,
    type: CellType,
    init: readonly (number | bigint)[] = [],
  ): PerCpuCell {
    const words = wordsOf(type);
    this.struct = null;
    const stride = this.padded ? LINE_WORDS : words;
    if (!this.padded && words === 2 && this.next % 2 === 1) this.next += 1;
    if (this.padded) this.next = wholeLines(this.next);
    const base = this.next;
    this.next += stride * this.cpus;
    const cell: PerCpuCell = { perCpu: true, name, label, type, base, stride, count: this.cpus };
    this.cells.push(cell);
    for (let i = 0; i < this.cpus; i++) {
      this.inits.push({ addr: base + i * stride, type, value: init[i] ?? 0 });
    }
    return cell;
  }

  /** A slot for the values a task's sum() or read() returns, up to `capacity` of them. */
  result(name: string, label: string, capacity = 1): ResultSlot {
    const slot: ResultSlot = { name, label, offset: this.resultNext, capacity };
    this.resultNext += 1 + 2 * capacity;
    this.results.push(slot);
    return slot;
  }

  /** The per-CPU variable of this name, if one was declared. */
  perCpuNamed(name: string): PerCpuCell | undefined {
    const c = this.cells.find((x) => x.name === name);
    return c?.perCpu ? c : undefined;
  }

  /** Declares what the layout's counter is made of (see CounterAnatomy). */
  declareCounter(a: CounterAnatomy): void {
    this.counter = a;
  }

  build(): Layout {
    const memWords = this.lines ? wholeLines(this.next) : this.next;
    const initial = new Int32Array(memWords);
    for (const { addr, type, value } of this.inits) {
      initial[addr] = loOf(value);
      if (type === 's64') initial[addr + 1] = hiOf(value);
    }
    return {
      cells: this.cells,
      memWords,
      results: this.results,
      resultWords: this.resultNext,
      initial,
      padded: this.padded,
      lines: this.lines,
      counter: this.counter,
    };
  }
}

/** The cell that holds word `addr`, with the CPU index for per-CPU cells and the half for s64. */
export function cellAt(
  layout: Layout,
  addr: number,
): { cell: AnyCell; cpu: number; half: 'lo' | 'hi' | '' } | undefined {
  for (const cell of layout.cells) {
    const words = wordsOf(cell.type);
    if (cell.perCpu) {
      const rel = addr - cell.base;
      if (rel < 0 || rel >= cell.stride * cell.count) continue;
      const cpu = Math.floor(rel / cell.stride);
      const within = rel - cpu * cell.stride;
      if (within >= words) continue;
      return { cell, cpu, half: words === 2 ? (within === 0 ? 'lo' : 'hi') : '' };
    }
    if (addr >= cell.addr && addr < cell.addr + words) {
      return { cell, cpu: -1, half: words === 2 ? (addr === cell.addr ? 'lo' : 'hi') : '' };
    }
  }
  return undefined;
}
