// A minimal WebAssembly binary writer: just what the CPU compiler emits (one memory import,
// i32 globals, functions of one type, exports) and the opcodes it uses, including the atomic
// ones of the threads proposal. A general toolkit (binaryen.js, wabt.js) is several megabytes
// of JavaScript and WebAssembly for a few dozen opcodes; WebAssembly.validate and the
// differential test against the interpreter check what this writes.
//
// Reference: https://webassembly.github.io/spec/core/binary/ and the threads proposal's
// opcode table (https://github.com/WebAssembly/threads/blob/main/proposals/threads/Overview.md).

/** Value types. */
export const I32 = 0x7f;
export const I64 = 0x7e;

/** Opcodes of single-byte instructions. */
export const Code = {
  unreachable: 0x00,
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  brTable: 0x0e,
  return: 0x0f,
  drop: 0x1a,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  globalGet: 0x23,
  globalSet: 0x24,
  i32Load: 0x28,
  i64Load: 0x29,
  i32Load8U: 0x2d,
  i64Load32S: 0x34,
  i64Load32U: 0x35,
  i32Store: 0x36,
  i64Store: 0x37,
  i32Store8: 0x3a,
  i64Store32: 0x3e,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eqz: 0x45,
  i32Eq: 0x46,
  i32Ne: 0x47,
  i32LtS: 0x48,
  i32LtU: 0x49,
  i32GtS: 0x4a,
  i32GtU: 0x4b,
  i32LeS: 0x4c,
  i32GeS: 0x4e,
  i32GeU: 0x4f,
  i64Eqz: 0x50,
  i64Eq: 0x51,
  i64Ne: 0x52,
  i64LtS: 0x53,
  i64GtS: 0x55,
  i64LeS: 0x57,
  i64GeS: 0x59,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Or: 0x72,
  i32Xor: 0x73,
  i32Shl: 0x74,
  i32ShrS: 0x75,
  i32ShrU: 0x76,
  i64Add: 0x7c,
  i64Sub: 0x7d,
  i64Mul: 0x7e,
  i64DivS: 0x7f,
  i64RemS: 0x81,
  i64And: 0x83,
  i64Or: 0x84,
  i64Xor: 0x85,
  i64Shl: 0x86,
  i64ShrS: 0x87,
  i64ShrU: 0x88,
  i32WrapI64: 0xa7,
  i64ExtendI32S: 0xac,
  i64ExtendI32U: 0xad,
  i64Extend32S: 0xc4,
} as const;

/** Atomic instructions: the 0xfe prefix, then this code. */
export const Atomic = {
  i32Load: 0x10,
  i64Load: 0x11,
  i32Store: 0x17,
  i64Store: 0x18,
  i32RmwAdd: 0x1e,
  i64RmwAdd: 0x1f,
  i32RmwAnd: 0x2c,
  i64RmwAnd: 0x2d,
  i32RmwOr: 0x33,
  i64RmwOr: 0x34,
  i32RmwXor: 0x3a,
  i64RmwXor: 0x3b,
  i32RmwXchg: 0x41,
  i64RmwXchg: 0x42,
  i32RmwCmpxchg: 0x48,
  i64RmwCmpxchg: 0x49,
} as const;

const ATOMIC_PREFIX = 0xfe;
/** Block type of a block that yields nothing. */
const EMPTY = 0x40;

/** Appends an unsigned LEB128 integer (up to 2^32 − 1). */
export function uleb(out: number[], value: number): void {
  let v = value >>> 0;
  do {
    const byte = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? byte : byte | 0x80);
  } while (v !== 0);
}

/** Appends a signed LEB128 integer (any 64-bit value). */
export function sleb(out: number[], value: bigint): void {
  let v = BigInt.asIntN(64, value);
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return;
  }
}

/**
 * A function body under construction, with structured labels: `br(label)` computes the
 * relative depth from the blocks open at that point, so the compiler names its targets.
 */
export class Body {
  readonly bytes: number[] = [];
  private readonly open: symbol[] = [];

  /** Opens a block (or loop, or if) and returns its label. */
  private enter(op: number, name: string): symbol {
    this.bytes.push(op, EMPTY);
    const label = Symbol(name);
    this.open.push(label);
    return label;
  }

  block(name = 'block'): symbol {
    return this.enter(Code.block, name);
  }
  loop(name = 'loop'): symbol {
    return this.enter(Code.loop, name);
  }
  /** `if` on the i32 on the stack. */
  if(name = 'if'): symbol {
    return this.enter(Code.if, name);
  }
  else(): this {
    this.bytes.push(Code.else);
    return this;
  }
  end(): this {
    if (this.open.pop() === undefined) throw new Error('end without an open block');
    this.bytes.push(Code.end);
    return this;
  }

  private depth(label: symbol): number {
    const i = this.open.lastIndexOf(label);
    if (i < 0) throw new Error(`branch to ${String(label.description)}, which is not open here`);
    return this.open.length - 1 - i;
  }
  br(label: symbol): this {
    this.bytes.push(Code.br);
    uleb(this.bytes, this.depth(label));
    return this;
  }
  brIf(label: symbol): this {
    this.bytes.push(Code.brIf);
    uleb(this.bytes, this.depth(label));
    return this;
  }
  brTable(labels: readonly symbol[], fallback: symbol): this {
    this.bytes.push(Code.brTable);
    uleb(this.bytes, labels.length);
    for (const l of labels) uleb(this.bytes, this.depth(l));
    uleb(this.bytes, this.depth(fallback));
    return this;
  }

  op(...codes: number[]): this {
    this.bytes.push(...codes);
    return this;
  }
  get(local: number): this {
    this.bytes.push(Code.localGet);
    uleb(this.bytes, local);
    return this;
  }
  set(local: number): this {
    this.bytes.push(Code.localSet);
    uleb(this.bytes, local);
    return this;
  }
  tee(local: number): this {
    this.bytes.push(Code.localTee);
    uleb(this.bytes, local);
    return this;
  }
  globalGet(g: number): this {
    this.bytes.push(Code.globalGet);
    uleb(this.bytes, g);
    return this;
  }
  globalSet(g: number): this {
    this.bytes.push(Code.globalSet);
    uleb(this.bytes, g);
    return this;
  }
  i32(v: number): this {
    this.bytes.push(Code.i32Const);
    sleb(this.bytes, BigInt(v | 0));
    return this;
  }
  i64(v: bigint): this {
    this.bytes.push(Code.i64Const);
    sleb(this.bytes, v);
    return this;
  }
  /** A plain memory access; `align` is log2 of the natural alignment, `offset` in bytes. */
  mem(code: number, align: number, offset: number): this {
    this.bytes.push(code);
    uleb(this.bytes, align);
    uleb(this.bytes, offset);
    return this;
  }
  /** An atomic memory access (always naturally aligned). */
  atomic(code: number, align: number, offset: number): this {
    this.bytes.push(ATOMIC_PREFIX);
    uleb(this.bytes, code);
    uleb(this.bytes, align);
    uleb(this.bytes, offset);
    return this;
  }
  /** atomic.fence: a sequentially consistent fence (MFENCE, or a LOCKed op, on x86). */
  fence(): this {
    this.bytes.push(ATOMIC_PREFIX, 0x03, 0x00);
    return this;
  }
  /** Closes the function body. */
  finish(): number[] {
    if (this.open.length !== 0) throw new Error(`${this.open.length} blocks left open`);
    this.bytes.push(Code.end);
    return this.bytes;
  }
}

export interface FunctionDef {
  readonly name: string;
  readonly params: readonly number[];
  readonly results: readonly number[];
  /** Types of the locals after the parameters. */
  readonly locals: readonly number[];
  readonly body: readonly number[];
}

export interface ModuleDef {
  /** The imported shared memory ("env" "memory"), in 64 KiB pages. */
  readonly memoryPages: number;
  /** Mutable i32 globals starting at 0, exported under these names. */
  readonly globals: readonly string[];
  readonly functions: readonly FunctionDef[];
}

/** Appends `more` (a loop: spreading a long array into push() overflows the stack). */
function append(out: number[], more: readonly number[]): void {
  for (const b of more) out.push(b);
}

function section(out: number[], id: number, content: number[]): void {
  out.push(id);
  uleb(out, content.length);
  append(out, content);
}

/** A name: ASCII only (export names are ours). */
function name(out: number[], s: string): void {
  uleb(out, s.length);
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i) & 0x7f);
}

/** Assembles a module: the bytes WebAssembly.Module takes. */
export function assemble(def: ModuleDef): Uint8Array {
  const out = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  // Types: one per distinct signature.
  const sigs: string[] = [];
  const typeOf = def.functions.map((f) => {
    const key = `${f.params.join(',')}>${f.results.join(',')}`;
    const at = sigs.indexOf(key);
    if (at >= 0) return at;
    sigs.push(key);
    return sigs.length - 1;
  });
  const types: number[] = [];
  uleb(types, sigs.length);
  for (const key of sigs) {
    const [params = '', results = ''] = key.split('>');
    const list = (s: string) => (s === '' ? [] : s.split(',').map(Number));
    types.push(0x60);
    uleb(types, list(params).length);
    types.push(...list(params));
    uleb(types, list(results).length);
    types.push(...list(results));
  }
  section(out, 1, types);

  const imports: number[] = [];
  uleb(imports, 1);
  name(imports, 'env');
  name(imports, 'memory');
  imports.push(0x02, 0x03); // a memory; limits: shared, with a maximum
  uleb(imports, def.memoryPages);
  uleb(imports, def.memoryPages);
  section(out, 2, imports);

  const funcs: number[] = [];
  uleb(funcs, def.functions.length);
  for (const t of typeOf) uleb(funcs, t);
  section(out, 3, funcs);

  if (def.globals.length > 0) {
    const globals: number[] = [];
    uleb(globals, def.globals.length);
    for (let i = 0; i < def.globals.length; i++)
      globals.push(I32, 0x01, Code.i32Const, 0, Code.end);
    section(out, 6, globals);
  }

  const exports: number[] = [];
  uleb(exports, def.functions.length + def.globals.length);
  def.functions.forEach((f, i) => {
    name(exports, f.name);
    exports.push(0x00);
    uleb(exports, i);
  });
  def.globals.forEach((g, i) => {
    name(exports, g);
    exports.push(0x03);
    uleb(exports, i);
  });
  section(out, 7, exports);

  const code: number[] = [];
  uleb(code, def.functions.length);
  for (const f of def.functions) {
    const body: number[] = [];
    // Locals as runs of one type.
    const runs: [number, number][] = [];
    for (const t of f.locals) {
      const last = runs[runs.length - 1];
      if (last && last[1] === t) last[0]++;
      else runs.push([1, t]);
    }
    uleb(body, runs.length);
    for (const [n, t] of runs) {
      uleb(body, n);
      body.push(t);
    }
    append(body, f.body);
    uleb(code, body.length);
    append(code, body);
  }
  section(out, 10, code);
  return Uint8Array.from(out);
}
