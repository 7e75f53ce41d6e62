import type { DescField, Message } from "@bufbuild/protobuf";

/**
 * A field's value as protobuf-es holds it, read without the reflection API (which converts a
 * Struct field's JsonObject to messages at every read): a oneof member's only when it is the
 * case, undefined for an unset message field.
 */
export function fieldValue(message: Message, field: DescField): unknown {
  const holder = message as unknown as Record<string, unknown>;
  if (field.oneof === undefined) return holder[field.localName];
  const selected = holder[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
  return selected?.case === field.localName ? selected.value : undefined;
}
