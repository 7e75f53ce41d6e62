/**
 * One read of a byte stream shared by several consumers (the content checks and the malware
 * engine), with backpressure and without buffering: the next chunk is pulled from the source only
 * when every consumer still attached has taken the current one, so at most one chunk is held and
 * the slowest consumer sets the pace. A consumer that has not started yet is waited for; one that
 * wants no more (it returned early, it never streams, it failed) detaches and is no longer waited
 * for. When every consumer has detached, the source is closed.
 */
export interface TeeBranch extends AsyncIterable<Uint8Array> {
  /** This consumer wants no more: the others go on without it. Idempotent. */
  detach(): void;
  /** Bytes this consumer has taken. */
  readonly delivered: number;
}

export interface ByteTee {
  branches: TeeBranch[];
  /** Bytes pulled from the source. */
  readonly bytesRead: number;
  /** What the source threw, once it has: the consumers all saw this same error. */
  readonly failure: { error: unknown } | undefined;
}

export function teeBytes(source: AsyncIterable<Uint8Array>, count: number): ByteTee {
  let iterator: AsyncIterator<Uint8Array> | undefined;
  /** Index of `current`, -1 before the first chunk. */
  let index = -1;
  let current: Uint8Array | undefined;
  let finished = false;
  let failure: { error: unknown } | undefined;
  let pulling = false;
  let bytesRead = 0;
  /** The index each consumer asks for next. */
  const wants = new Array<number>(count).fill(0);
  const delivered = new Array<number>(count).fill(0);
  const attached = new Array<boolean>(count).fill(true);
  let waiting: (() => void)[] = [];
  const changed = () => {
    const wake = waiting;
    waiting = [];
    for (const resume of wake) resume();
  };

  const detach = (i: number) => {
    if (!attached[i]) return;
    attached[i] = false;
    changed();
    if (attached.some(Boolean) || finished) return;
    finished = true;
    iterator?.return?.().catch(() => undefined);
  };

  const pull = async () => {
    pulling = true;
    try {
      iterator ??= source[Symbol.asyncIterator]();
      const next = await iterator.next();
      if (next.done) finished = true;
      else {
        index += 1;
        current = next.value;
        bytesRead += next.value.length;
      }
    } catch (error) {
      failure = { error };
    } finally {
      pulling = false;
      changed();
    }
  };

  const next = async (i: number): Promise<IteratorResult<Uint8Array>> => {
    for (;;) {
      if (!attached[i]) return { done: true, value: undefined };
      if (wants[i] === index && current) {
        wants[i] += 1;
        delivered[i] += current.length;
        changed();
        return { done: false, value: current };
      }
      if (failure) throw failure.error;
      if (finished) return { done: true, value: undefined };
      const everyoneHasIt = wants.every((wanted, j) => !attached[j] || wanted > index);
      if (everyoneHasIt && !pulling) {
        await pull();
        continue;
      }
      await new Promise<void>((resume) => waiting.push(resume));
    }
  };

  const branches = wants.map((_, i): TeeBranch => ({
    detach: () => detach(i),
    get delivered() {
      return delivered[i]!;
    },
    [Symbol.asyncIterator]: () => ({
      next: () => next(i),
      return: () => {
        detach(i);
        return Promise.resolve({ done: true, value: undefined });
      },
    }),
  }));
  return {
    branches,
    get bytesRead() {
      return bytesRead;
    },
    get failure() {
      return failure;
    },
  };
}
