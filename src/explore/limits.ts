// The explorer's default limits, in a module of their own so that the page's stores and the CLI
// can name them without bundling the explorer itself.

/** Default memory budget: what a browser tab and Node can both afford. */
export const DEFAULT_MAX_MEMORY_MB = 1024;

/** The most shards (workers) a search takes: a node's id keeps three bits for its shard. */
export const MAX_SHARDS = 8;
