const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` is a UUID in its canonical text form (any case): every row id here is one. */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}
