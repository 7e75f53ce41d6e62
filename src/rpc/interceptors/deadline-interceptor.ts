import type { Interceptor } from "@connectrpc/connect";
import { deadlineExceeded } from "../../domain/call-scope.js";
import { abortedByDeadline } from "../call-scope.js";

/**
 * A unary call whose deadline passed while its handler ran answers DEADLINE_EXCEEDED, as its gRPC
 * client has already reported, instead of the answer nobody waits for (a Connect client that sent
 * connect-timeout-ms would read a 200 after its deadline); the metrics count it so. A refusal
 * keeps its own code: it committed nothing, and says why. Inside the error interceptor, which
 * gives the error its reason.
 */
export function deadlineInterceptor(): Interceptor {
  return (next) => async (req) => {
    const res = await next(req);
    if (!res.stream && abortedByDeadline(req.signal)) throw deadlineExceeded();
    return res;
  };
}
