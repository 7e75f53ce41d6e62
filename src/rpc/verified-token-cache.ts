/**
 * Tokens that passed verification, by their exact text (signature included, so a hit is the same
 * bytes that passed), until the verifier would stop accepting them (`exp` plus the clock
 * tolerance) and for at most `ttlMs`. A client sends one token with many calls; checking its
 * signature on every call (for HS256 a WebCrypto round trip through the thread pool) was the
 * largest part of what authentication cost per request. The TTL bounds how long a key removed from
 * the JWKS keeps admitting tokens it signed. Bounded in size: the oldest entry goes when full.
 */
export class VerifiedTokenCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get(token: string, now: number): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(token);
    return undefined;
  }

  /** `acceptedUntil`: epoch ms from which the verifier would refuse the token. */
  set(token: string, value: T, acceptedUntil: number, now: number): void {
    const until = Math.min(acceptedUntil, now + this.ttlMs);
    if (until <= now) return;
    this.entries.delete(token);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { value, until });
  }

  get size(): number {
    return this.entries.size;
  }
}
