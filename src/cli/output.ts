// What a command is given to write to, and what it gives back: apart from lab.ts, which loads
// the commands, so that a command naming these types does not import the module that loads it.

/** Where the command line writes. */
export interface LabOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * What a command gives back: the text it prints (and exit status 0), or, from a command that
 * printed as it went (`check` of many files), its exit status.
 */
export type Outcome = string | { readonly status: number };
