// Where an add of the counter completes. The exact total (what every task has added so far) has
// to move at the step that makes the amount count, or Step's "exact" and the verdicts built on it
// would run ahead of memory (or behind it). Decided on the add call's own instructions once they
// are emitted: its last write to the counter's value on each path carries the amount; where the
// paths do not say that plainly, the call's return does. An analysis of emitted instructions, as
// loops.ts is; statements.ts calls it when an inlined add returns.

import { pairValue } from '../machine/int64.ts';
import { Cond, condHolds, Op, writesMemory } from '../machine/isa.ts';
import type { Draft, Emitter } from './emit.ts';
import { owners } from './gen.ts';
import { successors } from './loops.ts';

/** An add of the counter being compiled: where it starts and how much it adds. */
export interface AddCall {
  readonly start: number;
  readonly amount: bigint;
}

/** A loop's range of instructions (PassInfo's), moved when an instruction is inserted. */
export interface LoopRange {
  start: number;
  end: number;
  header: number;
}

/** An add call's instructions, `from` to `to` (exclusive), and which write the counter's value. */
interface AddCode {
  readonly drafts: readonly Draft[];
  readonly from: number;
  readonly to: number;
  readonly isWrite: (pc: number) => boolean;
}

/**
 * Where an add of the counter completes: its last write to the counter's value on each path
 * (the store that makes the amount count), so the exact total moves at that step. When some
 * path has no such write, or one is followed by another only sometimes, or the write is a LOCK
 * cmpxchg that may fail, the add completes at its call's return instead. `valueCells`: the
 * cells that hold the counter's value (the anatomy's); `loops`: the loops of the emitter's
 * thread, whose ranges move if a flag is inserted.
 */
export function tallyAdd(
  e: Emitter,
  valueCells: ReadonlySet<string>,
  add: AddCall,
  loops: LoopRange[],
): void {
  if (add.amount === 0n) return;
  const drafts = e.drafts;
  const code: AddCode = {
    drafts,
    from: add.start,
    to: e.here,
    isWrite: (pc) => {
      const d = drafts[pc] as Draft;
      const owner = owners.get(d);
      return owner !== undefined && owner !== null && valueCells.has(owner) && writesMemory(d.op);
    },
  };
  const last = lastWrites(code);
  if (last === null) {
    e.tally(add.amount);
    return;
  }
  for (const w of last) (drafts[w] as Draft).tally = Number(add.amount);
  if (cleanExit(code, [code.from])) flagWrites(e, last, add.amount, loops);
}

/**
 * The writes that end the add on each path, or null when the add's writes do not say where it
 * completes: there are none, one is a cmpxchg (which may fail), or after one the path may go
 * on to write again or leave without writing.
 */
function lastWrites(code: AddCode): number[] | null {
  const { drafts, from, to, isWrite } = code;
  const ws: number[] = [];
  for (let pc = from; pc < to; pc++) if (isWrite(pc)) ws.push(pc);
  const precise =
    ws.length > 0 &&
    ws.every((w) => {
      const d = drafts[w] as Draft;
      if (d.op === Op.Cmpxchg) return false;
      const next = successors(drafts, w);
      return !(reachesWrite(code, next) && cleanExit(code, next));
    });
  if (!precise) return null;
  return ws.filter((w) => !reachesWrite(code, successors(drafts, w)));
}

/**
 * The instructions allow a path with no write (a cmpxchg loop's exit, which only a failed
 * compare takes, and the compare is not visible to this analysis): a flag says whether the
 * call's write ran, and the call's end counts the add when it did not. The flag is 0 outside
 * the call, so it splits no state.
 */
function flagWrites(e: Emitter, last: readonly number[], amount: bigint, loops: LoopRange[]) {
  const flag = e.reg('%added');
  for (const w of [...last].sort((a, b) => b - a))
    e.insertAfter(w, { op: Op.Mov, dst: flag.index, useImm: true, immLo: 1, immHi: 0 }, loops);
  const skip = e.label();
  e.branch(Cond.Ne, flag, 0n, skip);
  e.tally(amount);
  e.bind(skip);
  e.mov(flag, 0n);
}

/** Can the call's end be reached from `pcs` without passing a write? */
function cleanExit(code: AddCode, pcs: readonly number[]): boolean {
  return walk(code, pcs, true).exit;
}

/** Can a write be reached from `pcs`? */
function reachesWrite(code: AddCode, pcs: readonly number[]): boolean {
  return walk(code, pcs, false).write;
}

/**
 * Walks the paths from `pcs` (stopping at writes when `stopAtWrites`), following a branch only
 * where it can go: registers set to constants on the way (a try_cmpxchg's success flag) decide
 * the branches that test them. Says whether the call's end is reached, and whether a write is.
 */
function walk(
  code: AddCode,
  pcs: readonly number[],
  stopAtWrites: boolean,
): { exit: boolean; write: boolean } {
  const { drafts, from, to, isWrite } = code;
  const seen = new Set<string>();
  const todo: [number, Map<number, bigint>][] = pcs.map((pc) => [pc, new Map<number, bigint>()]);
  let exit = false;
  let write = false;
  while (todo.length > 0) {
    const [pc, known] = todo.pop() as [number, Map<number, bigint>];
    if (pc < from || pc >= to) {
      exit = true;
      continue;
    }
    const key = `${pc}|${[...known].join(';')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (isWrite(pc)) {
      write = true;
      if (stopAtWrites) continue;
    }
    const d = drafts[pc] as Draft;
    const next = new Map(known);
    if (d.dst >= 0) {
      if (d.op === Op.Mov && d.useImm) next.set(d.dst, BigInt(pairValue(d.immLo, d.immHi)));
      else next.delete(d.dst);
    }
    let succs = successors(drafts, pc);
    if (d.op === Op.Branch) {
      const a = known.get(d.src);
      const b = d.useImm ? BigInt(pairValue(d.immLo, d.immHi)) : known.get(d.src2);
      if (a !== undefined && b !== undefined)
        succs = [condHolds(d.cond, a, b) ? (d.to?.pc ?? -1) : pc + 1];
    }
    for (const s2 of succs) todo.push([s2, next]);
  }
  return { exit, write };
}
