// Bad input on the command line: one clear message, exit status 2.

/** A user error. `position` is the 0-based offset in the schedule string, when there is one. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly position: number | null = null,
  ) {
    super(message);
  }
}
