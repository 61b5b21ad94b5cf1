// A token bucket: `rate` tokens a second up to `burst`. A socket spends one per message and a
// client address one per room it creates; an empty bucket refuses. Kept in memory: it guards a
// process against one client, and forgetting it on restart costs nothing.

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  /** Takes a token if there is one. */
  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether the bucket is full again at `now` (an idle client's bucket can be forgotten). */
  full(now: number): boolean {
    return this.tokens + ((now - this.at) / 1000) * this.rate >= this.burst;
  }
}
