/**
 * An idempotent call made at most once at a time: calls while one is under way make exactly one
 * more after it (they all ask for the same thing, "look again"), and a failed call is made again
 * after a backoff, so no call asked for is lost while the process lives.
 */
export class CoalescedCall {
  private running = false;
  private again = false;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly target: () => Promise<void>,
    private readonly backoff: { initialMs: number; maxMs: number },
    private readonly failed: (error: unknown) => void,
  ) {}

  call(): void {
    this.again = true;
    if (!this.running && !this.stopped) void this.run(this.backoff.initialMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async run(retryMs: number): Promise<void> {
    this.running = true;
    while (this.again && !this.stopped) {
      this.again = false;
      try {
        await this.target();
        retryMs = this.backoff.initialMs;
      } catch (error) {
        this.failed(error);
        this.again = true;
        // Still "running" while waiting: calls meanwhile are folded into the retry.
        this.retry = setTimeout(() => void this.run(Math.min(retryMs * 2, this.backoff.maxMs)), retryMs);
        return;
      }
    }
    this.running = false;
  }
}
