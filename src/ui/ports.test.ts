// The bridges against the ports the stores declare, checked by the compiler (tsc -b; Vitest runs
// the file, where `expectTypeOf` does nothing). The composition roots (useExplore.ts,
// useChallenge.ts, useAxiomatic.ts, cpuStores.ts) already check that a bridge is assignable to
// its port; assignable is not enough, since a method taking fewer parameters is assignable to
// one taking more: a bridge whose `run` dropped its AbortSignal would compile there and never
// cancel. Here each port member must have the bridge's very type: dropping the signal from
// ExploreBridge.challengeStats (tried, then reverted) failed tsc at the StatsPort line below
// while useChallenge.ts still compiled. This file sits in src/ui, the one layer that sees both
// the stores and the bridges.

import { describe, expectTypeOf, it } from 'vitest';
import type { ScalingPort } from '../live/scaling/measure.ts';
import type { AxiomaticPort } from '../store/axiomaticStore.ts';
import type { StatsPort } from '../store/challengeStore.ts';
import type { ExplorePort } from '../store/exploreStore.ts';
import type { LivePort } from '../store/liveStore.ts';
import type { AxiomaticBridge } from '../workers/axiomaticBridge.ts';
import type { CpuBridge } from '../workers/cpuBridge.ts';
import type { ExploreBridge } from '../workers/exploreBridge.ts';

/**
 * true when A and B are the same type (not merely assignable either way): the compiler compares
 * two generic functions by identity of the types they test, here A and B.
 */
type Same<A, B> =
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- T is only probed
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** true when the bridge has every member of the port, each of the very same type. */
type Implements<Bridge, Port> = {
  [K in keyof Port]-?: K extends keyof Bridge ? Same<Bridge[K], Port[K]> : false;
}[keyof Port] extends true
  ? true
  : false;

describe('the bridges implement the ports the stores expect (checked by tsc)', () => {
  it('each bridge has each member of its ports with the same parameters and result', () => {
    expectTypeOf<Implements<ExploreBridge, ExplorePort>>().toEqualTypeOf<true>();
    expectTypeOf<Implements<ExploreBridge, StatsPort>>().toEqualTypeOf<true>();
    expectTypeOf<Implements<AxiomaticBridge, AxiomaticPort>>().toEqualTypeOf<true>();
    expectTypeOf<Implements<CpuBridge, LivePort>>().toEqualTypeOf<true>();
    expectTypeOf<ReturnType<CpuBridge['scaling']>>().toEqualTypeOf<ScalingPort>();
  });

  it('a call that can be cancelled takes an AbortSignal, last', () => {
    expectTypeOf<Parameters<ExplorePort['run']>[2]>().toEqualTypeOf<AbortSignal>();
    expectTypeOf<Parameters<StatsPort['challengeStats']>[2]>().toEqualTypeOf<AbortSignal>();
    expectTypeOf<Parameters<AxiomaticPort['answer']>[1]>().toEqualTypeOf<AbortSignal>();
    // The sweep's hooks carry it (the core names only what it reads of one: `aborted`).
    expectTypeOf<AbortSignal>().toExtend<
      NonNullable<Parameters<ScalingPort['sweep']>[1]['signal']>
    >();
  });

  it('Implements tells a bridge that drops a parameter from one that keeps it', () => {
    interface Port {
      run(req: string, signal: AbortSignal): Promise<number>;
    }
    // Assignable (fewer parameters), yet not the port's type.
    expectTypeOf<{ run(req: string): Promise<number> }>().toExtend<Port>();
    // @ts-expect-error: the signal was dropped
    expectTypeOf<Implements<{ run(req: string): Promise<number> }, Port>>().toEqualTypeOf<true>();
    // @ts-expect-error: a member missing
    expectTypeOf<Implements<{ stop(): void }, Port>>().toEqualTypeOf<true>();
    expectTypeOf<Implements<Port & { extra(): void }, Port>>().toEqualTypeOf<true>();
  });
});
