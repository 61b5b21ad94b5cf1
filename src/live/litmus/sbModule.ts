// The store-buffering litmus test (SB, "Dekker") on real cores: the WebAssembly module both
// threads run. Thread 0 does `x = 1; r0 = y`, thread 1 does `y = 1; r1 = x`, with plain
// i32.store and i32.load; under sequential consistency one of the stores comes first, so at
// least one load sees a 1. The outcome r0 = 0, r1 = 0 is the store buffer showing: each core's
// load ran while its own store still sat in its store buffer, unseen by the other core. x86-TSO
// allows it; a full fence between the store and the load (WebAssembly's atomic.fence, MFENCE on
// x86) on both sides forbids it.
//
// One module, one exported function per variant (`plain`, `one-mb`, `mb`), each
// `run(role, tries, jitter, spinLimit) -> i32`. A run does all its tries inside WebAssembly, as
// litmus7 does: no JavaScript between two tries, no message per try.
//
// A try, for thread t at try number g (1, 2, …, the same sequence on both threads):
//   1. barrier: atomic-store g into own flag, spin on atomic loads of the other's flag until
//      it reaches g. The two threads leave the spin within about one cache-line transfer of each
//      other, so their stores and loads overlap (the window the outcome needs). The atomic store
//      is a full fence on x86 (xchg): each try starts with an empty store buffer.
//   2. optionally wait 0..jitter−1 turns of an empty loop (a per-thread xorshift), to spread
//      the two threads' timing over the window when the barrier alone skews them;
//   3. plain store of g to own variable, atomic.fence if this variant fences this role,
//      plain load of the other variable, and r = (loaded value >= g) into this try's result byte.
// "Resetting x and y" is done by the values themselves: each try stores its own try number, so a
// load that reads an older number (or the initial 0) read "0", the try's store not yet seen. No
// newer number can be read: the other thread cannot pass the next barrier before this load.
// So each plain access really goes to memory: every try is separated from the next by the
// barrier's atomics (V8 moves no memory access across them), and the value compared changes
// every try, so a load kept in a register (the probe's concern, src/live/probe.ts) would give
// r = 0 in every try and show up as 00 under `mb` too, which a fenced run never shows. V8's
// TurboFan code for `plain` on x64 is the test's shape exactly: `mov [x], g; mov r, [y]`, and
// for `mb` the same with `mfence` between.
//
// Every `chunk` tries both threads meet at a barrier, thread 0 counts the chunk's outcomes from
// the two result arrays into four counters in memory, and they meet again before the next chunk:
// results need 2 × chunk bytes whatever the number of tries.
//
// A spin gives up after `spinLimit` turns, or when the abort word is set (by the other thread
// giving up, or by the page cancelling): the function then returns −1. Otherwise it returns the
// tries done.

import { assemble, Atomic, Body, Code, I32 } from '../wasm/encoder.ts';
import { WASM_PAGE } from '../wasm/runtime.ts';

/** The variants: which roles put a full fence between their store and their load. */
export const SB_VARIANTS = ['plain', 'one-mb', 'mb'] as const;
export type SbVariant = (typeof SB_VARIANTS)[number];

/** Whether role 0 and role 1 fence, per variant. */
export const SB_FENCES: Readonly<Record<SbVariant, readonly [boolean, boolean]>> = {
  plain: [false, false],
  'one-mb': [true, false],
  mb: [true, true],
};

/** The export that runs a variant. */
export function sbExport(v: SbVariant): string {
  return `run_${v.replace('-', '_')}`;
}

const LINE = 64;

/** Byte offsets inside the test's region; each word that two threads touch has its own line. */
export const SbAt = {
  flag0: 0,
  flag1: LINE,
  x: 2 * LINE,
  y: 3 * LINE,
  /** Non-zero: every spin gives up (a thread that gave up, or the page cancelling). */
  abort: 4 * LINE,
  /** Four i32 counts, by outcome index r0 + 2·r1 (thread 0 writes them). */
  counts: 5 * LINE,
  /** Thread 0's result bytes, then thread 1's, `chunk` each (rounded up to lines). */
  results: 6 * LINE,
} as const;

export interface SbLayout {
  /** Byte offset of the region in the memory (a multiple of 64). */
  readonly base: number;
  /** Tries between two countings. */
  readonly chunk: number;
  /** Bytes of the region. */
  readonly bytes: number;
  /** Size of the shared memory the module imports, in 64 KiB pages. */
  readonly memoryPages: number;
}

export const DEFAULT_CHUNK = 16384;

export function sbLayout(chunk = DEFAULT_CHUNK, base = 0): SbLayout {
  if (!Number.isInteger(chunk) || chunk < 1 || chunk > 1 << 24) {
    throw new Error(`chunk must be an integer from 1 to 2^24, not ${chunk}`);
  }
  if (!Number.isInteger(base) || base < 0 || base % LINE !== 0) {
    throw new Error(`base must be a non-negative multiple of ${LINE}, not ${base}`);
  }
  const lines = Math.ceil(chunk / LINE) * LINE;
  const bytes = SbAt.results + 2 * lines;
  return { base, chunk, bytes, memoryPages: Math.max(1, Math.ceil((base + bytes) / WASM_PAGE)) };
}

/** Byte offset of role r's result array. */
export function resultsOf(l: SbLayout, role: number): number {
  return l.base + SbAt.results + role * Math.ceil(l.chunk / LINE) * LINE;
}

// Parameters and locals of a run function.
const P_ROLE = 0;
const P_TRIES = 1;
const P_JITTER = 2;
const P_LIMIT = 3;
const L_G = 4; // barrier generation: the try number, and the value stored
const L_DONE = 5; // tries done
const L_K = 6; // index in the chunk
const L_END = 7; // tries in this chunk
const L_S = 8; // spin turns
const L_SEED = 9;
const L_D = 10; // delay turns
const L_I = 11; // counting index
const LOCALS = 8;

const ABORTED = -1;

class SideCompiler {
  private readonly b: Body;
  private readonly flagOwn: number;
  private readonly flagOther: number;
  private readonly own: number;
  private readonly other: number;
  private readonly abort: number;

  constructor(
    b: Body,
    private readonly l: SbLayout,
    private readonly role: 0 | 1,
    private readonly fence: boolean,
  ) {
    this.b = b;
    const at = (o: number) => l.base + o;
    this.flagOwn = at(role === 0 ? SbAt.flag0 : SbAt.flag1);
    this.flagOther = at(role === 0 ? SbAt.flag1 : SbAt.flag0);
    this.own = at(role === 0 ? SbAt.x : SbAt.y);
    this.other = at(role === 0 ? SbAt.y : SbAt.x);
    this.abort = at(SbAt.abort);
  }

  /** Next generation, then the barrier: publish it, wait for the other thread to reach it. */
  private barrier(): void {
    const b = this.b;
    b.get(L_G).i32(1).op(Code.i32Add).set(L_G);
    b.i32(0).get(L_G).atomic(Atomic.i32Store, 2, this.flagOwn);
    b.i32(0).set(L_S);
    const met = b.block('met');
    const spin = b.loop('spin');
    b.i32(0).atomic(Atomic.i32Load, 2, this.flagOther).get(L_G).op(Code.i32GeU).brIf(met);
    b.get(L_S).i32(1).op(Code.i32Add).tee(L_S);
    // Every 65536 turns: has anyone given up, or has this thread waited too long?
    b.i32(0xffff).op(Code.i32And).op(Code.i32Eqz).if('check');
    b.i32(0).atomic(Atomic.i32Load, 2, this.abort).if('aborted');
    b.i32(ABORTED).op(Code.return).end();
    b.get(L_S).get(P_LIMIT).op(Code.i32GeU).if('tooLong');
    b.i32(0).i32(1).atomic(Atomic.i32Store, 2, this.abort);
    b.i32(ABORTED).op(Code.return).end();
    b.end(); // check
    b.br(spin);
    b.end(); // spin
    b.end(); // met
  }

  /** 0..jitter−1 turns of an empty loop, drawn by xorshift32 (jitter 0: none). */
  private delay(): void {
    const b = this.b;
    b.get(P_JITTER).if('jitter');
    b.get(L_SEED).get(L_SEED).i32(13).op(Code.i32Shl).op(Code.i32Xor).set(L_SEED);
    b.get(L_SEED).get(L_SEED).i32(17).op(Code.i32ShrU).op(Code.i32Xor).set(L_SEED);
    b.get(L_SEED).get(L_SEED).i32(5).op(Code.i32Shl).op(Code.i32Xor).set(L_SEED);
    // d = (seed >>> 16) · jitter >>> 16, below jitter for jitter < 2^16.
    b.get(L_SEED).i32(16).op(Code.i32ShrU).get(P_JITTER).op(Code.i32Mul).i32(16).op(Code.i32ShrU);
    b.set(L_D);
    const done = b.block('waited');
    const wait = b.loop('wait');
    b.get(L_D).op(Code.i32Eqz).brIf(done);
    b.get(L_D).i32(1).op(Code.i32Sub).set(L_D);
    b.br(wait);
    b.end();
    b.end();
    b.end(); // jitter
  }

  /** The test itself: store, maybe fence, load, record. */
  private attempt(): void {
    const b = this.b;
    b.i32(0).get(L_G).mem(Code.i32Store, 2, this.own);
    if (this.fence) b.fence();
    b.get(L_K);
    b.i32(0).mem(Code.i32Load, 2, this.other).get(L_G).op(Code.i32GeU);
    b.mem(Code.i32Store8, 0, resultsOf(this.l, this.role));
  }

  /** Thread 0, between the chunk's two barriers: counts[r0 + 2·r1] += 1 for each try. */
  private count(): void {
    const b = this.b;
    const counts = this.l.base + SbAt.counts;
    b.i32(0).set(L_I);
    const done = b.block('counted');
    const next = b.loop('count');
    b.get(L_I).get(L_END).op(Code.i32GeU).brIf(done);
    // address of the count: counts + 4·(r0 + 2·r1)
    b.get(L_I).mem(Code.i32Load8U, 0, resultsOf(this.l, 0));
    b.get(L_I).mem(Code.i32Load8U, 0, resultsOf(this.l, 1)).i32(1).op(Code.i32Shl).op(Code.i32Or);
    b.i32(2).op(Code.i32Shl).tee(L_S);
    b.get(L_S).mem(Code.i32Load, 2, counts).i32(1).op(Code.i32Add);
    b.mem(Code.i32Store, 2, counts);
    b.get(L_I).i32(1).op(Code.i32Add).set(L_I);
    b.br(next);
    b.end();
    b.end();
  }

  compile(): void {
    const b = this.b;
    b.i32(0).set(L_G).i32(0).set(L_DONE);
    b.i32(this.role === 0 ? 0x2545f491 : 0x9e3779b9).set(L_SEED);
    const out = b.block('out');
    const chunks = b.loop('chunks');
    b.get(L_DONE).get(P_TRIES).op(Code.i32GeS).brIf(out);
    // end = min(chunk, tries − done)
    b.get(P_TRIES).get(L_DONE).op(Code.i32Sub).set(L_END);
    b.i32(this.l.chunk).get(L_END).get(L_END).i32(this.l.chunk).op(Code.i32GtS).op(Code.select);
    b.set(L_END);
    b.i32(0).set(L_K);
    const tries = b.loop('tries');
    this.barrier();
    this.delay();
    this.attempt();
    b.get(L_K).i32(1).op(Code.i32Add).tee(L_K).get(L_END).op(Code.i32LtS).brIf(tries);
    b.end(); // tries
    b.get(L_DONE).get(L_END).op(Code.i32Add).set(L_DONE);
    this.barrier();
    if (this.role === 0) this.count();
    this.barrier();
    b.br(chunks);
    b.end(); // chunks
    b.end(); // out
    b.get(L_DONE);
  }
}

function runFunction(l: SbLayout, v: SbVariant): number[] {
  const b = new Body();
  const [fence0, fence1] = SB_FENCES[v];
  // Two specialised copies, so the tested window holds no branch and no role arithmetic.
  b.get(P_ROLE).if('role1');
  new SideCompiler(b, l, 1, fence1).compile();
  b.op(Code.return);
  b.end();
  new SideCompiler(b, l, 0, fence0).compile();
  return b.finish();
}

/** The module's bytes: imports `env.memory` (shared, `layout.memoryPages` pages). */
export function sbModule(layout: SbLayout): Uint8Array {
  return assemble({
    memoryPages: layout.memoryPages,
    globals: [],
    functions: SB_VARIANTS.map((v) => ({
      name: sbExport(v),
      params: [I32, I32, I32, I32],
      results: [I32],
      locals: Array.from({ length: LOCALS }, () => I32),
      body: runFunction(layout, v),
    })),
  });
}

/** Outcome index r0 + 2·r1 → its name, "r0r1". */
export const SB_OUTCOMES = ['00', '10', '01', '11'] as const;
export type SbOutcome = (typeof SB_OUTCOMES)[number];
