// Motion for the explaining charts: whether the user asked for reduced motion, and the tweens,
// loaded with the first step (their durations are durations.ts). React renders the final
// geometry; these tweens only animate from the previous geometry to it (d3-transition on refs,
// STYLE.md 6), and with reduced motion nothing moves: the final state is shown at once.

import { useSyncExternalStore } from 'react';
import type * as TweensModule from './tweens.ts';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(QUERY);
  mq.addEventListener('change', onChange);
  return () => {
    mq.removeEventListener('change', onChange);
  };
}

/** True when the user prefers reduced motion (follows the setting as it changes). */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
}

/** What the charts tween with (tweens.ts): d3's selection and transitions, the counter's tween. */
export type Tweens = typeof TweensModule;

// The tweens load the first time a chart moves, not with the page: a Step link's first paint
// shows the final geometry, which React renders, and needs none of d3's transitions, nor the
// counter chart's tween that drives them. Until they have loaded a chart shows each state at
// once, as with reduced motion; with reduced motion they never load.
let tweens: Tweens | null = null;
let loading: Promise<void> | null = null;
const tweensLoaded = new Set<() => void>();

/** Starts loading the tweens (once); the charts that use them render again when they have. */
export function loadTweens(): void {
  loading ??= import('./tweens.ts').then((m) => {
    tweens = m;
    for (const f of tweensLoaded) f();
  });
}

function subscribeTweens(onChange: () => void): () => void {
  tweensLoaded.add(onChange);
  return () => {
    tweensLoaded.delete(onChange);
  };
}

/** The tweens once they have loaded, else null (see loadTweens). */
export function useTweens(): Tweens | null {
  return useSyncExternalStore(
    subscribeTweens,
    () => tweens,
    () => null,
  );
}
