import type { Interceptor } from "@connectrpc/connect";
import type { Path } from "@bufbuild/protobuf/reflect";
import { createValidator } from "@bufbuild/protovalidate";
import type { Logger } from "pino";
import { AppError, type FieldViolation, validationFailed } from "../domain/errors.js";
import { activeTraceId } from "../observability/trace-ids.js";
import { toConnectError } from "./errors.js";
import { methodPermissions, publicServices } from "./permissions.js";
import { principalKey, requestIdKey } from "./principal.js";
import type { TokenVerifier } from "./token-verifier.js";

/** Outermost: every error leaves as a ConnectError with a stable reason, and is logged once. */
export function errorInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (error) {
      const connectError = toConnectError(error);
      const requestId = req.contextValues.get(requestIdKey);
      const log = { requestId, traceId: activeTraceId(), rpc: req.method.name, code: connectError.code, err: error };
      if (connectError.code === 13) logger.error(log, "rpc failed");
      else logger.info({ ...log, err: undefined, message: connectError.rawMessage }, "rpc refused");
      throw connectError;
    }
  };
}

export function requestIdInterceptor(newId: () => string): Interceptor {
  return (next) => async (req) => {
    const requestId = req.header.get("x-request-id") || newId();
    req.contextValues.set(requestIdKey, requestId);
    const res = await next(req);
    res.header.set("x-request-id", requestId);
    return res;
  };
}

export function authInterceptor(verify: TokenVerifier): Interceptor {
  return (next) => async (req) => {
    if (publicServices.has(req.service.typeName)) return next(req);
    const header = req.header.get("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new AppError("UNAUTHENTICATED", "missing bearer token in the authorization header");
    const principal = await verify(match[1]);
    const permission = methodPermissions[`${req.service.typeName}/${req.method.name}`];
    if (!permission || !principal.permissions.has(permission)) {
      throw new AppError("PERMISSION_DENIED", `permission ${permission ?? "(none defined)"} is required`);
    }
    req.contextValues.set(principalKey, principal);
    return next(req);
  };
}

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
    }
    return next(req);
  };
}
