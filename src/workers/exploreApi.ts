// What the explore worker exposes: calls that run the explorer and return plain JSON-able data
// (observables as JSON, witnesses as schedule strings). Node tests import it directly.

import { explore } from '../explore/explore.ts';
import type { ExploreProgress, ExploreResult } from '../explore/result.ts';
import { herdOfExploration } from '../explore/herd.ts';
import { exploreWithPool } from '../explore/shards/coordinator.ts';
import {
  boundsOfJson,
  type ExploreRequest,
  exploreJson,
  type ExploreSummary,
} from '../explore/json.ts';
import { type ChallengeStats, challengeStats, findLesson } from '../lessons/index.ts';
import { openRequest, scenarioNamed } from '../scenarios/index.ts';
import { outcomeKey } from '../scenarios/outcome.ts';
import { resolveParams } from '../scenarios/params.ts';
import { memoryOf } from '../scenarios/textScenario.ts';
import { shardPool, type ShardPorts } from './shardsApi.ts';

/** An outcome as a key: its values and what it breaks. */
function keyOf(o: ExploreResult['outcomes'][number]): string {
  return `${o.terminal ? '' : 'stuck '}${outcomeKey(o.observables)} ${o.violations.map((v) => v.id).join(',')}`;
}

export const exploreApi = {
  /**
   * Runs one exploration; on the shard workers `shards` reaches, when the bridge started some
   * (the page may share memory) and the run lasts until they are ready. `progress` (if given)
   * hears every 4096 states, or every 200 ms from the shards.
   */
  async run(
    req: ExploreRequest,
    progress?: (p: ExploreProgress) => void,
    shards?: ShardPorts,
  ): Promise<ExploreSummary> {
    const sc = openRequest(req);
    const params = resolveParams(sc, req.params);
    const bounds = boundsOfJson(req.bounds);
    const { result: r, workers } = await exploreWithPool(
      sc,
      params,
      bounds,
      {
        maxStates: req.maxStates ?? Infinity,
        maxMemoryMB: req.maxMemoryMB,
        symmetry: req.symmetry === true,
        por: req.por === true,
        progress: (p) => {
          progress?.(p);
          return false;
        },
      },
      shards?.ports.length ?? 1,
      () => shardPool(shards as ShardPorts),
    );
    // As `lab check` answers it: executions where the axiomatic engine can count them.
    const herd = herdOfExploration(sc, params, r);
    let onlyUnderTso: boolean[] | null = null;
    if (memoryOf(params) === 'tso' && r.complete) {
      const sc1 = explore(sc, { ...params, memory: 'sc' }, bounds, {
        maxStates: req.maxStates ?? Infinity,
        maxMemoryMB: req.maxMemoryMB,
        symmetry: req.symmetry === true,
        por: req.por === true,
      });
      if (sc1.complete) {
        const seen = new Set(sc1.outcomes.map(keyOf));
        onlyUnderTso = r.outcomes.map((o) => !seen.has(keyOf(o)));
      }
    }
    return { ...exploreJson(r), herd, onlyUnderTso, workers };
  },

  /**
   * A challenge's statistics (end states within its bounds that reach its goal, and the simplest
   * solution): an exhaustive exploration of up to a few seconds, so never on the main thread.
   */
  challengeStats(scenario: string, challengeId: string): ChallengeStats {
    const sc = scenarioNamed(scenario);
    const challenge = findLesson(scenario)?.challenges.find((c) => c.id === challengeId);
    if (!challenge) throw new Error(`${scenario} has no challenge '${challengeId}'`);
    return challengeStats(sc, challenge);
  },
};

export type ExploreApi = typeof exploreApi;
