/**
 * A time PostgreSQL stores and reads back as written: a valid date in the years 1 to 9999.
 * Timestamps of the contract reach further (a gRPC client may send any seconds), and
 * `toISOString` writes years past 9999 as "+010000-..." or throws for an invalid date.
 */
export function isStorableTime(at: Date): boolean {
  if (Number.isNaN(at.getTime())) return false;
  const year = at.getUTCFullYear();
  return year >= 1 && year <= 9999;
}
