/**
 * 9. Load: many concurrent uploads of mixed classes, valid and invalid, through the real flow
 * (initiate, PUT, complete, scan), the bigger run of test/integration/load.test.ts. Uploads per
 * second end to end against the floor of the data path: the same bytes PUT straight to the same
 * MinIO with the SDK at the same concurrency. Also reports whether every object ended as its bytes
 * deserve and whether rows and bucket objects agree one to one.
 */
import { ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { parseConfig } from "../src/config/config.js";
import { createS3Client } from "../src/adapters/s3/s3-object-storage.js";
import { csv, exe, pdf, png, svg } from "../test/fixtures/files/index.js";
import type { BenchGroup } from "./context.js";
import { baseline, figure } from "./figure.js";
import { apiFor, progress, runPool } from "./support.js";
import { uploadThrough } from "./uploads.js";

const kinds = [
  { objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: () => png(64, 64), ends: "READY" },
  { objectClass: "REPORT", contentType: "text/csv", bytes: () => csv([["a", "b"], ["1", "2"]]), ends: "READY" },
  { objectClass: "REPORT", contentType: "application/pdf", bytes: () => pdf(), ends: "READY" },
  { objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: () => exe(), ends: "REJECTED" },
  { objectClass: "COMPANY_LOGO", contentType: "image/svg+xml", bytes: () => svg("<script>x()</script>"), ends: "REJECTED" },
] as const;

export const load: BenchGroup = {
  name: "load",
  kind: "stack",
  async run({ stack, options }) {
    const count = options.loadUploads;
    const concurrency = 32;
    const api = await apiFor(stack.apiUrl, "bench-load");
    progress(`load: ${count} mixed uploads through the full flow at concurrency ${concurrency}`);
    let wrong = 0;
    const started = performance.now();
    await runPool(count, concurrency, async (i) => {
      const kind = kinds[i % kinds.length];
      const object = await uploadThrough(api, { objectClass: kind.objectClass, contentType: kind.contentType, bytes: kind.bytes(), ownerEntityId: `o${i}` });
      if (object.status !== kind.ends) wrong++;
    });
    const flowSeconds = (performance.now() - started) / 1000;

    const storage = parseConfig(stack.env).storage;
    const s3 = createS3Client(storage);
    progress(`load: ${count} direct PutObject of the same bytes at concurrency ${concurrency}`);
    const direct = performance.now();
    await runPool(count, concurrency, (i) =>
      s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: `bench-load-direct/${i}`, Body: kinds[i % kinds.length].bytes(), ServerSideEncryption: "AES256" })),
    );
    const directSeconds = (performance.now() - direct) / 1000;

    // Bucket objects of this tenant against its live rows (rejected ones stay until their 7 days).
    let keys = 0;
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: `tenants/${api.tenant}/`, ContinuationToken: token }));
      keys += page.KeyCount ?? 0;
      token = page.NextContinuationToken;
    } while (token);
    s3.destroy();
    const floor = baseline(`direct PutObject, same bytes, concurrency ${concurrency}`, count / directSeconds, "uploads/s");
    return [
      figure(`Mixed uploads end to end, ${count} at concurrency ${concurrency}`, count / flowSeconds, "uploads/s", floor,
        `initiate + PUT + complete + scan; ${count - wrong} of ${count} ended as their bytes deserve (3 of 5 kinds valid); ${keys} bucket objects for ${count} objects; ${flowSeconds.toFixed(1)} s`),
    ];
  },
};
