import type http from "node:http";
import http2 from "node:http2";
import type { Socket } from "node:net";
import type { HttpLimitsConfig } from "../config/http-limits.js";
import { pingWhileQuiet } from "./http2-pings.js";

const ms = (seconds: number) => seconds * 1000;

/**
 * How often Node's HTTP/1.1 server looks for connections past their header or request
 * deadline; its default (30 s) would let a slow client outlive a short deadline by that much.
 */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

/** A connection that sends nothing is closed before it is handed to either protocol. */
export function closeIfSilent(socket: Socket, limits: HttpLimitsConfig): () => void {
  const silent = () => socket.destroy();
  socket.setTimeout(ms(limits.firstByteTimeoutSeconds));
  socket.once("timeout", silent);
  return () => {
    socket.setTimeout(0);
    socket.off("timeout", silent);
  };
}

export function http1Options(limits: HttpLimitsConfig): http.ServerOptions {
  return {
    headersTimeout: ms(limits.headersTimeoutSeconds),
    requestTimeout: ms(limits.requestTimeoutSeconds),
    keepAliveTimeout: ms(limits.keepAliveTimeoutSeconds),
    maxHeaderSize: limits.maxHeaderBytes,
    connectionsCheckingInterval: Math.min(CONNECTIONS_CHECKING_INTERVAL_MS, ms(limits.headersTimeoutSeconds) / 2),
  };
}

/**
 * The HTTP/1.1 server never listens itself (connections are handed to it), and Node only
 * enforces `headersTimeout` and `requestTimeout` once its server emitted "listening": without
 * this, a client dribbling its headers would be held forever. `server.timeout` closes a socket
 * silent in both directions while a call is open (e.g. a reader that stopped reading a stream).
 */
export function enforceHttp1Limits(h1: http.Server, limits: HttpLimitsConfig): void {
  h1.setTimeout(ms(limits.idleTimeoutSeconds));
  h1.emit("listening");
}

export function http2Options(limits: HttpLimitsConfig): http2.ServerOptions {
  return {
    maxSessionMemory: limits.http2.maxSessionMemoryMegabytes,
    settings: { maxConcurrentStreams: limits.http2.maxConcurrentStreams, maxHeaderListSize: limits.maxHeaderBytes },
  };
}

const cancel = (stream: http2.ServerHttp2Stream) => stream.close(http2.constants.NGHTTP2_CANCEL);

/**
 * A stream whose request has not fully arrived within the request timeout is cancelled, as is
 * one silent in both directions for the idle timeout while an answer waits that the client does
 * not take (a reader that stopped reading). Answers may take longer: a streaming answer that keeps
 * sending is never cut, nor is a quiet one with nothing to send (a health Watch between changes,
 * a call waiting for a scan): the session's pings tell whether its client is still there.
 */
function limitStream(stream: http2.ServerHttp2Stream, limits: HttpLimitsConfig): void {
  stream.setTimeout(ms(limits.idleTimeoutSeconds), () => {
    if (stream.writableLength > 0) cancel(stream);
  });
  if (stream.endAfterHeaders) return;
  const deadline = setTimeout(() => cancel(stream), ms(limits.requestTimeoutSeconds)).unref();
  const arrived = () => clearTimeout(deadline);
  stream.once("end", arrived);
  stream.once("close", arrived);
}

/**
 * A session must acknowledge the server's SETTINGS in time, and one without open streams is
 * closed with GOAWAY once idle. Sessions with open streams are left to their streams' bounds (a
 * long quiet call is not cut) and, while every one of them is quiet, to pings: one whose client
 * stops answering them is closed. Not while an answer waits: Node times out a stream with
 * pending writes only when its session sent nothing since, so a ping would shield a reader that
 * stopped reading (that stream's timeout comes first, then the pings).
 */
function limitSession(session: http2.ServerHttp2Session, limits: HttpLimitsConfig): void {
  const unacknowledged = setTimeout(() => session.destroy(), ms(limits.http2.settingsTimeoutSeconds)).unref();
  session.once("localSettings", () => clearTimeout(unacknowledged));
  session.once("close", () => clearTimeout(unacknowledged));
  const open = new Set<http2.ServerHttp2Stream>();
  session.on("stream", (stream: http2.ServerHttp2Stream) => {
    open.add(stream);
    stream.once("close", () => open.delete(stream));
    limitStream(stream, limits);
  });
  session.setTimeout(ms(limits.http2.sessionIdleTimeoutSeconds), () => {
    if (open.size === 0) session.close();
  });
  const allQuiet = () => open.size > 0 && [...open].every((stream) => stream.writableLength === 0);
  pingWhileQuiet(session, allQuiet, ms(limits.http2.pingIntervalSeconds), ms(limits.http2.pingTimeoutSeconds));
}

export function enforceHttp2Limits(h2: http2.Http2Server, limits: HttpLimitsConfig): void {
  h2.on("session", (session: http2.ServerHttp2Session) => limitSession(session, limits));
}
