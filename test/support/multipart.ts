/** What the multipart tests share: big valid files, and MinIO's own count of the parts it received and the reads it served. */
import { minioMetricReader } from "../../bench/minio-metrics.js";
import { stackConfig } from "./stack-access.js";

/** A CSV of `size` bytes: rows of 16 bytes, the last one cut short. */
export function csvOf(size: number): Uint8Array {
  const row = Buffer.from("1234567,abcdefg\n");
  const bytes = Buffer.alloc(size);
  for (let at = 0; at < size; at += row.length) row.copy(bytes, at, 0, Math.min(row.length, size - at));
  bytes[size - 1] = 0x0a;
  return bytes;
}

/**
 * UploadPart requests MinIO stored, from its own request metrics (not from a client's word): all
 * it received but those it refused and those the client cancelled on the way (a closed tab).
 */
export async function partPutsCounter(): Promise<() => Promise<number>> {
  const storage = stackConfig().storage;
  const access = { endpoint: storage.endpoint, accessKey: storage.accessKey, secretKey: storage.secretKey };
  const counters = await Promise.all(
    ["minio_api_requests_total", "minio_api_requests_errors_total", "minio_api_requests_canceled_total"].map((metric) => minioMetricReader(access, metric, 'name="putobjectpart"')),
  );
  return async () => {
    const [received, refused, cancelled] = await Promise.all(
      counters.map(async (counter) => {
        const value = await counter.read();
        if (value === undefined) throw new Error(`MinIO request metrics unavailable: ${counter.problem}`);
        return value;
      }),
    );
    return received! - refused! - cancelled!;
  };
}

/**
 * GetObject requests MinIO served (a ranged read is one too), from its own request metrics: how
 * many times the service read a stored object, whatever the code that did it believes.
 */
export async function objectReadsCounter(): Promise<() => Promise<number>> {
  const storage = stackConfig().storage;
  const counter = await minioMetricReader({ endpoint: storage.endpoint, accessKey: storage.accessKey, secretKey: storage.secretKey }, "minio_api_requests_total", 'name="getobject"');
  return async () => {
    const value = await counter.read();
    if (value === undefined) throw new Error(`MinIO request metrics unavailable: ${counter.problem}`);
    return value;
  };
}
