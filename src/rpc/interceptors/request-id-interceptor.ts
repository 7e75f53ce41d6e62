import type { Interceptor } from "@connectrpc/connect";
import { requestIdKey } from "../principal.js";

export function requestIdInterceptor(newId: () => string): Interceptor {
  return (next) => async (req) => {
    const requestId = req.header.get("x-request-id") || newId();
    req.contextValues.set(requestIdKey, requestId);
    const res = await next(req);
    res.header.set("x-request-id", requestId);
    return res;
  };
}
