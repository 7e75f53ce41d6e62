/**
 * The size pre-check: the contract's maxima (string and bytes lengths, repeated max_items, map
 * max_pairs, map keys and values, and the `*.bounds` caps of Struct, Value and FieldMask) checked
 * before protovalidate, stopping at the first value over its bound. protovalidate checks every
 * rule of a field, so a 1 MiB string on a field with max_len 64 still went through its pattern
 * (hundreds of milliseconds), and a 50,000-key Struct through a CEL loop (seconds). Here each
 * value is read only as far as its bound: the walk costs no more than the bounds allow, whatever
 * the request's size. The violation is the one protovalidate would report (same path, same text).
 */
import { getOption, isFieldSet, type DescField, type DescMessage, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { Path } from "@bufbuild/protobuf/reflect";
import type { FieldMask, Value } from "@bufbuild/protobuf/wkt";
import {
  BytesRulesSchema,
  field as fieldRulesOption,
  MapRulesSchema,
  RepeatedRulesSchema,
  StringRulesSchema,
  type FieldRules,
} from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { fieldValue } from "./field-value.js";
import { jsonSizeRule, type JsonSizeRule, type ValueCaps } from "./json-size-rules.js";
import { codePointsExceed, utf8BytesExceed } from "./text-size.js";

/** A value over its bound: where, and protovalidate's words for it. */
export interface SizeViolation {
  path: Path;
  message: string;
}

interface TextBounds {
  len?: number;
  maxLen?: number;
  lenBytes?: number;
  maxBytes?: number;
}

/** What to check of one value: a field's, a list item's or a map value's. */
type Element =
  | { kind: "text"; bounds: TextBounds }
  | { kind: "bytes"; len?: number; maxLen?: number }
  | { kind: "json"; rule: JsonSizeRule }
  | { kind: "message"; schema: DescMessage };

interface FieldPlan {
  field: DescField;
  maxItems?: number;
  maxPairs?: number;
  keys?: TextBounds;
  element?: Element;
}

/**
 * No request type of the contract is recursive; should one become so, nesting past this depth is
 * refused rather than left unchecked (its `*.bounds` rules are not protovalidate's any more).
 */
export const MAX_MESSAGE_DEPTH = 32;

const plans = new Map<DescMessage, FieldPlan[]>();
const planning = new Set<DescMessage>();

/** The checks of a message type, computed once from its descriptor. */
function planOf(schema: DescMessage): FieldPlan[] {
  let plan = plans.get(schema);
  if (plan === undefined) {
    planning.add(schema);
    plan = schema.fields.map(fieldPlan).filter((checks) => checks !== undefined);
    planning.delete(schema);
    plans.set(schema, plan);
  }
  return plan;
}

/** Whether values of `schema` have anything to check (a type being planned, so recursive, has). */
function hasChecks(schema: DescMessage): boolean {
  return planning.has(schema) || planOf(schema).length > 0;
}

const num = (value: bigint | number) => Number(value);

function textBounds(rules: FieldRules | undefined): TextBounds | undefined {
  if (rules?.type.case !== "string") return undefined;
  const r = rules.type.value;
  const F = StringRulesSchema.field;
  const bounds: TextBounds = {};
  if (isFieldSet(r, F.len)) bounds.len = num(r.len);
  if (isFieldSet(r, F.maxLen)) bounds.maxLen = num(r.maxLen);
  if (isFieldSet(r, F.lenBytes)) bounds.lenBytes = num(r.lenBytes);
  if (isFieldSet(r, F.maxBytes)) bounds.maxBytes = num(r.maxBytes);
  return Object.keys(bounds).length > 0 ? bounds : undefined;
}

/** The check of one value of `field`'s element type under `rules` (the field's, items' or values'). */
function elementOf(field: DescField, rules: FieldRules | undefined): Element | undefined {
  if (field.message !== undefined) {
    for (const rule of rules?.cel ?? []) {
      const json = jsonSizeRule(field, rule);
      if (json !== undefined) return { kind: "json", rule: json };
    }
    const nested = field.message;
    // Well-known types without a `*.bounds` rule are of a fixed size (Timestamp, Duration).
    return nested.typeName.startsWith("google.protobuf.") || !hasChecks(nested) ? undefined : { kind: "message", schema: nested };
  }
  if (rules?.type.case === "bytes") {
    const r = rules.type.value;
    const F = BytesRulesSchema.field;
    const len = isFieldSet(r, F.len) ? num(r.len) : undefined;
    const maxLen = isFieldSet(r, F.maxLen) ? num(r.maxLen) : undefined;
    return len === undefined && maxLen === undefined ? undefined : { kind: "bytes", len, maxLen };
  }
  const bounds = textBounds(rules);
  return bounds === undefined ? undefined : { kind: "text", bounds };
}

function fieldPlan(field: DescField): FieldPlan | undefined {
  const rules = getOption(field, fieldRulesOption);
  const plan: FieldPlan = { field };
  if (field.fieldKind === "list") {
    const repeated = rules.type.case === "repeated" ? rules.type.value : undefined;
    if (repeated && isFieldSet(repeated, RepeatedRulesSchema.field.maxItems)) plan.maxItems = num(repeated.maxItems);
    plan.element = elementOf(field, repeated?.items);
  } else if (field.fieldKind === "map") {
    const map = rules.type.case === "map" ? rules.type.value : undefined;
    if (map && isFieldSet(map, MapRulesSchema.field.maxPairs)) plan.maxPairs = num(map.maxPairs);
    plan.keys = textBounds(map?.keys);
    plan.element = elementOf(field, map?.values);
  } else {
    plan.element = elementOf(field, rules);
  }
  const empty = plan.maxItems === undefined && plan.maxPairs === undefined && plan.keys === undefined && plan.element === undefined;
  return empty ? undefined : plan;
}

/** The first value of `message` over its bound, in field order, or undefined when none is. */
export function firstSizeViolation(schema: DescMessage, message: Message): SizeViolation | undefined {
  const path: Path = [];
  const description = messageViolation(schema, message, path, 0);
  return description === undefined ? undefined : { path: [...path], message: description };
}

/*
 * The walk below keeps `path` pointing at the value it reads and leaves it there when it finds a
 * violation (so the caller copies it once), popping it otherwise.
 */

function messageViolation(schema: DescMessage, message: Message, path: Path, depth: number): string | undefined {
  if (depth > MAX_MESSAGE_DEPTH) return `must be nested at most ${MAX_MESSAGE_DEPTH} messages deep`;
  for (const plan of planOf(schema)) {
    const value = fieldValue(message, plan.field);
    if (value === undefined) continue;
    path.push(plan.field);
    const found = fieldViolation(plan, value, path, depth);
    if (found !== undefined) return found;
    path.pop();
  }
  return undefined;
}

function fieldViolation(plan: FieldPlan, value: unknown, path: Path, depth: number): string | undefined {
  const { field, element } = plan;
  if (field.fieldKind === "list") {
    const items = value as unknown[];
    if (plan.maxItems !== undefined && items.length > plan.maxItems) return `must contain no more than ${plan.maxItems} item(s)`;
    if (element === undefined) return undefined;
    for (let index = 0; index < items.length; index++) {
      path.push({ kind: "list_sub", index });
      const found = elementViolation(element, items[index], path, depth);
      if (found !== undefined) return found;
      path.pop();
    }
    return undefined;
  }
  if (field.fieldKind === "map") {
    const entries = value as Record<string, unknown>;
    if (plan.maxPairs !== undefined && keysExceed(entries, plan.maxPairs)) return `map must be at most ${plan.maxPairs} entries`;
    if (plan.keys === undefined && element === undefined) return undefined;
    for (const key in entries) {
      path.push({ kind: "map_sub", key });
      const found = (plan.keys && textViolation(key, plan.keys)) ?? (element && elementViolation(element, entries[key], path, depth));
      if (found !== undefined) return found;
      path.pop();
    }
    return undefined;
  }
  return element && elementViolation(element, value, path, depth);
}

function elementViolation(element: Element, value: unknown, path: Path, depth: number): string | undefined {
  switch (element.kind) {
    case "text":
      return textViolation(value as string, element.bounds);
    case "bytes":
      return bytesViolation(value as Uint8Array, element);
    case "json":
      return jsonViolates(element.rule, value) ? element.rule.message : undefined;
    case "message":
      return messageViolation(element.schema, value as Message, path, depth + 1);
  }
}

/** protovalidate's order and words: len, max_len, len_bytes, max_bytes. */
function textViolation(text: string, bounds: TextBounds): string | undefined {
  if (bounds.len !== undefined && codePointsExceed(text, bounds.len)) return `must be ${bounds.len} characters`;
  if (bounds.maxLen !== undefined && codePointsExceed(text, bounds.maxLen)) return `must be at most ${bounds.maxLen} characters`;
  if (bounds.lenBytes !== undefined && utf8BytesExceed(text, bounds.lenBytes)) return `must be ${bounds.lenBytes} bytes`;
  if (bounds.maxBytes !== undefined && utf8BytesExceed(text, bounds.maxBytes)) return `must be at most ${bounds.maxBytes} bytes`;
  return undefined;
}

function bytesViolation(bytes: Uint8Array, bounds: { len?: number; maxLen?: number }): string | undefined {
  if (bounds.len !== undefined && bytes.length > bounds.len) return `must be ${bounds.len} bytes`;
  if (bounds.maxLen !== undefined && bytes.length > bounds.maxLen) return `must be at most ${bounds.maxLen} bytes`;
  return undefined;
}

/** More than `max` own keys, counted no further than max + 1. */
function keysExceed(object: object, max: number): boolean {
  let count = 0;
  for (const _ in object) if (++count > max) return true;
  return false;
}

/**
 * Whether a Struct, Value or FieldMask breaks its `*.bounds` rule, as the CEL expression reads.
 * protobuf-es holds a Struct field as a plain JsonObject, a Value field as a Value message.
 */
function jsonViolates(rule: JsonSizeRule, value: unknown): boolean {
  switch (rule.kind) {
    case "struct": {
      const object = value as JsonObject;
      if (keysExceed(object, rule.maxKeys)) return true;
      for (const key in object) if (codePointsExceed(key, rule.maxKeyLength) || jsonValueExceeds(object[key]!, rule.values)) return true;
      return false;
    }
    case "value":
      return valueMessageExceeds(value as Value, rule.values);
    case "field_mask": {
      const { paths } = value as FieldMask;
      return paths.length > rule.maxPaths || paths.some((p) => codePointsExceed(p, rule.maxPathLength));
    }
  }
}

/** One level only, as the rule: a string's code points, a list's items, an object's keys. */
function jsonValueExceeds(value: JsonValue, caps: ValueCaps): boolean {
  if (typeof value === "string") return codePointsExceed(value, caps.maxTextLength);
  if (Array.isArray(value)) return value.length > caps.maxListItems;
  return value !== null && typeof value === "object" && keysExceed(value, caps.maxObjectKeys);
}

function valueMessageExceeds(value: Value, caps: ValueCaps): boolean {
  switch (value.kind.case) {
    case "stringValue":
      return codePointsExceed(value.kind.value, caps.maxTextLength);
    case "listValue":
      return value.kind.value.values.length > caps.maxListItems;
    case "structValue":
      return keysExceed(value.kind.value.fields, caps.maxObjectKeys);
    default:
      return false;
  }
}
