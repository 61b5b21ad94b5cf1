// Runs a job for a key at most once at a time: a request while it runs marks it to run once more
// after, however many requests came. A burst of notifications (forty answers in a second, a
// thousand students joining) then costs a few database reads, not one per notification, and
// each run reads the latest state, so nothing is missed.

export class Coalescer {
  private readonly state = new Map<string, { again: boolean }>();

  constructor(
    private readonly onError: (e: unknown) => void,
    /** The pause after a run before the next one (ms): batches a burst of requests. */
    private readonly gapMs = 0,
  ) {}

  run(key: string, job: () => Promise<void>): void {
    const s = this.state.get(key);
    if (s) {
      s.again = true;
      return;
    }
    const mine = { again: false };
    this.state.set(key, mine);
    // Read through a function: the flag changes while the job awaits.
    const again = () => mine.again;
    void (async () => {
      for (;;) {
        mine.again = false;
        try {
          await job();
        } catch (e) {
          this.onError(e);
        }
        if (!again()) break;
        if (this.gapMs > 0) await new Promise((r) => setTimeout(r, this.gapMs));
      }
      this.state.delete(key);
    })();
  }

  /** Whether any job is running (the server waits for them before it closes the database). */
  get busy(): boolean {
    return this.state.size > 0;
  }
}
