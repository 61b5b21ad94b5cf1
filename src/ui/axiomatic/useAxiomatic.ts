// The app's axiomatic store (memory lkmm) and its typed hook. Created with the chunk of the
// screens that use it (the Step stage and the Explore panel under lkmm), so a Step link under sc
// or tso loads neither it, its bridge, nor the graph.

import { useStore } from 'zustand';
import { type AxiomaticState, createAxiomaticStore } from '../../store/axiomaticStore.ts';
import { AxiomaticBridge } from '../../workers/axiomaticBridge.ts';

export const axiomaticStore = createAxiomaticStore(new AxiomaticBridge());

export function useAxiomatic<T>(selector: (s: AxiomaticState) => T): T {
  return useStore(axiomaticStore, selector);
}
