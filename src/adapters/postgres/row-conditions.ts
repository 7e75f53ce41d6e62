/** A row that is not soft-deleted, by tenant and id: the scope of every state change of the API and lifecycle. */
export const live = (tenantId: string, id: string) => ({ tenantId, id, deletedAt: null });

/**
 * No legal hold on the row: the WHERE clause of every statement that removes an object (user
 * delete, failed verification, the sweep's overdue rows). The rule is src/domain/files/legal-hold.ts;
 * stating it in the write means a hold placed a moment before always wins.
 */
export const NOT_HELD = { legalHoldPlacedAt: null };
