export interface TokenBucketSettings {
  /** Requests a client may make at once, and per `refillMs` after that. */
  capacity: number;
  /** Time for an empty bucket to fill up again. */
  refillMs: number;
  /** Clients remembered at once; beyond it the least recently seen is forgotten (it starts full again). */
  maxClients: number;
  /** Milliseconds on a monotonic clock. */
  now(): number;
}

/**
 * One token bucket per client key (a remote address): `take` answers whether the client may make
 * one more request now. Memory stays bounded whatever the number of addresses.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly settings: TokenBucketSettings) {}

  take(client: string): boolean {
    const { capacity, refillMs, now } = this.settings;
    const at = now();
    const bucket = this.buckets.get(client) ?? { tokens: capacity, at };
    const tokens = Math.min(capacity, bucket.tokens + ((at - bucket.at) * capacity) / refillMs);
    const allowed = tokens >= 1;
    this.remember(client, { tokens: allowed ? tokens - 1 : tokens, at });
    return allowed;
  }

  private remember(client: string, bucket: { tokens: number; at: number }): void {
    this.buckets.delete(client);
    this.buckets.set(client, bucket);
    if (this.buckets.size > this.settings.maxClients) this.buckets.delete(this.buckets.keys().next().value!);
  }
}
