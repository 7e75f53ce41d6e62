/**
 * The exact text a checkpoint signs, one field per line so that an auditor can rebuild it with
 * printf and check it with `openssl pkeyutl -verify -rawin`. The time is at millisecond precision,
 * as stored.
 */
export function checkpointPayload(tenantId: string, sequence: number, hash: string, signedAt: Date): string {
  return `files-and-fields audit checkpoint v1\n${tenantId}\n${sequence}\n${hash}\n${signedAt.toISOString()}\n`;
}
