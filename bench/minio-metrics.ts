/**
 * S3 API requests MinIO has served: the sum of minio_s3_requests_total (one series per API) from
 * its Prometheus endpoint /minio/v2/metrics/cluster. The stack's MinIO keeps the endpoint behind
 * authentication, so the request carries the bearer token `mc admin prometheus generate` would
 * make: a JWT signed HS512 with the secret key, subject the access key, issuer "prometheus".
 */
import { SignJWT } from "jose";

export interface MinioAccess {
  endpoint: string;
  accessKey: string;
  secretKey: string;
}

async function token(access: MinioAccess): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS512", typ: "JWT" })
    .setSubject(access.accessKey)
    .setIssuer("prometheus")
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(access.secretKey));
}

/** Sum of every sample of `metric` in Prometheus text format. */
export function sumMetric(text: string, metric: string): number | undefined {
  let sum = 0;
  let seen = false;
  for (const line of text.split("\n")) {
    if (!line.startsWith(metric)) continue;
    const rest = line.slice(metric.length);
    if (rest[0] !== "{" && rest[0] !== " ") continue; // another metric with this prefix
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (Number.isFinite(value)) {
      sum += value;
      seen = true;
    }
  }
  return seen ? sum : undefined;
}

/** A reader of the request counter; `read()` is undefined when MinIO does not expose it. */
export async function minioRequestCounter(access: MinioAccess): Promise<{ read(): Promise<number | undefined>; problem?: string }> {
  const bearer = await token(access);
  let problem: string | undefined;
  const read = async () => {
    try {
      const res = await fetch(`${access.endpoint}/minio/v2/metrics/cluster`, { headers: { authorization: `Bearer ${bearer}` } });
      const text = await res.text();
      if (res.status !== 200) {
        problem = `GET /minio/v2/metrics/cluster: ${res.status} ${text.slice(0, 200)}`;
        return undefined;
      }
      const total = sumMetric(text, "minio_s3_requests_total");
      if (total === undefined) problem = "no minio_s3_requests_total in /minio/v2/metrics/cluster";
      return total;
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
