import type http2 from "node:http2";

/**
 * While `quiet` (the session has open streams, none of them sending), the server PINGs the client
 * every `intervalMs` and destroys the session, ending its calls, when a PING is not answered
 * within `timeoutMs`. A quiet call (a health Watch between changes) thus lasts as long as its
 * client is there, and not beyond: a client gone without a word (a dropped network, a host
 * powered off) no longer holds it. Sessions without streams are not pinged: an answer would count
 * as activity and keep them open past the session idle timeout.
 */
export function pingWhileQuiet(session: http2.ServerHttp2Session, quiet: () => boolean, intervalMs: number, timeoutMs: number): void {
  let unanswered: NodeJS.Timeout | undefined;
  const answered = () => {
    clearTimeout(unanswered);
    unanswered = undefined;
  };
  const tick = setInterval(() => {
    if (unanswered || session.destroyed || !quiet()) return;
    unanswered = setTimeout(() => session.destroy(), timeoutMs).unref();
    // The callback runs on the acknowledgement, or with an error once the session is gone.
    if (!session.ping(answered)) answered();
  }, intervalMs).unref();
  session.once("close", () => {
    clearInterval(tick);
    answered();
  });
}
