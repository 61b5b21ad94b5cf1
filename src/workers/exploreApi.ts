// What the explore worker exposes: calls that run the explorer and return plain JSON-able data
// (observables as JSON, witnesses as schedule strings). Node tests import it directly.

import {
  type Bounds,
  explore,
  type ExploreProgress,
  type ExploreResult,
} from '../explore/explore.ts';
import { type HerdVerdict, herdVerdict } from '../explore/herd.ts';
import { exploreWithPool } from '../explore/shards/worker.ts';
import { type ExploreJson, exploreJson } from '../explore/json.ts';
import type { Budget } from '../machine/budget.ts';
import { type ChallengeStats, challengeStats, findLesson } from '../lessons/index.ts';
import { findScenario, openProgram } from '../scenarios/index.ts';
import { outcomeKey } from '../scenarios/outcome.ts';
import { resolveParams } from '../scenarios/params.ts';
import { memoryOf } from '../scenarios/text-scenario.ts';
import { shardPool, type ShardPorts } from './shardsApi.ts';

export interface ExploreRequest {
  readonly scenario: string;
  /** A typed program's text, for scenario `program`: the worker opens it first. */
  readonly program?: string;
  /** Parameter overrides as text, as links and --set carry them. */
  readonly params: Readonly<Record<string, string>>;
  /** The interventions a path may make; switches null for no bound. */
  readonly bounds: Budget & { readonly switches: number | null };
  /** Stop, incomplete, after this many states (null: no limit). */
  readonly maxStates: number | null;
  /** Stop, incomplete, at this much memory (MB; the explorer's default when left out). */
  readonly maxMemoryMB?: number;
  readonly symmetry?: boolean;
  readonly por?: boolean;
  /** Workers that search together (1 when left out); more than the page can run are fewer. */
  readonly workers?: number;
}

/**
 * What a run returns: the exploration as JSON-able data (src/explore/json.ts), herd7's verdict
 * where the program has a final condition (a litmus test), and under memory tso which outcomes
 * only the store buffers reach.
 */
export type ExploreSummary = ExploreJson & {
  readonly herd: HerdVerdict | null;
  /**
   * Under memory tso: for each outcome, whether no sequentially consistent run reaches it (an
   * exploration of the same program and bounds under sc). Null under sc, or when either run
   * stopped short (a missing outcome would then prove nothing).
   */
  readonly onlyUnderTso: readonly boolean[] | null;
  /** How many workers searched: the cores where the page may share memory, else one. */
  readonly workers: number;
};

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
    if (req.program !== undefined && !openProgram(req.program).ok)
      throw new Error('the program does not compile');
    const sc = findScenario(req.scenario);
    if (!sc) throw new Error(`unknown scenario '${req.scenario}'`);
    const params = resolveParams(sc, req.params);
    const bounds: Bounds = { ...req.bounds, switches: req.bounds.switches ?? Infinity };
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
    const program = sc.program?.(params);
    const herd = program ? herdVerdict(program, sc.build(params).machine, r) : null;
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
    const sc = findScenario(scenario);
    if (!sc) throw new Error(`unknown scenario '${scenario}'`);
    const challenge = findLesson(scenario)?.challenges.find((c) => c.id === challengeId);
    if (!challenge) throw new Error(`${scenario} has no challenge '${challengeId}'`);
    return challengeStats(sc, challenge);
  },
};

export type ExploreApi = typeof exploreApi;
