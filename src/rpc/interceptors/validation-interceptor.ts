import type { DescMessage, Message } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { createValidator } from "@bufbuild/protovalidate";
import { type FieldViolation, validationFailed } from "../../domain/errors.js";
import { nulViolations } from "./nul-characters.js";
import { firstSizeViolation } from "./size-bounds.js";
import { validationSchemas } from "./validation-schema.js";
import { jsonPath } from "./violation-path.js";

/**
 * Enforces the protovalidate constraints declared in the contract, on every call. The size bounds
 * come first, each value read only as far as its bound (size-bounds.ts): protovalidate then never
 * meets a value larger than the contract allows, and is given the contract without the Struct,
 * Value and FieldMask caps that the pre-check has already evaluated (validation-schema.ts).
 */
export function validationInterceptor(): Interceptor {
  const validator = createValidator();
  const withoutSizeRules = validationSchemas();
  const check = (schema: DescMessage, message: Message): void => {
    const tooLarge = firstSizeViolation(schema, message);
    if (tooLarge !== undefined) throw validationFailed([{ field: jsonPath(tooLarge.path), description: tooLarge.message }]);
    const result = validator.validate(withoutSizeRules(schema), message);
    if (result.kind === "invalid") {
      const violations: FieldViolation[] = result.violations.map((v) => ({
        field: jsonPath(v.field),
        description: v.message,
      }));
      throw validationFailed(violations);
    }
    if (result.kind === "error") throw result.error;
    const nul = nulViolations(schema, message);
    if (nul.length > 0) throw validationFailed(nul);
  };
  return (next) => async (req) => {
    if (!req.stream) {
      check(req.method.input, req.message);
    } else if (req.method.methodKind === "server_streaming") {
      // A server-streaming call has exactly one request message: it is checked before the
      // handler starts, as a unary request is.
      const messages: Message[] = [];
      for await (const message of req.message) messages.push(message);
      for (const message of messages) check(req.method.input, message);
      return next({ ...req, message: replay(messages) });
    }
    return next(req);
  };
}

async function* replay<T>(messages: T[]): AsyncIterable<T> {
  yield* messages;
}
