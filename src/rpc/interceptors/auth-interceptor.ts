import type { Interceptor } from "@connectrpc/connect";
import { AppError } from "../../domain/errors.js";
import { methodPermissions, publicServices, reflectionServices } from "../permissions.js";
import { auditedRefusal, type RefusalAuditor } from "../audited-refusals.js";
import { principalKey, requestIdKey } from "../principal.js";
import type { TokenVerifier } from "../token-verifier.js";

/**
 * Verifies the bearer token and the method's permission. A refusal on an audited method (see
 * audited-refusals.ts) is reported to `onRefused` before the caller hears it; a failure to record
 * it is logged by the auditor and does not change the answer.
 */
export function authInterceptor(verify: TokenVerifier, onRefused?: RefusalAuditor, options: { publicReflection?: boolean } = {}): Interceptor {
  return (next) => async (req) => {
    const reflection = reflectionServices.has(req.service.typeName);
    if (publicServices.has(req.service.typeName) || (reflection && options.publicReflection)) return next(req);
    const header = req.header.get("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new AppError("UNAUTHENTICATED", "missing bearer token in the authorization header");
    const principal = await verify(match[1]);
    if (reflection) {
      req.contextValues.set(principalKey, principal);
      return next(req);
    }
    const method = `${req.service.typeName}/${req.method.name}`;
    const permission = methodPermissions[method];
    if (!permission || !principal.permissions.has(permission)) {
      const refusal = req.stream ? undefined : auditedRefusal(method, req.message);
      if (onRefused && refusal) {
        const requestId = req.contextValues.get(requestIdKey) || undefined;
        await onRefused({ tenantId: principal.tenantId, actorId: principal.actorId, requestId, ...refusal, reason: "PERMISSION_DENIED" });
      }
      throw new AppError("PERMISSION_DENIED", `permission ${permission ?? "(none defined)"} is required`);
    }
    req.contextValues.set(principalKey, principal);
    return next(req);
  };
}
