/**
 * An HTTP/1.1 request answered before its body was read to the end (a message or body over the
 * limit, refused from its length) while its client is still sending. Closing the connection after
 * the answer, or destroying the request (what a `for await` over it does when the reader stops),
 * closes a socket with unread bytes in it: the kernel answers them with a reset, which can reach
 * the client before it reads the answer, so it sees a broken pipe instead of the error. Instead
 * the reader stops without destroying anything, and the rest of the body is read and dropped
 * after the answer ("lingering close", as nginx and Apache do), for a bounded time: a client that
 * finishes sending by then keeps its connection, one that does not is disconnected.
 */
import { IncomingMessage, type ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";

/**
 * The request's body, chunk by chunk; a reader that stops early leaves the request alive. HTTP/2
 * streams keep Node's behaviour (a reader that stops resets the stream, which is how HTTP/2 tells a
 * client to stop sending).
 */
export function bodyChunks(req: IncomingMessage | Http2ServerRequest): AsyncIterable<Buffer> {
  if (!(req instanceof IncomingMessage)) return req as AsyncIterable<Buffer>;
  return req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
}

/** Once the answer has gone out, drops what is left of an HTTP/1.1 body (module comment). */
export function lingerOnUnreadBody(req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse, lingerMs: number): void {
  if (!(req instanceof IncomingMessage)) return;
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    const socket = req.socket;
    const deadline = setTimeout(() => socket.destroy(), lingerMs).unref();
    // 'close' follows the body's end, or the connection's.
    req.once("close", () => clearTimeout(deadline));
    req.removeAllListeners("data");
    req.resume();
  });
}
