// What crosses each worker boundary, checked by the compiler: `npm run typecheck` (tsc -b, this
// file is in tsconfig.app.json) fails when a worker API's argument or result stops being data
// the structured clone algorithm copies as it is. A function, or a class instance whose methods
// a worker would call, compiles on both sides and fails only at run time (a DataCloneError, or
// an object that arrives without its methods). Vitest runs this file too, where every
// `expectTypeOf` is a no-op: the test is the compile.
//
// It can fail, and did: written first, it found ExploreSummary's observables typed
// `Record<string, unknown>` (now JsonValue, src/scenarios/outcome.ts). Giving ExecutionGraph
// (src/axiomatic/explain.ts) a field `why2: () => string` made tsc report, at the AxiomaticApi
// line below, "Type 'true' does not satisfy the constraint 'Expected: literal boolean: true,
// Actual: literal boolean: false'"; so did making CpuFault's `afterMs` a
// `number | Date | (() => number)`, at the CpuApi line. Both were reverted. The
// `@ts-expect-error` lines keep the check itself honest: if Clonable ever let a function or a
// method through, those lines would stop being errors and tsc would fail.

import type { Remote } from 'comlink';
import { describe, expectTypeOf, it } from 'vitest';
import type { ExploreProgress } from '../explore/result.ts';
import type { ShardJob, ShardResult } from '../explore/shards/layout.ts';
import type { Reply } from '../machine/errors.ts';
import type { AxiomaticApi } from './axiomaticApi.ts';
import type { CpuApi } from './cpuApi.ts';
import type { ExploreApi } from './exploreApi.ts';
import type { SbApi } from './sbApi.ts';

/** What the structured clone algorithm copies as is, or a transfer moves. */
type CloneLeaf =
  | string
  | number
  | boolean
  | bigint
  | null
  | undefined
  | Date
  | RegExp
  | ArrayBufferLike
  | ArrayBufferView
  | MessagePort;

/** true when every field of an object type is true. */
type AllTrue<T> = T[keyof T] extends true ? true : false;

/**
 * true when a value of type T crosses to a worker and back as itself: leaves, arrays, maps,
 * sets and plain objects of them. A function, or an object with a method, is false; so is a
 * union with one such member (the answer is then `boolean`), and `unknown`.
 */
type Clonable<T> = [T] extends [CloneLeaf]
  ? true
  : T extends CloneLeaf
    ? true
    : T extends (...args: never) => unknown
      ? false
      : T extends readonly (infer E)[]
        ? Clonable<E>
        : T extends ReadonlyMap<infer K, infer V>
          ? [Clonable<K>, Clonable<V>] extends [true, true]
            ? true
            : false
          : T extends ReadonlySet<infer E>
            ? Clonable<E>
            : T extends object
              ? AllTrue<{ [K in keyof T]-?: Clonable<T[K]> }>
              : false;

/** `void`, the result of a method that returns nothing (spelt so where a lint allows it). */
type Nothing = ReturnType<() => void>;

/** true for a method's result that crosses back: none (void), or a Clonable one. */
type Returned<R> = [Awaited<R>] extends [Nothing] ? true : Clonable<Awaited<R>>;

/** true when every member of the API is a method whose arguments and result are Clonable. */
type Crosses<Api> = AllTrue<{
  [K in keyof Api]-?: Api[K] extends (...args: infer A) => infer R
    ? [Clonable<A>, Returned<R>] extends [true, true]
      ? true
      : false
    : false;
}>;

/** true when every member of the API, called through comlink, is a method returning a Promise. */
type AllAsync<Api> = AllTrue<{
  [K in keyof Api]-?: Remote<Api>[K] extends (...args: never) => Promise<unknown> ? true : false;
}>;

describe('what crosses a worker boundary (checked by tsc)', () => {
  it('Clonable takes data and refuses functions and methods', () => {
    expectTypeOf<
      Clonable<{ a: readonly number[]; b: Map<string, { c: Int32Array }> }>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Clonable<{ port: MessagePort; memory: SharedArrayBuffer } | null>
    >().toEqualTypeOf<true>();
    // @ts-expect-error: a function does not clone
    expectTypeOf<Clonable<{ f: () => void }>>().toEqualTypeOf<true>();
    // @ts-expect-error: one member of a union with a function is enough
    expectTypeOf<Clonable<{ x: number | ((n: number) => number) }>>().toEqualTypeOf<true>();
    // @ts-expect-error: a class instance arrives without its methods
    expectTypeOf<Clonable<{ s: Set<{ read(): number }> }>>().toEqualTypeOf<true>();
    // @ts-expect-error: unknown could be anything
    expectTypeOf<Clonable<{ u: unknown }>>().toEqualTypeOf<true>();
    // @ts-expect-error: an API with a field that is not a method
    expectTypeOf<AllAsync<{ run(): void; limit: number }>>().toEqualTypeOf<true>();
  });

  it('a CPU worker: its job and fault in, nothing out', () => {
    expectTypeOf<AllAsync<CpuApi>>().toEqualTypeOf<true>();
    expectTypeOf<Crosses<CpuApi>>().toEqualTypeOf<true>();
    expectTypeOf<ReturnType<Remote<CpuApi>['run']>>().toEqualTypeOf<Promise<void>>();
  });

  it('the explore worker: requests and summaries, and one callback, sent as a proxy', () => {
    expectTypeOf<AllAsync<ExploreApi>>().toEqualTypeOf<true>();
    expectTypeOf<Crosses<Pick<ExploreApi, 'challengeStats'>>>().toEqualTypeOf<true>();
    type Run = ExploreApi['run'];
    expectTypeOf<Clonable<Parameters<Run>[0]>>().toEqualTypeOf<true>();
    // The shard workers' ports and ready count (transferred).
    expectTypeOf<Clonable<Parameters<Run>[2]>>().toEqualTypeOf<true>();
    expectTypeOf<Clonable<Awaited<ReturnType<Run>>>>().toEqualTypeOf<true>();
    // The one function that crosses: progress, which ExploreBridge wraps in comlink's proxy().
    expectTypeOf<Parameters<Run>[1]>().toEqualTypeOf<((p: ExploreProgress) => void) | undefined>();
    expectTypeOf<Clonable<ExploreProgress>>().toEqualTypeOf<true>();
  });

  it('the explorer shards: a job out and a reply back, on a bare message port', () => {
    expectTypeOf<Clonable<ShardJob>>().toEqualTypeOf<true>();
    expectTypeOf<Clonable<Reply<ShardResult>>>().toEqualTypeOf<true>();
  });

  it('the axiomatic worker: requests in, answers, graphs and memory views out', () => {
    expectTypeOf<AllAsync<AxiomaticApi>>().toEqualTypeOf<true>();
    expectTypeOf<Crosses<AxiomaticApi>>().toEqualTypeOf<true>();
  });

  it("the store-buffering test's workers: a setup and a request in, counts out", () => {
    expectTypeOf<AllAsync<SbApi>>().toEqualTypeOf<true>();
    expectTypeOf<Crosses<SbApi>>().toEqualTypeOf<true>();
  });
});
