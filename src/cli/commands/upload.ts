import { stat } from "node:fs/promises";
import path from "node:path";
import { ObjectClass } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { guessContentType } from "../guess-content-type.js";
import { UsageError } from "../context.js";
import { isFinal } from "../format.js";
import { ProgressBar } from "../progress.js";
import { putFile } from "../transfer.js";
import type { Command } from "./command.js";
import { parseWatchOptions, report, waitUntilFinal, watchOptions } from "./watch.js";

export function enumValue<E extends Record<string, string | number>>(enumObject: E, name: string, option: string): E[keyof E] {
  const value = enumObject[name.toUpperCase() as keyof E];
  if (typeof value !== "number" || value === 0) {
    const allowed = Object.keys(enumObject).filter((k) => Number.isNaN(Number(k)) && enumObject[k] !== 0);
    throw new UsageError(`${option}: unknown value "${name}"; expected one of ${allowed.join(", ")}`);
  }
  return value;
}

export const uploadCommand: Command = {
  name: "upload",
  usage: "<file> --class C --owner-type T --owner-id I [--type MIME] [--wait]",
  summary: "initiate, PUT the bytes with a progress bar, complete (--wait: until the scan ends)",
  positionals: ["file"],
  options: {
    class: { type: "string" },
    "owner-type": { type: "string" },
    "owner-id": { type: "string" },
    type: { type: "string" },
    wait: { type: "boolean", default: false },
    ...watchOptions,
  },
  async run(ctx, [file], values) {
    for (const required of ["class", "owner-type", "owner-id"]) {
      if (!values[required]) throw new UsageError(`--${required} is required`);
    }
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`${file} is not a readable file`);
    const originalFilename = path.basename(file);
    const contentType = (values.type as string | undefined) ?? guessContentType(originalFilename);
    if (!contentType) throw new UsageError(`cannot tell the content type of ${originalFilename}; pass --type`);
    const started = await ctx.clients.files.initiateUpload({
      objectClass: enumValue(ObjectClass, values.class as string, "--class"),
      ownerEntityType: values["owner-type"] as string,
      ownerEntityId: values["owner-id"] as string,
      originalFilename,
      contentType,
      fileSize: BigInt(info.size),
    });
    const objectId = started.storedObject!.id;
    ctx.err.write(`${objectId} initiated (${contentType})\n`);
    await putFile(started.uploadUrl, started.uploadHeaders, file, new ProgressBar(ctx.err, originalFilename, info.size));
    const wait = values.wait === true;
    let { storedObject } = await ctx.clients.files.completeUpload({ objectId, waitForResult: wait });
    // complete answers at its deadline even if the scan goes on; then keep watching.
    if (wait && !isFinal(storedObject!.status)) storedObject = await waitUntilFinal(ctx, objectId, parseWatchOptions(values));
    return report(ctx, storedObject!);
  },
};
