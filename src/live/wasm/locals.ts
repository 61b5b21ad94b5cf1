// The locals of a compiled context's function, shared by the CPU compiler (codegen.ts) and the
// whole-loop compiler of the bare tier (loop.ts), which emit into the same function.

/** Counters a compiled CPU keeps in exported globals (cumulative). */
export const COUNTERS = ['folds', 'bumps', 'spins', 'repeats', 'retried', 'maxRetries'] as const;
export type CounterName = (typeof COUNTERS)[number];
export const G = Object.fromEntries(COUNTERS.map((c, i) => [c, i])) as Record<CounterName, number>;

// The two parameters, then fixed scratch locals, then one i64 per register.
export const L_BUDGET = 0;
export const L_FLAGS = 1;
export const L_PC = 2;
export const L_PRE = 3;
export const L_IRQ = 4;
export const L_RETRIES = 5;
export const L_GUARD = 6;
export const L_CODE = 7;
export const L_DELIVER = 8;
export const L_A = 9; // byte address of the access in progress
export const L_N = 10;
export const L_T = 11;
export const L_LOOPS = 12; // bare tier: backward jumps left before the burst returns
export const L_CHUNK = 13; // bare tier's loop: restarts the loop may still make in this chunk
// The value an atomic add expects to find: the last it saw, plus what it added (codegen.ts).
export const L_GUESS = 14;
export const L_COUNTERS = 15; // one i32 per COUNTERS entry
export const L_V = L_COUNTERS + COUNTERS.length; // i64 scratch
export const L_TALLY = L_V + 1; // bare tier: the context's tally (written back, or through)
export const L_REGS = L_V + 2;
export const FIXED_I32 = [
  L_PC,
  L_PRE,
  L_IRQ,
  L_RETRIES,
  L_GUARD,
  L_CODE,
  L_DELIVER,
  L_A,
  L_N,
  L_T,
  L_LOOPS,
  L_CHUNK,
  L_GUESS,
  ...COUNTERS.map((_, i) => L_COUNTERS + i),
];
