import type { Interceptor } from "@connectrpc/connect";
import { isReflectList, isReflectMap, isReflectMessage, reflect, type Path, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { createValidator } from "@bufbuild/protovalidate";
import { type FieldViolation, validationFailed } from "../../domain/errors.js";

/** A violation's field as the JSON API spells it: `storedObject.ownerEntityId`, `rules[2]`. */
function jsonPath(path: Path): string {
  let out = "";
  for (const item of path) {
    if (item.kind === "list_sub") out += `[${item.index}]`;
    else if (item.kind === "map_sub") out += `[${JSON.stringify(String(item.key))}]`;
    else if (item.kind === "field") out += (out ? "." : "") + item.jsonName;
    else out += (out ? "." : "") + item.name;
  }
  return out || "(message)";
}

const JSON_WRAPPERS = new Set(["google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue"]);

/**
 * Every string (and map key) of a request that holds U+0000, which PostgreSQL can store neither in
 * text nor in jsonb: refused here, as invalid input, instead of failing the write as an internal
 * error. Struct values are named as the JSON API spells them (`customFields.key`).
 */
function nulViolations(message: ReflectMessage, at: string, out: FieldViolation[]): FieldViolation[] {
  const transparent = JSON_WRAPPERS.has(message.desc.typeName);
  const visit = (value: unknown, path: string): void => {
    if (typeof value === "string") {
      if (value.includes("\u0000")) out.push({ field: path || "(message)", description: "must not contain the NUL character (U+0000)" });
    } else if (isReflectMessage(value)) {
      nulViolations(value, path, out);
    } else if (isReflectList(value)) {
      let i = 0;
      for (const item of value) visit(item, `${path}[${i++}]`);
    } else if (isReflectMap(value)) {
      for (const [key, item] of value) {
        const keyPath = transparent ? `${path}${path ? "." : ""}${String(key)}` : `${path}[${JSON.stringify(String(key))}]`;
        visit(key, keyPath);
        visit(item, keyPath);
      }
    }
  };
  for (const field of message.fields) {
    if (!message.isSet(field)) continue;
    visit(message.get(field), transparent ? at : `${at}${at ? "." : ""}${field.jsonName}`);
  }
  return out;
}

/** Enforces the protovalidate constraints declared in the contract, on every call. */
export function validationInterceptor(): Interceptor {
  const validator = createValidator();
  return (next) => async (req) => {
    if (!req.stream) {
      const result = validator.validate(req.method.input, req.message);
      if (result.kind === "invalid") {
        const violations: FieldViolation[] = result.violations.map((v) => ({
          field: jsonPath(v.field),
          description: v.message,
        }));
        throw validationFailed(violations);
      }
      if (result.kind === "error") throw result.error;
      const nul = nulViolations(reflect(req.method.input, req.message), "", []);
      if (nul.length > 0) throw validationFailed(nul);
    }
    return next(req);
  };
}
