// Types of bin/buildLab.mjs (plain JavaScript, so that the launcher runs it before anything is
// compiled) for the TypeScript that builds the bundle too: the tests (test/labBundle.ts).

/** The repository's root folder. */
export declare const ROOT: string;
/** Where `lab` runs from. */
export declare const BUNDLE_DIR: string;
/** The bundle's entries, by name, each the source file it bundles. */
export declare const ENTRIES: Readonly<Record<string, string>>;
/** Bundles the CLI's entries into `outdir` and records its inputs there. */
export declare function buildLab(outdir: string): void;
/** Why the bundle in `dir` must be rebuilt, or null when it is current. */
export declare function staleReason(dir?: string): string | null;
/** Rebuilds the bundle in BUNDLE_DIR when it is not current, saying so with `say`. */
export declare function ensureLab(say?: (line: string) => void): void;
