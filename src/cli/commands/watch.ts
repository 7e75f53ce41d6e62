import { type StoredObject } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { EXIT, type CliContext } from "../context.js";
import { describeObject, isFinal, objectJson, statusName } from "../format.js";
import type { Command } from "./command.js";

export interface WatchOptions {
  intervalMs: number;
  timeoutMs: number;
}

/** Polls the object until READY or REJECTED, telling each status change on stderr. */
export async function waitUntilFinal(ctx: CliContext, objectId: string, options: WatchOptions): Promise<StoredObject> {
  const deadline = Date.now() + options.timeoutMs;
  let last: string | undefined;
  for (;;) {
    const { storedObject } = await ctx.clients.files.getUpload({ objectId });
    const status = statusName(storedObject!.status);
    if (status !== last) ctx.err.write(`${objectId} ${status}\n`);
    last = status;
    if (isFinal(storedObject!.status)) return storedObject!;
    if (Date.now() > deadline) throw new Error(`${objectId} is still ${status} after ${options.timeoutMs / 1000} s`);
    await ctx.sleep(options.intervalMs);
  }
}

/** Prints the final object; a rejected file exits with 3 so that scripts can tell. */
export function report(ctx: CliContext, object: StoredObject): number {
  if (ctx.json) ctx.out(JSON.stringify(objectJson(object)));
  else describeObject(object).forEach((line) => ctx.out(line));
  return statusName(object.status) === "REJECTED" ? EXIT.rejected : EXIT.ok;
}

export const watchOptions = {
  interval: { type: "string", default: "1" },
  timeout: { type: "string", default: "600" },
} as const;

export function parseWatchOptions(values: Record<string, unknown>): WatchOptions {
  return { intervalMs: Number(values.interval) * 1000 || 1000, timeoutMs: Number(values.timeout) * 1000 || 600_000 };
}

export const watchCommand: Command = {
  name: "watch",
  usage: "<id> [--interval S] [--timeout S]",
  summary: "wait until the object is READY or REJECTED (exit 3 when rejected)",
  positionals: ["id"],
  options: watchOptions,
  async run(ctx, [id], values) {
    return report(ctx, await waitUntilFinal(ctx, id, parseWatchOptions(values)));
  },
};
