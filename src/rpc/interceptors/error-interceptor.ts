import type { Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { activeTraceId } from "../../observability/trace-ids.js";
import { toConnectError } from "../errors.js";
import { PRODUCT_ERRORS, type FrontDoorErrorOptions } from "../front-door/error-info-option.js";
import { requestIdKey } from "../principal.js";
import { watchStream } from "./response-stream.js";

/**
 * Outermost: every error leaves as a ConnectError with a stable reason (unless the mount fills in
 * no ErrorInfo), and is logged once; an error a server stream throws while streaming too.
 */
export function errorInterceptor(logger: Logger, errors: FrontDoorErrorOptions = PRODUCT_ERRORS): Interceptor {
  return (next) => async (req) => {
    const refused = (error: unknown) => {
      const connectError = toConnectError(error, errors.fillErrorInfo);
      const requestId = req.contextValues.get(requestIdKey);
      const log = { requestId, traceId: activeTraceId(), rpc: req.method.name, code: connectError.code, err: error };
      if (connectError.code === 13) logger.error(log, "rpc failed");
      else logger.info({ ...log, err: undefined, message: connectError.rawMessage }, "rpc refused");
      return connectError;
    };
    try {
      const res = await next(req);
      return res.stream ? watchStream(res, { onError: refused }) : res;
    } catch (error) {
      throw refused(error);
    }
  };
}
