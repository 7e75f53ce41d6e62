/**
 * Every string (and map key) of a request that holds U+0000, which PostgreSQL can store neither in
 * text nor in jsonb: refused as invalid input instead of failing the write as an internal error.
 * Struct, Value and ListValue are transparent: their contents are named as the JSON API spells them
 * (`customFields.key[2]`). The walk reads protobuf-es's own representation (a Struct field is a
 * plain JsonObject): through the reflection API, every read of a Struct field converted the whole
 * object to messages again. It is iterative, so no nesting can exhaust the stack, and a value's
 * path is spelled only when it holds a NUL.
 */
import type { DescField, DescMessage, JsonValue, Message } from "@bufbuild/protobuf";
import type { ListValue, Value } from "@bufbuild/protobuf/wkt";
import type { FieldViolation } from "../../domain/errors.js";
import { fieldValue } from "./field-value.js";

/** Where a value sits: its parent's place and its own step (`.name`, `[2]`, `["key"]`). */
interface Place {
  parent: Place | undefined;
  step: string;
  /** A name, written after a dot unless it comes first. */
  dotted: boolean;
}

type Pending =
  | { form: "message"; schema: DescMessage; value: Message; place: Place | undefined }
  | { form: "json"; value: JsonValue; place: Place | undefined }
  | { form: "value"; value: Value; place: Place | undefined };

function spelled(place: Place | undefined): string {
  const steps: Place[] = [];
  for (let at = place; at !== undefined; at = at.parent) steps.push(at);
  let out = "";
  for (const step of steps.reverse()) out += (step.dotted && out ? "." : "") + step.step;
  return out || "(message)";
}

const named = (parent: Place | undefined, name: string): Place => ({ parent, step: name, dotted: true });
const indexed = (parent: Place | undefined, index: number): Place => ({ parent, step: `[${index}]`, dotted: false });
const keyed = (parent: Place | undefined, key: string): Place => ({ parent, step: `[${JSON.stringify(key)}]`, dotted: false });

/** The violations, in the order of the request's fields. */
export function nulViolations(schema: DescMessage, message: Message): FieldViolation[] {
  const out: FieldViolation[] = [];
  const check = (text: string, place: Place | undefined) => {
    if (text.includes("\u0000")) out.push({ field: spelled(place), description: "must not contain the NUL character (U+0000)" });
  };
  // Children are pushed last first, so that they are visited in order.
  const pending: Pending[] = [{ form: "message", schema, value: message, place: undefined }];
  const later: Pending[] = [];
  const push = (item: Pending) => later.push(item);
  const element = (field: DescField, value: unknown, place: Place) => {
    if (typeof value === "string") check(value, place);
    else if (field.message !== undefined) for (const item of wrap(field.message, value, place)) push(item);
  };
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (item.form === "message") {
      for (const field of item.schema.fields) {
        const value = fieldValue(item.value, field);
        if (value === undefined) continue;
        const place = named(item.place, field.jsonName);
        if (field.fieldKind === "list") (value as unknown[]).forEach((v, i) => element(field, v, indexed(place, i)));
        else if (field.fieldKind === "map") {
          for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
            check(key, keyed(place, key));
            element(field, v, keyed(place, key));
          }
        } else element(field, value, place);
      }
    } else if (item.form === "json") {
      const { value, place } = item;
      // Strings are checked where they are met and places made only for containers and faults:
      // most of a large JSON value is numbers and short strings.
      const child = (v: JsonValue, at: () => Place) => {
        if (typeof v === "string") {
          if (v.includes("\u0000")) check(v, at());
        } else if (v !== null && typeof v === "object") push({ form: "json", value: v, place: at() });
      };
      if (typeof value === "string") check(value, place);
      else if (Array.isArray(value)) value.forEach((v, i) => child(v, () => indexed(place, i)));
      else if (value !== null && typeof value === "object") {
        for (const key in value) {
          if (key.includes("\u0000")) check(key, named(place, key));
          child(value[key]!, () => named(place, key));
        }
      }
    } else {
      const { kind } = item.value;
      if (kind.case === "stringValue") check(kind.value, item.place);
      else if (kind.case === "listValue") kind.value.values.forEach((v, i) => push({ form: "value", value: v, place: indexed(item.place, i) }));
      else if (kind.case === "structValue") {
        for (const [key, v] of Object.entries(kind.value.fields)) {
          check(key, named(item.place, key));
          push({ form: "value", value: v, place: named(item.place, key) });
        }
      }
    }
    while (later.length > 0) pending.push(later.pop()!);
  }
  return out;
}

/** A message field's value as the walk reads it: protobuf-es holds a Struct field as JSON. */
function wrap(schema: DescMessage, value: unknown, place: Place): Pending[] {
  switch (schema.typeName) {
    case "google.protobuf.Struct":
      return [{ form: "json", value: value as JsonValue, place }];
    case "google.protobuf.Value":
      return [{ form: "value", value: value as Value, place }];
    case "google.protobuf.ListValue":
      return (value as ListValue).values.map((v, i) => ({ form: "value", value: v, place: indexed(place, i) }));
    default:
      return [{ form: "message", schema, value: value as Message, place }];
  }
}
