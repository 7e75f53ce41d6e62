import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answersPing } from "../../../src/stack/redis.js";

/** Keeps this process's event loop busy, as a loaded machine or a long synchronous compile does. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

describe("the Redis readiness PING", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // Answers as Redis does, and then blocks this process past the PING's timeout before the
    // answer can be read.
    server = createServer((socket) => socket.once("data", () => socket.write("+PONG\r\n", () => busyFor(300))));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("counts an answer that arrived while the process was too busy to read it before the timeout", async () => {
    expect(await answersPing(port, 100)).toBe(true);
  });
});
