/**
 * MinIO's health endpoints answer 200 as soon as its HTTP listener is up, before its object layer
 * is initialised: until then they only set `x-minio-server-status: offline`, and an S3 call in that
 * window fails with 503 "Server not initialized" (the SDK's UnknownError). Ready means both.
 */
const SERVER_STATUS = "x-minio-server-status";
const NOT_INITIALISED = "offline";

export function minioIsReady(response: Pick<Response, "ok" | "headers">): boolean {
  return response.ok && response.headers.get(SERVER_STATUS) !== NOT_INITIALISED;
}
