/**
 * Whose a queued create is: the tenant (`tid`) and user (`sub`) of the token it would have been
 * sent with. A queued create is sent only with a token naming the same two, never with whatever
 * token the page holds when the network comes back (another user may have signed in meanwhile).
 * The claims are read without checking the signature: the server checks it when the create is
 * sent; here they only decide which entries a token may send.
 */
export interface QueueOwner {
  tenant: string;
  user: string;
}

/** The owner a token names; undefined when it is not a JWT carrying both claims as strings. */
export function ownerOfToken(token: string): QueueOwner | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(decodeBase64Url(parts[1]!));
  } catch {
    return undefined;
  }
  const { tid, sub } = (claims ?? {}) as { tid?: unknown; sub?: unknown };
  if (typeof tid !== "string" || typeof sub !== "string" || tid === "" || sub === "") return undefined;
  return { tenant: tid, user: sub };
}

export function sameOwner(a: QueueOwner, b: Partial<QueueOwner>): boolean {
  return a.tenant === b.tenant && a.user === b.user;
}

function decodeBase64Url(text: string): string {
  const bytes = Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
