/**
 * MalwareScanner on clamd's socket protocol (TCP or a Unix socket), one connection per call.
 * Commands are sent in the null-terminated form (`zINSTREAM\0`), so each reply ends at its `\0`.
 * INSTREAM takes the bytes as chunks, each after its length as a 4-byte big-endian integer, and a
 * zero length ends them. The source's chunks are gathered into chunks of up to FRAME_BYTES, each
 * written at once (a storage stream yields 16-64 KiB pieces, and a write per piece cost a system
 * call each); the next is read only when the socket has taken the last (backpressure): a file is
 * never held whole in memory.
 */
import { connect } from "node:net";
import type { MalwareScanCallOptions, MalwareScanner } from "../../app/files/lifecycle/port.js";
import { parseScanReply, truncate } from "../../domain/files/malware/clamd-scan-reply.js";
import { parseVersionReply } from "../../domain/files/malware/clamd-version.js";
import { MalwareScannerError, type EngineVersion, type MalwareVerdict } from "../../domain/files/malware/malware-verdict.js";
import { formatClamdAddress, type ClamdAddress } from "../../config/malware-scanner.js";

export interface ClamdScannerOptions {
  address: ClamdAddress;
  connectTimeoutMs: number;
  /** No byte either way for this long fails the call ("timeout"). */
  idleTimeoutMs: number;
  /**
   * clamd's StreamMaxLength, when known: a longer stream is "too-large" without sending clamd the
   * bytes past it. clamd refuses such a stream itself too, but it answers and closes at once, and
   * when that close reaches this side before its answer has been read (a write fails with EPIPE,
   * and Node discards the socket with the unread answer), the call can only fail "unreachable".
   */
  streamMaxBytes?: number;
}

/** clamd reads a chunk whole before the next; a large one from the caller is sent in slices. */
const MAX_CHUNK_BYTES = 1024 * 1024;
/** The source's pieces are gathered until this many bytes before they go as one chunk. */
const FRAME_BYTES = 256 * 1024;
const END_OF_STREAM = new Uint8Array(4);

export function clamdScanner(options: ClamdScannerOptions): MalwareScanner {
  return {
    async scan(bytes, call): Promise<MalwareVerdict> {
      const reply = await converse(options, "INSTREAM", call, (session) => sendStream(session, bytes, options.streamMaxBytes ?? Infinity));
      return reply === undefined ? { verdict: "too-large" } : parseScanReply(reply);
    },
    async version(call): Promise<EngineVersion> {
      return parseVersionReply((await converse(options, "VERSION", call)) ?? "");
    },
    async ping(call) {
      expect("PING", await converse(options, "PING", call), "PONG");
    },
    async reload(call) {
      expect("RELOAD", await converse(options, "RELOAD", call), "RELOADING");
    },
  };
}

function expect(command: string, reply: string | undefined, wanted: string): void {
  if (reply?.trim() !== wanted) throw new MalwareScannerError("protocol", `clamd answered ${command} with "${truncate(reply?.trim() ?? "")}"`);
}

/** What a command's body sees of the connection. */
interface Session {
  /** Writes the pieces together; resolves when the socket can take more; false when clamd has answered or the connection ended. */
  write(pieces: readonly Uint8Array[]): Promise<boolean>;
  /** False once clamd has answered, the connection ended or the call was aborted: read no more of the source. */
  open(): boolean;
}

/** "over-limit": the stream is longer than `maxBytes`; the end marker was not sent. */
async function sendStream(session: Session, bytes: AsyncIterable<Uint8Array>, maxBytes: number): Promise<"sent" | "over-limit"> {
  let sent = 0;
  let frame: Uint8Array[] = [];
  let frameBytes = 0;
  // clamd answers early only to refuse (size limit): the rest of the bytes would be ignored.
  const flush = async () => {
    if (frameBytes === 0) return true;
    const length = Buffer.alloc(4);
    length.writeUInt32BE(frameBytes);
    const written = await session.write([length, ...frame]);
    frame = [];
    frameBytes = 0;
    return written;
  };
  for await (const chunk of bytes) {
    if (!session.open()) return "sent";
    for (let offset = 0; offset < chunk.length; ) {
      const slice = chunk.subarray(offset, offset + Math.min(MAX_CHUNK_BYTES - frameBytes, chunk.length - offset));
      offset += slice.length;
      sent += slice.length;
      if (sent > maxBytes) return "over-limit";
      frame.push(slice);
      frameBytes += slice.length;
      if (frameBytes >= FRAME_BYTES && !(await flush())) return "sent";
    }
  }
  if (!(await flush())) return "sent";
  await session.write([END_OF_STREAM]);
  return "sent";
}

/**
 * Sends `command` (and the body), returns the reply without its terminator; undefined when the
 * body stopped over the limit (no reply is waited for). The connection is closed afterwards
 * either way; clamd closes it too after a command outside a session.
 */
function converse(
  options: ClamdScannerOptions,
  command: string,
  call: MalwareScanCallOptions | undefined,
  body?: (session: Session) => Promise<"sent" | "over-limit">,
): Promise<string | undefined> {
  const signal = call?.signal;
  signal?.throwIfAborted();
  const where = formatClamdAddress(options.address);
  const socket = options.address.kind === "unix" ? connect({ path: options.address.path }) : connect({ host: options.address.host, port: options.address.port });
  let connected = false;
  let received = Buffer.alloc(0);
  let reply: string | undefined;
  let failure: Error | undefined;

  return new Promise<string | undefined>((resolve, reject) => {
    let overLimit = false;
    const finish = (error: Error | undefined) => {
      clearTimeout(connectTimer);
      signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      // A reply that arrived before the connection broke still counts (clamd answers, then closes).
      if (reply !== undefined || overLimit) resolve(reply);
      else reject(error ?? failure ?? new MalwareScannerError("protocol", `clamd at ${where} closed the connection without answering ${command}`));
    };
    const fail = (error: Error) => {
      failure ??= error;
      finish(failure);
    };
    const onAbort = () => fail(signal!.reason instanceof Error ? signal!.reason : new Error(String(signal!.reason)));
    signal?.addEventListener("abort", onAbort, { once: true });
    const connectTimer = setTimeout(
      () => fail(new MalwareScannerError("unreachable", `no connection to clamd at ${where} within ${options.connectTimeoutMs} ms`)),
      options.connectTimeoutMs,
    );

    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const end = received.indexOf(0);
      if (end >= 0) {
        reply = received.subarray(0, end).toString("utf8");
        finish(undefined);
      } else if (received.length > 64 * 1024) {
        fail(new MalwareScannerError("protocol", `clamd at ${where} sent 64 KiB without ending its reply to ${command}`));
      }
    });
    socket.once("end", () => finish(undefined));
    socket.once("close", () => finish(undefined));
    socket.on("error", (error) => {
      fail(
        new MalwareScannerError(
          "unreachable",
          connected ? `the connection to clamd at ${where} broke during ${command}: ${error.message}` : `cannot connect to clamd at ${where}: ${error.message}`,
          error,
        ),
      );
    });
    socket.setTimeout(options.idleTimeoutMs, () =>
      fail(new MalwareScannerError("timeout", `clamd at ${where} was silent for ${options.idleTimeoutMs} ms during ${command}`)),
    );

    socket.once("connect", () => {
      connected = true;
      clearTimeout(connectTimer);
      socket.write(`z${command}\0`);
      if (!body) return;
      const session: Session = {
        open: () => reply === undefined && !failure && !socket.destroyed,
        async write(pieces) {
          // One turn of the event loop first, so a reply waiting to be read is read: clamd answers
          // a stream past its limit and closes at once, and a write after that close fails (EPIPE)
          // and destroys the socket before Node has read the answer that came before it.
          await new Promise((next) => setImmediate(next));
          if (!session.open()) return false;
          // Corked, the pieces leave in one system call.
          socket.cork();
          let room = true;
          for (const piece of pieces) room = socket.write(piece);
          socket.uncork();
          if (room) return true;
          await new Promise<void>((wake) => {
            const done = () => {
              socket.off("drain", done);
              socket.off("close", done);
              wake();
            };
            socket.on("drain", done);
            socket.on("close", done);
          });
          return session.open();
        },
      };
      // The source's own errors (storage unreadable) leave as they are: they are not about clamd.
      body(session).then((outcome) => {
        if (outcome !== "over-limit") return;
        overLimit = true;
        finish(undefined);
      }, fail);
    });
  });
}
