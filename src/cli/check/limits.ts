// How many threads `lab check` of many files takes, apart from the code that starts them so that
// `lab --help` says so without loading the engine.

/** The most threads `--workers` takes. */
export const MAX_CHECK_THREADS = 64;

/**
 * From this many files on, the default is a thread a core: below it, the threads' start (about
 * a tenth of a second each, loading the engine) costs more than a few files' checks (a hundredth
 * of a second each, typically).
 */
export const THREADS_FROM = 8;
