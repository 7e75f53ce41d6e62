/** An endpoint's secrets after a rotation: the old one keeps signing until the overlap ends. */
export interface EndpointSecrets {
  secret: string;
  previousSecret?: string;
  previousSecretExpiresAt?: Date;
}

/**
 * The secrets a delivery at `at` is signed with, the current first. During the overlap a receiver
 * still configured with the old secret verifies the second signature (Standard Webhooks accepts
 * any of several space-separated `v1,` entries), so it can switch at its own pace.
 */
export function signingSecrets(secrets: EndpointSecrets, at: Date): string[] {
  const { secret, previousSecret, previousSecretExpiresAt } = secrets;
  if (previousSecret === undefined || previousSecretExpiresAt === undefined) return [secret];
  return at.getTime() < previousSecretExpiresAt.getTime() ? [secret, previousSecret] : [secret];
}

/** When the old secret stops signing, for a rotation at `at`. */
export function overlapEnd(at: Date, overlapSeconds: number): Date {
  return new Date(at.getTime() + overlapSeconds * 1000);
}
