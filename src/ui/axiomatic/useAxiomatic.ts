// The app's axiomatic store (memory lkmm) and its typed hook. Created with the chunk of the
// screens that use it (the Step stage and the Explore panel under lkmm), so a Step link under sc
// or tso loads neither it, its bridge, nor the graph.

import { useEffect } from 'react';
import { useStore } from 'zustand';
import { type AxiomaticState, createAxiomaticStore } from '../../store/axiomaticStore.ts';
import { AxiomaticBridge } from '../../workers/axiomaticBridge.ts';

export const axiomaticStore = createAxiomaticStore(new AxiomaticBridge());

export function useAxiomatic<T>(selector: (s: AxiomaticState) => T): T {
  return useStore(axiomaticStore, selector);
}

/** What the lkmm screens are about: a scenario (or program) and its parameters. */
export interface AxiomaticSubject {
  readonly scenario: string;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Opens scenario + params as the store's subject when a screen shows them (the Step stage and the
 * Explore panel both do), and again whenever either changes.
 */
export function useAxiomaticSubject({ scenario, params }: AxiomaticSubject): void {
  const key = `${scenario}?${JSON.stringify(params)}`;
  useEffect(() => {
    axiomaticStore.getState().subjectOpened(scenario, params);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for scenario + params
  }, [key]);
}
