// A program's final clauses as the explorer and the screens use them: the observables an
// outcome reports, the invariants it is judged by, and herd7's condition. The observables are
// the program's `observe` clauses and `record()` names; a litmus file without them observes what
// herd7 would show: its `locations` and every location its condition reads.

import type { Machine } from '../machine/machine.ts';
import { childExprs, type Expr, type Item, type Stmt } from './ast.ts';
import { builtinInvariant } from './builtins.ts';
import type {
  ClauseValue,
  CompiledProgram,
  Condition,
  LangInvariant,
  LangObservable,
  ProgramClauses,
  Scalar,
} from './compiled.ts';
import { locationText, readerOf as readerOfWhole } from './evaluate.ts';
import { readResults } from '../machine/read.ts';
import { isLitmusText } from './litmusText.ts';
import { LangFault, LangFaults, type LangError } from './source.ts';

const num = (v: bigint): number | bigint =>
  v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;

const scalar = (v: Scalar): ClauseValue => (v === null ? null : num(v));

/** The clauses of a compiled program; throws LangFault for a clause that does not make sense. */
export function clausesOf(p: CompiledProgram): ProgramClauses {
  const observables: LangObservable[] = [];
  const named = new Set<string>();
  const add = (o: LangObservable, at: Expr | Item) => {
    if (named.has(o.name))
      throw new LangFault(at.span, `the observable \`${o.name}\` is named twice.`);
    named.add(o.name);
    observables.push(o);
  };
  const recordObservable = (name: string): LangObservable => {
    const many = (p.recordCounts.get(name) ?? 1) > 1;
    return {
      name,
      description: many
        ? `every value recorded as ${name}`
        : `the value recorded as ${name} (none until it is)`,
      read: (m, s) => {
        const v = readResults(m, s, name);
        if (many) return v;
        return v.length === 0 ? null : (v[v.length - 1] as number | bigint);
      },
    };
  };
  // The hotplug masks by name (a program with DEADk() declares them): their values are CPU sets.
  const isMask = (e: Expr): boolean =>
    p.module.hotplug !== null &&
    e.kind === 'name' &&
    (e.name === 'cpu_online_mask' || e.name === 'cpu_dying_mask');
  const location = (e: Expr): LangObservable => {
    const r = readerOf(p, e);
    const text = locationText(p, e);
    return {
      name: text,
      description: `the value of ${text}`,
      read: (m, s) => scalar(r(m, s)),
      ...(isMask(e) ? { cpuSet: true as const } : {}),
    };
  };
  const invariants: LangInvariant[] = [];
  let condition: Condition | null = null;
  let filter: ProgramClauses['filter'] = null;
  const props: Expr[] = [];
  const herd = new Map<
    string,
    { text: string; read: (m: Machine, s: Int32Array) => Scalar; e: Expr }
  >();
  const herdLocation = (e: Expr) => {
    if (e.kind === 'name' && !p.module.globals.has(e.name)) return;
    const text = locationText(p, e);
    if (!herd.has(text)) herd.set(text, { text, read: readerOf(p, e), e });
  };
  // Each clause is checked, so a program with several wrong ones hears of them all.
  const errors: LangError[] = [];
  for (const c of p.clauseItems) {
    try {
      switch (c.kind) {
        case 'observe': {
          if (c.value === null) {
            if (p.recordCounts.has(c.name)) add(recordObservable(c.name), c);
            else {
              // The clause's span is the whole `observe exact;`: the description names the name.
              const own = p.module.globals.has(c.name);
              add(
                {
                  ...location({ kind: 'name', name: c.name, span: c.span }),
                  name: c.name,
                  description:
                    c.name === 'exact' && !own
                      ? 'the exact total: what the counter started at plus every add made'
                      : `the value of ${c.name}`,
                },
                c,
              );
            }
            break;
          }
          const v = c.value;
          if (v.kind === 'name' && p.recordCounts.has(v.name)) {
            add({ ...recordObservable(v.name), name: c.name }, c);
            break;
          }
          const r = readerOf(p, v);
          add(
            {
              name: c.name,
              description: p.source.slice(v.span.start, v.span.end),
              read: (m, s) => scalar(r(m, s)),
              ...(isMask(v) ? { cpuSet: true as const } : {}),
            },
            c,
          );
          break;
        }
        case 'locations':
          for (const l of c.locations) herdLocation(l);
          for (const l of c.locations) {
            const o = location(l);
            if (!named.has(o.name)) add(o, l);
          }
          break;
        case 'invariant':
          invariants.push(
            c.prop === null
              ? builtinInvariant(p, c.id, c.when, c.span)
              : propInvariant(p, c.id, c.when, c.prop, c.description),
          );
          break;
        case 'exists': {
          if (condition !== null)
            throw new LangFault(
              c.span,
              'a program has one final condition (exists, ~exists or forall).',
            );
          const r = readerOf(p, c.prop);
          const text = p.source.slice(c.prop.span.start, c.prop.span.end);
          condition = {
            quantifier: c.quantifier,
            text,
            prop: c.prop,
            holds: (m, s) => (r(m, s) ?? 0n) !== 0n,
          };
          props.push(c.prop);
          for (const l of locationsIn(c.prop)) herdLocation(l);
          if (c.quantifier !== 'exists') {
            const claim =
              c.quantifier === '~exists'
                ? `no end state has ${text}`
                : `every end state has ${text}`;
            const never = c.quantifier === '~exists';
            invariants.push({
              id: 'condition',
              when: 'final',
              description: `${c.quantifier} ${text}: ${claim}`,
              check: (m, s) =>
                ((r(m, s) ?? 0n) !== 0n) === never
                  ? `${never ? 'this end state has' : 'this end state does not have'} ${text}`
                  : null,
            });
          }
          break;
        }
        case 'filter': {
          const r = readerOf(p, c.prop);
          filter = (m, s) => (r(m, s) ?? 0n) !== 0n;
          props.push(c.prop);
          break;
        }
        default:
          break;
      }
    } catch (e) {
      if (e instanceof LangFaults) errors.push(...e.all);
      else if (e instanceof LangFault) errors.push(e.toError());
      else throw e;
    }
  }
  LangFaults.throwAny(errors);
  // A herd7 file without a condition asks herd7's default, `forall (true)`: every end state,
  // each execution a positive one.
  if (condition === null && isLitmusText(p.source)) {
    const prop: Expr = { kind: 'name', span: { start: 0, end: 0 }, name: 'true' };
    condition = { quantifier: 'forall', text: 'true', prop, holds: () => true };
  }
  // What the condition reads is observed, as herd7 shows it.
  for (const e of props) {
    for (const l of locationsIn(e)) {
      if (l.kind === 'name' && !p.module.globals.has(l.name) && !p.recordCounts.has(l.name))
        continue;
      const o = location(l);
      if (!named.has(o.name)) add(o, l);
    }
  }
  // Without `observe` clauses, every record() name is observed; with them, only those they name
  // (a record() may keep a value for an invariant alone).
  const explicit = p.clauseItems.some((c) => c.kind === 'observe');
  for (const name of p.recordCounts.keys())
    if (!explicit && !name.startsWith('@') && !named.has(name))
      add(recordObservable(name), p.ast.items[0] ?? ({ span: { start: 0, end: 0 } } as Item));
  if (observables.length === 0) {
    // Nothing asked for: every global and every thread's own locals.
    for (const [name, g] of p.module.globals) {
      if (g.k !== 'scalar' || g.storage.ty.k === 'lock') continue;
      const o = location({ kind: 'name', name, span: { start: 0, end: 0 } });
      observables.push({ ...o, name, description: `the value of ${name}` });
    }
    for (const t of p.threads) {
      if (t.role !== 'P') continue;
      const item = p.module.threads.find((x) => x.name === t.name);
      for (const local of item ? topLocals(item.item.body) : []) {
        const e: Expr = {
          kind: 'regref',
          thread: t.index,
          name: local,
          span: { start: 0, end: 0 },
        };
        const r = readerOf(p, e);
        observables.push({
          name: `${t.index}:${local}`,
          description: `P${t.index}'s ${local}`,
          read: (m, s) => scalar(r(m, s)),
        });
      }
    }
  }
  // herd7 lists registers (by thread) before memory locations, each group by name.
  const rank = (e: Expr) =>
    e.kind === 'regref'
      ? `0${String(e.thread).padStart(4, '0')}:${e.name}`
      : `1${locationText(p, e)}`;
  const herdLocations = [...herd.values()]
    .sort((a, b) => (rank(a.e) < rank(b.e) ? -1 : 1))
    .map(({ text, read, e }) => ({ text, register: e.kind === 'regref', read }));
  return { observables, invariants, condition, filter, herdLocations };
}

/** An invariant written as a condition: what it saw when the condition fails. */
function propInvariant(
  p: CompiledProgram,
  id: string,
  when: 'final' | 'always',
  prop: Expr,
  description: string | null,
): LangInvariant {
  let seen: string[] = [];
  // The value that failed an all() leads: it says most.
  const r = readerOf(p, prop, (text, v, lead) => {
    const shown = `${text} = ${v === null ? 'none' : String(v)}`;
    if (!seen.includes(shown)) {
      if (lead === true) seen.unshift(shown);
      else seen.push(shown);
    }
  });
  const text = p.source.slice(prop.span.start, prop.span.end);
  return {
    id,
    when,
    description: description ?? text,
    ...(when === 'always' && readsOnlyResults(p, prop, new Set())
      ? { reads: 'results' as const }
      : {}),
    check: (m, s) => {
      seen = [];
      const v = r(m, s);
      if (v === null || v !== 0n) return null;
      return `${text} does not hold${seen.length > 0 ? `: ${seen.join(', ')}` : ''}`;
    },
  };
}

/**
 * Whether a condition reads only what record() kept (and constants): then an always invariant
 * written with it judges the records, which keep every value, and a reordering of steps that
 * touch no record cannot change its verdict (Explore's reduction, the kernel's memory model).
 * `all(name, v, …)` and `any(name, v, …)` bind v to each value of the record `name`; `count(name)`
 * is how many it kept.
 */
function readsOnlyResults(p: CompiledProgram, e: Expr, bound: ReadonlySet<string>): boolean {
  switch (e.kind) {
    case 'num':
      return true;
    case 'name':
      return bound.has(e.name) || p.recordCounts.has(e.name) || p.module.defines.has(e.name);
    case 'call': {
      const [name, v, pred] = e.args;
      if (e.callee === 'count') return name?.kind === 'name' && p.recordCounts.has(name.name);
      if (
        (e.callee === 'all' || e.callee === 'any') &&
        e.args.length === 3 &&
        name?.kind === 'name' &&
        p.recordCounts.has(name.name) &&
        v?.kind === 'name' &&
        pred !== undefined
      )
        return readsOnlyResults(p, pred, new Set([...bound, v.name]));
      return false;
    }
    case 'unary':
      return e.op !== '*' && e.op !== '&' && readsOnlyResults(p, e.arg, bound);
    case 'binary':
      return readsOnlyResults(p, e.left, bound) && readsOnlyResults(p, e.right, bound);
    case 'ternary':
      return (
        readsOnlyResults(p, e.cond, bound) &&
        readsOnlyResults(p, e.then, bound) &&
        readsOnlyResults(p, e.otherwise, bound)
      );
    default:
      return false;
  }
}

/**
 * A condition's reader; when it cannot be read, the error of every location in it that cannot
 * (`exists (2:r0=0 /\ z=1)`: no thread P2, and no global z), not the first alone.
 */
function readerOf(
  p: CompiledProgram,
  e: Expr,
  seen?: Parameters<typeof readerOfWhole>[2],
): ReturnType<typeof readerOfWhole> {
  try {
    return readerOfWhole(p, e, seen);
  } catch (whole) {
    if (!(whole instanceof LangFault)) throw whole;
    const errors = [whole.toError()];
    for (const l of locationsIn(e)) {
      try {
        readerOfWhole(p, l);
      } catch (part) {
        if (!(part instanceof LangFault)) throw part;
        errors.push(part.toError());
      }
    }
    const seen = new Set<string>();
    const each = errors
      .filter(
        (x) =>
          !seen.has(`${x.span.start}:${x.message}`) && seen.add(`${x.span.start}:${x.message}`),
      )
      .sort((a, b) => a.span.start - b.span.start);
    LangFaults.throwAny(each);
    throw whole;
  }
}

/**
 * The locations a condition reads: registers, globals, fields, per-CPU elements. The Promela
 * export observes the same ones (src/explore/promela/model.ts).
 */
export function locationsIn(e: Expr): Expr[] {
  const out: Expr[] = [];
  const walk = (x: Expr): void => {
    switch (x.kind) {
      case 'regref':
      case 'name':
      case 'member':
        out.push(x);
        return;
      case 'call':
        if (x.callee === 'per_cpu') out.push(x);
        else x.args.forEach(walk);
        return;
      case 'binary':
        // `1:r0 = x` and `y = x` compare with x's address: only the left side is a location.
        walk(x.left);
        if (!(x.right.kind === 'name' && (x.op === '=' || x.left.kind === 'regref'))) walk(x.right);
        return;
      case 'unary':
      case 'ternary':
      case 'cast':
        childExprs(x).forEach(walk);
        return;
      default:
        return;
    }
  };
  walk(e);
  return out;
}

/** The local variables a thread's body declares at its top level. */
function topLocals(body: Stmt & { kind: 'block' }): string[] {
  const out: string[] = [];
  for (const s of body.body) if (s.kind === 'decl') for (const d of s.declarators) out.push(d.name);
  return out;
}
