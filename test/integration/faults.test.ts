import { describe, expect, it } from "vitest";
import { csv, png } from "../fixtures/files/index.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { control } from "../support/control.js";
import { sql, withDb } from "../support/stack-access.js";
import { complete, initiate, put, waitForStatus } from "../support/uploads.js";

const spec = () => ({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: png(7, 7) });

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("condition not met in time");
}

describe("a dependency stops during traffic", () => {
  it("MinIO: complete fails fast with unavailable, the object stays PENDING_UPLOAD, and a retry after recovery succeeds", async () => {
    const token = await tokenFor(uniqueTenant());
    const s = spec();
    const started = await initiate(token, s);
    expect((await put(started.body, s.bytes)).status).toBe(200);
    const id = started.body.storedObject.id;
    await control("minio", "stop");
    try {
      const { value, ms } = await timed(() => complete(token, id, {}));
      expect(value.status).toBe(503);
      expect(value.body.code).toBe("unavailable");
      expect(value.body.message).toMatch(/unavailable/);
      expect(ms).toBeLessThan(15_000);
      expect((await rest("GET", `/api/v1/uploads/${id}`, { token })).body.storedObject.status).toBe("PENDING_UPLOAD");
    } finally {
      await control("minio", "start");
    }
    const done = await complete(token, id, { waitForResult: true });
    expect(done.status).toBe(200);
    expect(done.body.storedObject.status).toBe("READY");
  });

  it("PostgreSQL: calls fail fast with unavailable, nothing is half-written, and the service recovers by itself", async () => {
    const tenant = uniqueTenant();
    const token = await tokenFor(tenant);
    await control("postgres", "stop");
    try {
      const { value: read, ms } = await timed(() => rest("GET", "/api/v1/uploads", { token }));
      expect(read.status).toBe(503);
      expect(read.body.code).toBe("unavailable");
      expect(ms).toBeLessThan(10_000);
      const write = await initiate(token, spec());
      expect(write.status).toBe(503);
      expect((await rest("GET", "/readyz")).status).toBe(503);
    } finally {
      await control("postgres", "start");
    }
    await eventually(async () => (await rest("GET", "/api/v1/uploads", { token })).status === 200);
    const rows = await sql("select id from stored_objects where tenant_id = ?", [tenant]);
    expect(rows).toHaveLength(0);
    // With TEMPORAL_MODE=server the Temporal server shares this PostgreSQL and answers again
    // moments after the app does (its namespace cache refreshes): writes recover by themselves too.
    await eventually(async () => (await initiate(token, spec())).status === 200);
  });

  it("Temporal: initiate fails fast with unavailable and writes nothing; after recovery uploads complete", async () => {
    const tenant = uniqueTenant();
    const token = await tokenFor(tenant);
    await control("temporal", "stop");
    try {
      const { value, ms } = await timed(() => initiate(token, spec()));
      expect(value.status).toBe(503);
      expect(value.body.code).toBe("unavailable");
      expect(ms).toBeLessThan(15_000);
      expect(await sql("select id from stored_objects where tenant_id = ?", [tenant])).toHaveLength(0);
    } finally {
      await control("temporal", "start");
    }
    await eventually(async () => (await initiate(token, spec())).status === 200);
    const s = spec();
    const started = await initiate(token, s);
    await put(started.body, s.bytes);
    const done = await complete(token, started.body.storedObject.id, { waitForResult: true });
    expect(done.body.storedObject.status).toBe("READY");
  });
});

describe("the API restarts during a complete", () => {
  it("the client's retry of complete gets the right answer", async () => {
    const token = await tokenFor(uniqueTenant());
    const s = spec();
    const started = await initiate(token, s);
    await put(started.body, s.bytes);
    const id = started.body.storedObject.id;
    const inFlight = complete(token, id, { waitForResult: true }).catch(() => undefined);
    await control("api", "kill");
    await inFlight;
    await control("api", "start");
    const retried = await complete(token, id, { waitForResult: true });
    expect(retried.status).toBe(200);
    expect(retried.body.storedObject.status).toBe("READY");
    const object = await waitForStatus(token, id, ["READY"]);
    expect(object.isCurrent).toBe(true);
  });

  it("a retried complete re-delivers the Update its first call lost after moving the row to SCANNING", async () => {
    const token = await tokenFor(uniqueTenant());
    const s = { objectClass: "REPORT", contentType: "text/csv", bytes: csv([["a", "b"], ["1", "2"]]) };
    const started = await initiate(token, s);
    await put(started.body, s.bytes);
    const id = started.body.storedObject.id;
    // What a Temporal restart leaves: the first Update's step moved the row, the Update was lost
    // with its workflow task, and the workflow still waits for its abandoned-upload deadline.
    await sql("update stored_objects set status = 'SCANNING' where id = ?", [id]);
    const retried = await complete(token, id, { waitForResult: true });
    expect(retried.status).toBe(200);
    expect(retried.body.storedObject.status).toBe("READY");
  });
});

describe("graceful shutdown", () => {
  it("on SIGTERM the API stops accepting, finishes the call in flight (a complete waiting on a scan that is running), and exits", async () => {
    const token = await tokenFor(uniqueTenant());
    // A CSV is scanned by the worker's scan activity, not inside complete, so a complete that
    // waits for the result is in flight for as long as the row is SCANNING.
    const rows = Array.from({ length: 60_000 }, (_, i) => [`row ${i}`, String(i), "some text to scan"]);
    const s = { objectClass: "REPORT", contentType: "text/csv", bytes: csv(rows) };
    const started = await initiate(token, s);
    await put(started.body, s.bytes);
    const id = started.body.storedObject.id;
    // What became of the call so far: "pending" while it is in flight.
    let call = "pending";
    const inFlight = complete(token, id, { waitForResult: true }).then(
      (answer) => ((call = `answered ${answer.status}`), answer),
      (error: Error) => ((call = `failed: ${error.message} ${String((error.cause as Error | undefined)?.message ?? "")}`), undefined),
    );
    let stopping: Promise<void> | undefined;
    try {
      await withDb(async (orm) => {
        // One connection polled often: the row must be seen SCANNING before the scan ends.
        const status = async () => ((await orm.em.fork().execute("select status from stored_objects where id = ?", [id])) as { status: string }[])[0]?.status;
        while ((await status()) === "PENDING_UPLOAD" && call === "pending") await new Promise((r) => setTimeout(r, 5));
        // Holding the worker still keeps the scan (and with it the call) from finishing while the
        // API gets its signal: the row read after the pause proves the call was still waiting.
        await control("worker", "pause");
        try {
          expect(await status(), "the scan was running when the worker was paused").toBe("SCANNING");
          expect(call, "the complete had not answered").toBe("pending");
          stopping = control("api", "term");
          // The API took the signal once it refuses new calls; only then may the scan go on.
          while (await rest("GET", "/healthz").then(() => true, () => false)) await new Promise((r) => setTimeout(r, 20));
          expect(call, "the complete was still in flight when the API took SIGTERM").toBe("pending");
        } finally {
          await control("worker", "resume");
        }
      });
      const answer = await inFlight;
      await stopping;
      expect(answer, call).toBeDefined();
      expect(answer!.status, JSON.stringify(answer!.body)).toBe(200);
      expect(answer!.body.storedObject.status).toBe("READY");
      await expect(rest("GET", "/healthz")).rejects.toThrow();
    } finally {
      if (stopping) {
        await stopping.catch(() => undefined);
        await control("api", "start");
      }
    }
  });
});
