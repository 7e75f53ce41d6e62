/**
 * The size caps of the JSON-shaped well-known types (Struct, Value, FieldMask), read from the
 * contract's CEL rules named `*.bounds`, so that the size pre-check can enforce them without CEL.
 * protovalidate evaluates those rules by converting the whole Struct to a CEL map at every `this`
 * it meets: seconds for a Struct within the bounds whose values are large objects. The contract
 * stays the one source of the numbers; a rule written in another shape is not recognised and is
 * left to protovalidate (test/unit/rpc/size-bounds.test.ts holds every contract rule recognised).
 */
import type { DescField } from "@bufbuild/protobuf";
import type { Rule } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";

/** What a Value may hold: code points of a string, items of a list, keys of an object. */
export interface ValueCaps {
  maxTextLength: number;
  maxListItems: number;
  maxObjectKeys: number;
}

export type JsonSizeRule =
  | { kind: "struct"; maxKeys: number; maxKeyLength: number; values: ValueCaps; message: string }
  | { kind: "value"; values: ValueCaps; message: string }
  | { kind: "field_mask"; maxPaths: number; maxPathLength: number; message: string };

/** The rule shapes the contract uses, with `#` where a number goes, spaces normalised. */
const VALUE_CAPS = "? size(V) <= # : type(V) == list ? size(V) <= # : type(V) == map ? size(V) <= # : true";
const SHAPES = {
  struct: `size(this) <= # && this.all(k, size(k) <= # && (type(this[k]) == string ${VALUE_CAPS.replaceAll("V", "this[k]")}))`,
  value: `type(this) == string ${VALUE_CAPS.replaceAll("V", "this")}`,
  field_mask: "size(this.paths) <= # && this.paths.all(p, size(p) <= #)",
} as const;

const TYPE_OF_SHAPE: Record<keyof typeof SHAPES, string> = {
  struct: "google.protobuf.Struct",
  value: "google.protobuf.Value",
  field_mask: "google.protobuf.FieldMask",
};

/** Whether `rule` is a size cap in the sense of this module (by its id). */
export function isBoundsRule(rule: Rule): boolean {
  return rule.id.endsWith(".bounds");
}

/** The caps a `*.bounds` rule on `field` states, or undefined when its shape is not one of ours. */
export function jsonSizeRule(field: DescField, rule: Rule): JsonSizeRule | undefined {
  if (!isBoundsRule(rule) || field.message === undefined) return undefined;
  const numbers: number[] = [];
  // Digits only, no backtracking: every run of digits becomes `#`.
  const shape = rule.expression
    .replace(/\d+/g, (digits) => {
      numbers.push(Number(digits));
      return "#";
    })
    .replace(/\s+/g, " ")
    .trim();
  const message = rule.message || `"${rule.expression}" returned false`;
  const typeName = field.message.typeName;
  const caps = (at: number): ValueCaps => ({ maxTextLength: numbers[at]!, maxListItems: numbers[at + 1]!, maxObjectKeys: numbers[at + 2]! });
  if (shape === SHAPES.struct && typeName === TYPE_OF_SHAPE.struct) return { kind: "struct", maxKeys: numbers[0]!, maxKeyLength: numbers[1]!, values: caps(2), message };
  if (shape === SHAPES.value && typeName === TYPE_OF_SHAPE.value) return { kind: "value", values: caps(0), message };
  if (shape === SHAPES.field_mask && typeName === TYPE_OF_SHAPE.field_mask) return { kind: "field_mask", maxPaths: numbers[0]!, maxPathLength: numbers[1]!, message };
  return undefined;
}
