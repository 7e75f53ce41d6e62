/**
 * Waits until PostgreSQL's WAL is on disk past every commit its callers made before asking, with
 * one flush for all the callers that ask while a flush is running (group commit, on our side).
 *
 * A flush covers a commit when the flush's own commit record follows it in the WAL, that is when
 * the flush starts after the commit returned. So a caller never joins a flush already running: it
 * joins the next one, which starts when the running one ends, and every caller that asks in the
 * meantime shares it.
 */
export class WalFlusher {
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  /** `flushOnce`: one round trip that returns when the WAL is flushed past its start. */
  constructor(private readonly flushOnce: () => Promise<void>) {}

  flush(): Promise<void> {
    this.next ??= this.startAfter(this.running);
    return this.next;
  }

  private async startAfter(running: Promise<void> | undefined): Promise<void> {
    await running?.catch(() => undefined);
    // From here on a caller needs a later flush: this one may start before its commit returns.
    const flushing = this.flushOnce();
    this.running = flushing;
    this.next = undefined;
    try {
      await flushing;
    } finally {
      if (this.running === flushing) this.running = undefined;
    }
  }
}
