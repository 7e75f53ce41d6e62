/**
 * S3 API requests MinIO has served, from its Prometheus endpoint. Not minio_s3_requests_total of
 * /minio/v2/metrics/cluster: MinIO caches that group for 10 s (getHTTPMetrics' cacheInterval in
 * cmd/metrics-v2.go), longer than a benchmark turn, so before/after readings would be stale. The
 * same counter (globalHTTPStats.TotalS3Requests) is read live at /minio/metrics/v3/api/requests
 * as minio_api_requests_total{name=<API>,type="s3"}; the sum over APIs is used.
 * The stack's MinIO keeps the endpoint behind authentication, so the request carries the bearer
 * token `mc admin prometheus generate` would make: a JWT signed HS512 with the secret key,
 * subject the access key, issuer "prometheus" (cmd/jwt.go metricsRequestAuthenticate).
 */
import { SignJWT } from "jose";

export interface MinioAccess {
  endpoint: string;
  accessKey: string;
  secretKey: string;
}

export const MINIO_REQUESTS_PATH = "/minio/metrics/v3/api/requests";
export const MINIO_REQUESTS_METRIC = "minio_api_requests_total";
/** Request bytes MinIO received (bodies: a part's bytes), per API type, on the same endpoint. */
export const MINIO_RECEIVED_BYTES_METRIC = "minio_api_requests_traffic_received_bytes";

async function token(access: MinioAccess): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS512", typ: "JWT" })
    .setSubject(access.accessKey)
    .setIssuer("prometheus")
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(access.secretKey));
}

/** Sum of every sample of `metric` in Prometheus text format (only those with `label`, e.g. `name="putobjectpart"`, when given). */
export function sumMetric(text: string, metric: string, label?: string): number | undefined {
  let sum = 0;
  let seen = false;
  for (const line of text.split("\n")) {
    if (!line.startsWith(metric)) continue;
    const rest = line.slice(metric.length);
    if (rest[0] !== "{" && rest[0] !== " ") continue; // another metric with this prefix
    if (label && !rest.toLowerCase().includes(label.toLowerCase())) continue;
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (Number.isFinite(value)) {
      sum += value;
      seen = true;
    }
  }
  return seen ? sum : undefined;
}

/** A reader of the request counter (of one API when `api` is given); `read()` is undefined when MinIO does not expose it. */
export function minioRequestCounter(access: MinioAccess, api?: string): Promise<{ read(): Promise<number | undefined>; problem?: string }> {
  return minioMetricReader(access, MINIO_REQUESTS_METRIC, api && `name="${api}"`);
}

/** A reader of the sum of `metric`'s samples (those with `label` when given) at MINIO_REQUESTS_PATH. */
export async function minioMetricReader(access: MinioAccess, metric: string, label?: string): Promise<{ read(): Promise<number | undefined>; problem?: string }> {
  const bearer = await token(access);
  let problem: string | undefined;
  const read = async () => {
    try {
      const res = await fetch(`${access.endpoint}${MINIO_REQUESTS_PATH}`, { headers: { authorization: `Bearer ${bearer}` } });
      const text = await res.text();
      if (res.status !== 200) {
        problem = `GET ${MINIO_REQUESTS_PATH}: ${res.status} ${text.slice(0, 200)}`;
        return undefined;
      }
      const total = sumMetric(text, metric, label);
      if (total !== undefined) return total;
      // No series with this label in MinIO's answer: it has counted none of those requests yet.
      if (label) return 0;
      problem = `no ${metric} in ${MINIO_REQUESTS_PATH}`;
      return undefined;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
      return undefined;
    }
  };
  const counter = {
    read,
    get problem() {
      return problem;
    },
  };
  return counter;
}
