// The explorer's default limits, in a module of their own so that the page's stores and the CLI
// can name them without bundling the explorer itself.

/** Default memory budget: what a browser tab and Node can both afford. */
export const DEFAULT_MAX_MEMORY_MB = 1024;

/** The most shards (workers) a search takes: a node's id keeps three bits for its shard. */
export const MAX_SHARDS = 8;

/**
 * The workers a search uses unless told otherwise, on a machine with `cores` cores: one below
 * four cores, else the cores (up to MAX_SHARDS). Shards share the work at a price: a successor
 * another shard owns travels to it whole and is interned there again, and every level of cost
 * ends at barriers. On the 2-core development machine that price made two workers use 1.8 times
 * the CPU time of one (global-plain, 3 CPUs × 6: 14.3 s against 8.0 s) and finish 6–50 % later
 * than one thread, while four shards there used 2.1 times: the price grows slowly with the
 * shards, so from four cores they can gain what two cannot.
 */
export function defaultWorkers(cores: number): number {
  return cores >= 4 ? Math.min(MAX_SHARDS, Math.floor(cores)) : 1;
}
