// The app's one challenge store and its typed hook. It follows the Step store, records in the
// progress store, and computes statistics through its own explore bridge, so a challenge check
// never cancels the Explore panel's run (a bridge runs one call at a time).

import { useStore } from 'zustand';
import { type ChallengeState, createChallengeStore } from '../../store/challengeStore.ts';
import { ExploreBridge } from '../../workers/exploreBridge.ts';
import { CORES } from '../cores.ts';
import { stepStore } from '../step/useStep.ts';
import { progressStore } from '../useProgress.ts';

export const challengeStore = createChallengeStore({
  step: stepStore,
  progress: progressStore,
  runner: new ExploreBridge(CORES),
});

export function useChallenge<T>(selector: (s: ChallengeState) => T): T {
  return useStore(challengeStore, selector);
}
