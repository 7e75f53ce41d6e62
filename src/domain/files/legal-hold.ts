/**
 * What a legal hold does: the one statement of the rule. Everything else calls `removalBlocked`
 * or links here (the SQL of src/adapters/postgres/row-conditions.ts states the same condition in
 * its WHERE clauses, so a hold placed a moment before a delete commits always wins).
 *
 * - **Nothing removes a held object.** A user's delete is refused (`LEGAL_HOLD_ACTIVE`, audited
 *   as a FAILURE); retention expiry skips it whatever its policy and deadline (the sweep does not
 *   even select it, the object's workflow arms no timer while it lasts); an upload that fails
 *   verification keeps its bytes and stays PENDING_UPLOAD, only the refusal is audited.
 * - **A hold changes no state but itself.** Replacement still supersedes a held photo or logo (it
 *   moves to SUPERSEDED_30D and stops being current), and restore still makes it current again:
 *   the hold keeps the bytes, not the object's place. Released, the object's deadline applies
 *   again (its workflow is signalled and re-arms the timer; a deadline already past expires it).
 * - **Mirrored onto the bucket** where it has S3 Object Lock (STORAGE_OBJECT_LOCK): placed and
 *   released on the bucket object with the row; a hold placed on a pending upload reaches its
 *   bytes at complete. The row is the authority: the mirror guards against deletes from outside
 *   the service.
 */
export function removalBlocked(object: { legalHold: boolean }): boolean {
  return object.legalHold;
}
