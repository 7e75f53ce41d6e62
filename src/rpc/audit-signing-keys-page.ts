import type { ServerResponse } from "node:http";
import type { AuditSigningKeys } from "../app/audit/port.js";
import type { RequestHandler } from "./http-server.js";

/** Where anyone, without a token, finds the keys that verify audit checkpoints. */
export const AUDIT_SIGNING_KEYS_PATH = "/.well-known/audit-signing-keys.json";

/**
 * The public keys as a JSON document, the same for every caller and every tenant: an auditor
 * fetches it once, outside the API's authentication, and verifies exports offline with it.
 * Caches may keep it five minutes; a rotation adds a key before any checkpoint names it.
 */
export function auditSigningKeysPage(published: AuditSigningKeys["published"]): RequestHandler {
  const body = JSON.stringify({ keys: published.map(({ keyId, publicKeyPem, current }) => ({ keyId, algorithm: "Ed25519", publicKeyPem, current })) });
  return (req, res) => {
    const response = res as ServerResponse;
    if (req.method !== "GET" && req.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD" });
      response.end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=300" });
    response.end(req.method === "HEAD" ? undefined : body);
  };
}
