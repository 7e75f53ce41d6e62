/**
 * tusd, the tus reference server, with its S3 store in a bucket of the stack's MinIO. Started only
 * by the benchmarks (bench/uploads-peers.ts) as a peer of our upload engine; `npm start` never
 * starts it. tusd reads its S3 credentials and region from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
 * and AWS_REGION, and talks path style to any -s3-endpoint (cmd/tusd/cli/composer.go).
 */
import { execFileSync } from "node:child_process";
import type { Log } from "./log-file.js";
import { LOOPBACK } from "./free-port.js";
import { spawnLogged } from "./process.js";
import { waitUntilReady } from "./readiness.js";

export interface TusdOptions {
  binary: string;
  port: number;
  logDir: string;
  log: Log;
  s3: { endpoint: string; bucket: string; region: string; accessKey: string; secretKey: string };
  /** Key prefix of tusd's objects (data and .info files) in the bucket. */
  objectPrefix?: string;
  startTimeoutMs?: number;
}

export interface RunningTusd {
  /** The upload creation URL (tus: POST here, PATCH the Location it answers). */
  filesUrl: string;
  pid: number | undefined;
  /** `tusd -version`, first line. */
  version: string;
  stop(): Promise<void>;
}

export async function startTusd(options: TusdOptions): Promise<RunningTusd> {
  const filesUrl = `http://${LOOPBACK}:${options.port}/files/`;
  const child = spawnLogged({
    name: "tusd",
    command: options.binary,
    args: [
      "-host",
      LOOPBACK,
      "-port",
      String(options.port),
      "-base-path",
      "/files/",
      "-s3-bucket",
      options.s3.bucket,
      "-s3-endpoint",
      options.s3.endpoint,
      "-s3-object-prefix",
      options.objectPrefix ?? "tusd/",
      // No MD5/SHA-256 of the content on the way to S3: our presigned PUT hashes nothing either,
      // so a comparison of the two measures the same work (the bench is its only user).
      "-s3-disable-content-hashes",
    ],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      AWS_ACCESS_KEY_ID: options.s3.accessKey,
      AWS_SECRET_ACCESS_KEY: options.s3.secretKey,
      AWS_REGION: options.s3.region,
      // Nothing from ~/.aws may change what this tusd talks to.
      AWS_CONFIG_FILE: "/dev/null",
      AWS_SHARED_CREDENTIALS_FILE: "/dev/null",
    },
    logDir: options.logDir,
    log: options.log,
    stopGraceMs: 5_000,
  });
  await waitUntilReady({
    what: "tusd",
    child,
    timeoutMs: options.startTimeoutMs ?? 30_000,
    // OPTIONS on the creation URL answers the tus versions and extensions once it serves.
    check: async () => {
      const response = await fetch(filesUrl, { method: "OPTIONS", signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      return response.status < 300 && response.headers.has("tus-version");
    },
  });
  const version = execFileSync(options.binary, ["-version"], { encoding: "utf8" }).split("\n")[0]?.trim() ?? "unknown";
  return { filesUrl, pid: child.pid, version, stop: child.stop };
}
