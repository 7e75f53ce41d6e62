/** What the multipart tests share: big valid files, and MinIO's own count of the parts it received. */
import { minioRequestCounter } from "../../bench/minio-metrics.js";
import { stackConfig } from "./stack-access.js";

/** A CSV of `size` bytes: rows of 16 bytes, the last one cut short. */
export function csvOf(size: number): Uint8Array {
  const row = Buffer.from("1234567,abcdefg\n");
  const bytes = Buffer.alloc(size);
  for (let at = 0; at < size; at += row.length) row.copy(bytes, at, 0, Math.min(row.length, size - at));
  bytes[size - 1] = 0x0a;
  return bytes;
}

/** UploadPart requests MinIO served, from its own request metrics (not from a client's word). */
export async function partPutsCounter(): Promise<() => Promise<number>> {
  const storage = stackConfig().storage;
  const counter = await minioRequestCounter({ endpoint: storage.endpoint, accessKey: storage.accessKey, secretKey: storage.secretKey }, "putobjectpart");
  return async () => {
    const value = await counter.read();
    if (value === undefined) throw new Error(`MinIO request metrics unavailable: ${counter.problem}`);
    return value;
  };
}
