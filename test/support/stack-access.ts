import { DeleteObjectCommand, HeadObjectCommand, ListObjectVersionsCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { Client, Connection } from "@temporalio/client";
import type { MikroORM } from "@mikro-orm/postgresql";
import { inject } from "vitest";
import { parseConfig } from "../../src/config/config.js";
import { openDatabase } from "../../src/adapters/postgres/orm.js";
import { createS3Client } from "../../src/adapters/s3/s3-object-storage.js";

/** Direct access to the suite's real components, for checks the API does not expose. */
export function stackConfig() {
  return parseConfig(inject("stackEnv"));
}

export async function withDb<T>(work: (orm: MikroORM) => Promise<T>): Promise<T> {
  const orm = await openDatabase(stackConfig().databaseUrl, 2);
  try {
    return await work(orm);
  } finally {
    await orm.close();
  }
}

export async function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  return withDb((orm) => orm.em.fork().execute(query, params) as Promise<T[]>);
}

/**
 * ANALYZE, run again when PostgreSQL ends it as a deadlock victim: the worker builds custom-field
 * indexes CONCURRENTLY at any moment, and such a build and an ANALYZE of the same table can
 * deadlock (PostgreSQL aborts one of them; the builder redoes its build on its own).
 */
export async function analyze(table: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sql(`analyze ${table}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01" || attempt >= 5) throw error;
    }
  }
}

export async function withTemporal<T>(work: (client: Client, taskQueue: string) => Promise<T>): Promise<T> {
  const config = stackConfig();
  const connection = await Connection.connect({ address: config.temporal.address });
  try {
    return await work(new Client({ connection, namespace: config.temporal.namespace }), config.temporal.taskQueue);
  } finally {
    await connection.close();
  }
}

export function s3(): { client: S3Client; bucket: string } {
  const config = stackConfig();
  return { client: createS3Client(config.storage), bucket: config.storage.bucket };
}

/** Whether the bucket holds `key`: false only when S3 answers "no such key"; any other error is thrown. */
export async function bucketHas(key: string): Promise<boolean> {
  const { client, bucket } = s3();
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if (isNoSuchKey(error)) return false;
    throw error;
  } finally {
    client.destroy();
  }
}

/** HEAD answers a missing key with a bare 404 ("NotFound"), GET with "NoSuchKey". */
function isNoSuchKey(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (e.name === "NotFound" || e.name === "NoSuchKey") && e.$metadata?.httpStatusCode === 404;
}

export async function putDirect(key: string, body: Uint8Array): Promise<void> {
  const { client, bucket } = s3();
  try {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  } finally {
    client.destroy();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Whether the bucket object is gone within a few seconds: an expiry or delete commits the row
 * first (so a hold placed a moment before wins), then removes the bytes.
 */
export async function bucketObjectRemoved(key: string, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await bucketHas(key)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/** Every stored version of a key (the bucket is versioned when it has Object Lock). */
export async function versionsOf(key: string): Promise<string[]> {
  const { client, bucket } = s3();
  try {
    const page = await client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: key }));
    return [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].filter((v) => v.Key === key).map((v) => v.VersionId!);
  } finally {
    client.destroy();
  }
}

/** A delete straight at the storage backend, bypassing the API, of one version. */
export async function deleteVersionDirect(key: string, versionId: string): Promise<number> {
  const { client, bucket } = s3();
  try {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: versionId }));
    return 204;
  } catch (error) {
    return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
  } finally {
    client.destroy();
  }
}

/** Every key under a prefix of the bucket. */
export async function bucketKeys(prefix: string): Promise<Set<string>> {
  const { client, bucket } = s3();
  const keys = new Set<string>();
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
    for (const o of page.Contents ?? []) keys.add(o.Key!);
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  client.destroy();
  return keys;
}
