// Types of bin/buildLab.mjs (plain JavaScript, so that the launcher runs it before anything is
// compiled) for the TypeScript that builds the bundle too: the tests (test/labBundle.ts).

/** The repository's root folder. */
export declare const ROOT: string;
/** Where `lab` runs from. */
export declare const BUNDLE_DIR: string;
/** The bundle's modules, by name, each the source file it bundles. */
export declare const ENTRIES: Readonly<Record<string, string>>;
/** The engine's entry, bundled as the CommonJS script lab.cjs. */
export declare const ENGINE: string;
/**
 * Bundles the CLI into `outdir` and records its inputs there; with `train`, also trains the
 * engine's code cache (lab.cache), saying with `say` when that fails.
 */
export declare function buildLab(
  outdir: string,
  options?: { train?: boolean; say?: (line: string) => void },
): Promise<void>;
/** Why the bundle in `dir` must be rebuilt, or null when it is current. */
export declare function staleReason(dir?: string): string | null;
/** Rebuilds the bundle in BUNDLE_DIR when it is not current, saying so with `say`. */
export declare function ensureLab(say?: (line: string) => void): Promise<void>;
