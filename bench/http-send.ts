/**
 * One request with a body through node:http, for the bench clients' data path (our presigned PUT,
 * tusd's PATCH): undici's fetch spends markedly more CPU per uploaded MiB (the `put` group shows
 * it at 0.6 of the SDK's speed for 8 MiB), and the clients share the 2 cores with the stack they
 * measure. Both peers use it, and the SDK's PutObject (the floor) uses node:http too.
 */
import http from "node:http";

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export function httpSend(method: string, url: string, headers: Record<string, string>, body?: Uint8Array): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, "content-length": String(body?.byteLength ?? 0) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
